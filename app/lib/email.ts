import { z } from 'zod';

/**
 * What this site accepts as an email address, everywhere one is typed (sign-in, checkout, the
 * forms): zod's email format (no spaces, quotes, angle brackets or markup; a dotted domain),
 * at most 254 characters, trimmed and in lower case. One rule, so an address refused by one
 * form is never stored by another or sent mail to.
 */
export const emailAddress = z
  .string()
  .trim()
  .min(3)
  .max(254)
  .pipe(z.email())
  .transform((value) => value.toLowerCase());

/** The address in lower case, or null when it is not one. */
export function parseEmailAddress(value: unknown): string | null {
  const parsed = emailAddress.safeParse(value);
  return parsed.success ? parsed.data : null;
}
