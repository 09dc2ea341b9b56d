/**
 * The scheduling service's redirect parameters, read defensively: the confirmation URL is
 * public, so anyone can put anything in it. Every value is optional; a value that is too
 * long, malformed or carries markup is dropped (never echoed), an invalid date is ignored,
 * and parsing never throws.
 *
 * Accepted names (first non-empty wins):
 * - booking id: the path (/booking-confirmation/{id}), then booking_id, bookingId, id, event_id
 * - event type: event_type_name (or event_type), event_type_uuid
 * - invitee: invitee_full_name (or invitee_name, or invitee_first_name + invitee_last_name),
 *   invitee_email, invitee_uuid
 * - event_start_time, event_end_time (ISO 8601), assigned_to (the advisor)
 * - source (where the booking started), debug (true/1/yes: a test link, not a real booking)
 */
import { z } from 'zod';

/** Longest raw value looked at: anything longer is dropped before it is parsed. */
export const MAX_RAW_LENGTH = 300;

const token = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
/** Names in any script: letters, marks, digits, spaces and the punctuation names use. No markup. */
const name = (max: number) =>
  z
    .string()
    .transform((v) => v.replace(/\s+/g, ' ').trim())
    .pipe(
      z
        .string()
        .min(1)
        .max(max)
        .regex(/^[\p{L}\p{M}\p{N} .,'’()&:+-]+$/u),
    );
const email = z.string().trim().max(254).pipe(z.email());
/** 2026-02-30 is not a day (Date.parse would roll it over to 2 March). */
function isCalendarDate(value: string): boolean {
  const [y, m, d] = value.slice(0, 10).split('-').map(Number);
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}
const isoDateTime = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/)
  .refine(isCalendarDate)
  .transform((v) => Date.parse(v))
  .pipe(
    z
      .number()
      .int()
      .min(Date.UTC(2000, 0, 1))
      .max(Date.UTC(2100, 0, 1)),
  )
  .transform((t) => new Date(t).toISOString());
const source = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,32}$/)
  .transform((v) => v.toLowerCase());
const flag = z
  .string()
  .trim()
  .toLowerCase()
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

const schema = z.object({
  bookingId: token.optional().catch(undefined),
  eventTypeName: name(120).optional().catch(undefined),
  eventTypeUuid: token.optional().catch(undefined),
  inviteeName: name(100).optional().catch(undefined),
  inviteeEmail: email.optional().catch(undefined),
  inviteeUuid: token.optional().catch(undefined),
  startTime: isoDateTime.optional().catch(undefined),
  endTime: isoDateTime.optional().catch(undefined),
  assignedTo: name(100).optional().catch(undefined),
  source: source.optional().catch(undefined),
  debug: flag.optional().catch(undefined),
});

export type BookingDetails = Omit<z.infer<typeof schema>, 'debug'> & { debug: boolean };

/** Fields shown to the visitor as the booking summary (source and debug are not). */
export const SUMMARY_FIELDS = [
  'eventTypeName',
  'startTime',
  'inviteeName',
  'inviteeEmail',
  'assignedTo',
  'bookingId',
] as const;

export function parseBookingParams(search: URLSearchParams, pathId?: string | null): BookingDetails {
  const read = (...names: string[]) => {
    for (const n of names) {
      const value = search.get(n);
      if (value != null && value.trim() !== '') return value.length > MAX_RAW_LENGTH ? '\u0000' : value;
    }
    return undefined;
  };
  const pathValue = pathId && pathId.length <= MAX_RAW_LENGTH && pathId.trim() !== '' ? pathId : undefined;
  const first = read('invitee_first_name');
  const last = read('invitee_last_name');
  const raw = {
    bookingId: pathValue ?? read('booking_id', 'bookingId', 'id', 'event_id'),
    eventTypeName: read('event_type_name', 'event_type'),
    eventTypeUuid: read('event_type_uuid'),
    inviteeName:
      read('invitee_full_name', 'invitee_name') ??
      (first || last ? [first, last].filter(Boolean).join(' ') : undefined),
    inviteeEmail: read('invitee_email', 'email'),
    inviteeUuid: read('invitee_uuid'),
    startTime: read('event_start_time', 'start_time'),
    endTime: read('event_end_time', 'end_time'),
    assignedTo: read('assigned_to'),
    source: read('source', 'utm_source'),
    debug: read('debug'),
  };
  // Every field catches its own failure, so this parse cannot fail; the fallback is belt and braces.
  const parsed = schema.safeParse(raw);
  const details: BookingDetails = parsed.success
    ? { ...parsed.data, debug: parsed.data.debug ?? false }
    : { debug: false };
  // An end before the start is not a time range.
  if (details.startTime && details.endTime && details.endTime <= details.startTime) details.endTime = undefined;
  if (!details.startTime) details.endTime = undefined;
  // Drop undefined keys: the loader's data stays small and predictable.
  return Object.fromEntries(Object.entries(details).filter(([, v]) => v !== undefined)) as BookingDetails;
}

/** True when the visitor's URL carried at least one detail worth showing. */
export function hasSummary(details: BookingDetails): boolean {
  return SUMMARY_FIELDS.some((f) => details[f] !== undefined);
}
