import { FORM_KEYS } from './fields';

/** Accepted submissions per address: five an hour. */
export const RATE_LIMIT = { max: 5, windowMs: 60 * 60 * 1000 } as const;

/**
 * Per-address limit: true when `previous` (times of earlier accepted submissions from
 * the same address) already holds `max` within the window ending at `now`.
 */
export function isRateLimited(
  previous: readonly number[],
  now: number,
  limit: { max: number; windowMs: number } = RATE_LIMIT,
): boolean {
  const recent = previous.filter((t) => t <= now && now - t < limit.windowMs).length;
  return recent >= limit.max;
}

export const RATE_LIMITED_MESSAGE = {
  titleKey: FORM_KEYS.spamTitle,
  messageKey: FORM_KEYS.spamRateLimited,
} as const;
