import { sql } from 'drizzle-orm';
import { billingCreditNoteCounters, billingEvents, billingInvoiceCounters } from '~/db/schema.server';
import type { Db, Tx } from '~/db/types.server';
import type { BillingEvent } from '../types';
import { CREDIT_NOTE_PREFIX } from '../tax/credit-note';
import { newId } from './ids.server';

/**
 * What the engine's state changes share inside their one transaction: the invoice number and
 * the events. Each is written with the change, so a change that rolls back leaves no number
 * used and no event recorded.
 */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event before the engine gives it its id and time. */
export type EventBody = DistributiveOmit<BillingEvent, 'id' | 'created'>;

/** The whole database or one transaction: the engine's reads take either. */
export type Queryable = Db | Tx;

export const INVOICE_PREFIX = 'BWB';
export { CREDIT_NOTE_PREFIX };

/**
 * The next invoice number of the year of `created` (UTC): BWB-2026-0001, … One statement that
 * adds one to the year's counter row (creating it at 1) and returns it; the row stays locked
 * until the transaction ends, so a concurrent transaction (in this or another process) waits
 * and takes the next number, and a transaction that rolls back gives its number back. Never
 * given twice, never skipped.
 */
export async function takeInvoiceNumber(tx: Tx, created: Date): Promise<{ number: string; sequence: number }> {
  return takeNumber(tx, billingInvoiceCounters, INVOICE_PREFIX, created);
}

/** The next credit note number of the year (CN-2026-0001, …): its own sequence, taken as the invoices' is. */
export async function takeCreditNoteNumber(tx: Tx, created: Date): Promise<{ number: string; sequence: number }> {
  return takeNumber(tx, billingCreditNoteCounters, CREDIT_NOTE_PREFIX, created);
}

async function takeNumber(
  tx: Tx,
  counters: typeof billingInvoiceCounters | typeof billingCreditNoteCounters,
  prefix: string,
  created: Date,
): Promise<{ number: string; sequence: number }> {
  const year = created.getUTCFullYear();
  const [counter] = await tx
    .insert(counters)
    .values({ year, last: 1 })
    .onConflictDoUpdate({ target: counters.year, set: { last: sql`${counters.last} + 1` } })
    .returning({ last: counters.last });
  return {
    number: `${prefix}-${year}-${String(counter.last).padStart(4, '0')}`,
    sequence: year * 1_000_000 + counter.last,
  };
}

/**
 * Records events in the outbox, undelivered, in this transaction (one statement), in the order
 * given: the table's identity column orders them after every event recorded before.
 */
export async function recordEvents(tx: Tx, now: Date, bodies: EventBody[]): Promise<BillingEvent[]> {
  const created = now.toISOString();
  const events = bodies.map((body) => ({ ...body, id: newId('evt'), created }) as BillingEvent);
  if (events.length)
    await tx.insert(billingEvents).values(
      events.map((event) => ({
        id: event.id,
        type: event.type,
        createdAt: now,
        event: event as unknown as Record<string, unknown>,
      })),
    );
  return events;
}

/** The constraint a unique violation (SQLSTATE 23505) names, or null for any other error. */
export function uniqueViolation(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return typeof constraint === 'string' ? constraint : '';
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}
