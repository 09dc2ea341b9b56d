import { FORM_KEYS } from './fields';

/**
 * Accepted submissions per address: five an hour. Enforced in the database by
 * submissions.server.ts (tested there).
 */
export const RATE_LIMIT = { max: 5, windowMs: 60 * 60 * 1000 } as const;

export const RATE_LIMITED_MESSAGE = {
  titleKey: FORM_KEYS.spamTitle,
  messageKey: FORM_KEYS.spamRateLimited,
} as const;
