/**
 * Validation of the FAQ question form and the newsletter form (docs/requirements.md#forms), and
 * the pure parts of the spam checks. Errors are i18next keys in the `forms`
 * namespace (public/locales/{lng}/forms.json), so a Remix action can answer in the
 * page's language and tie each message to its input.
 *
 * Rules:
 * - FAQ: name, email, phone and question are required (after trimming). When any is
 *   missing, the form-level error is 'Incomplete Form - Please fill in all fields to
 *   submit your question.' (FORM_KEYS.incompleteTitle / incomplete) and each missing
 *   field gets its own message; an empty phone says 'Phone number is required'.
 *   When all are filled but one is invalid, the form-level error is 'Please check
 *   your details' with the first field's message.
 * - Phone: '+' then the country code and number, digits with optional spaces, dashes,
 *   dots or brackets ('+971 50-123 4567', '+44 (20) 7946 0958', '(+971) 50 123 4567').
 *   Arabic-Indic digits are accepted and stored as ASCII digits. Without the leading
 *   '+': 'Please include your (+country code)'. With it but not 7-15 digits (E.164)
 *   or with other characters: 'Please enter a valid phone number.'
 * - Email: zod's email format; otherwise 'Please enter a valid email address.' (the
 *   newsletter shows it under the title 'Invalid email').
 * - Lengths are capped (name 200, email 254, phone 32, question 5000 characters).
 *
 * Spam (no captcha service; every verdict has a message, nothing is dropped silently):
 * - a honeypot field (HONEYPOT_FIELD) that people never see must stay empty;
 * - the form carries a signed start time (createFormToken, HMAC-SHA-256 over Web
 *   Crypto, so it runs in Node and browsers); a submission less than MIN_FILL_MS
 *   (3 s) after it is 'too fast'; a missing, forged or future token, or one older than
 *   TOKEN_MAX_AGE_MS (2 h), is 'expired' (the page re-renders with a fresh token: a real
 *   person just submits again); a token carries one stored submission only (see
 *   submissions.server.ts);
 * - isRateLimited(): the per-address limit over the times of earlier submissions.
 */
import { z } from 'zod';
import { FAQ_FIELDS, FORM_KEYS, FORM_TOKEN_FIELD, HONEYPOT_FIELD, MAX_LENGTH, type FaqField } from './fields';

export { FAQ_FIELDS, FORM_KEYS, FORM_TOKEN_FIELD, HONEYPOT_FIELD, MAX_LENGTH, type FaqField };
import { toAsciiDigits } from '../chat/puzzle';

export type FormMessageKey = (typeof FORM_KEYS)[keyof typeof FORM_KEYS];


/**
 * Characters no visitor means to type and that can disguise text: C0/C1 controls (NUL, escape,
 * line breaks in a one-line field) and the bidirectional overrides and isolates (U+202A-U+202E,
 * U+2066-U+2069) that can make "exe.pdf" read as "fdp.exe". One-line fields lose all of them;
 * multi-line fields keep line breaks and tabs. Removed before validating, so they never reach
 * the store or an email header.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufeff]/g;
// eslint-disable-next-line no-control-regex
const UNSAFE_MULTI_LINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufeff]/g;
export const cleanOneLine = (value: string) => value.replace(UNSAFE_ONE_LINE, ' ').replace(/\s+/g, ' ');
export const cleanMultiLine = (value: string) => value.replace(UNSAFE_MULTI_LINE, '').replace(/\r\n?/g, '\n');

const requiredText = (max: number, requiredKey: FormMessageKey = FORM_KEYS.required, multiLine = false) =>
  z
    .string({ error: requiredKey })
    .transform(multiLine ? cleanMultiLine : cleanOneLine)
    .pipe(z.string().trim().min(1, { error: requiredKey }).max(max, { error: FORM_KEYS.tooLong }));

const emailField = z
  .string({ error: FORM_KEYS.required })
  .trim()
  .min(1, { error: FORM_KEYS.required })
  .max(MAX_LENGTH.email, { error: FORM_KEYS.tooLong })
  .pipe(z.email({ error: FORM_KEYS.invalidEmail }));

const phoneField = z
  .string({ error: FORM_KEYS.phoneRequired })
  .transform((s) => toAsciiDigits(s).trim())
  .pipe(
    z
      .string()
      .min(1, { error: FORM_KEYS.phoneRequired })
      .max(MAX_LENGTH.phone, { error: FORM_KEYS.tooLong })
      .regex(/^\(?\+/, { error: FORM_KEYS.phoneCountryCode })
      .regex(/^\(?\+\d[\d\s().-]*$/, { error: FORM_KEYS.phoneInvalid })
      .refine((s) => /^\d{7,15}$/.test(s.replace(/\D/g, '')), {
        error: FORM_KEYS.phoneInvalid,
      }),
  );

export const faqQuestionSchema = z.object({
  name: requiredText(MAX_LENGTH.name),
  email: emailField,
  phone: phoneField,
  question: requiredText(MAX_LENGTH.question, FORM_KEYS.required, true),
});
export type FaqQuestion = z.infer<typeof faqQuestionSchema>;

export const newsletterSchema = z.object({
  email: z
    .string({ error: FORM_KEYS.invalidEmail })
    .trim()
    .max(MAX_LENGTH.email, { error: FORM_KEYS.invalidEmail })
    .pipe(z.email({ error: FORM_KEYS.invalidEmail })),
});
export type NewsletterSignup = z.infer<typeof newsletterSchema>;

export type FormInput = FormData | Record<string, unknown>;

export type ValidationResult<T, F extends string> =
  | { success: true; data: T }
  | {
      success: false;
      /** Title and message for the whole form (toast or alert). */
      formError: { titleKey: FormMessageKey; messageKey: FormMessageKey };
      /** The first message of each invalid field, for aria-describedby. */
      fieldErrors: Partial<Record<F, FormMessageKey>>;
    };

/** Plain object of the given fields; non-string values (files) become ''. */
function fieldsOf<F extends string>(input: FormInput, fields: readonly F[]): Record<F, string> {
  const out = {} as Record<F, string>;
  for (const f of fields) {
    const v = typeof FormData !== 'undefined' && input instanceof FormData
      ? input.get(f)
      : (input as Record<string, unknown>)[f];
    out[f] = typeof v === 'string' ? v : '';
  }
  return out;
}

function firstErrors<F extends string>(error: z.ZodError, fields: readonly F[]) {
  const fieldErrors: Partial<Record<F, FormMessageKey>> = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && (fields as readonly string[]).includes(field)) {
      const f = field as F;
      fieldErrors[f] ??= issue.message as FormMessageKey;
    }
  }
  return fieldErrors;
}


export function validateFaqQuestion(input: FormInput): ValidationResult<FaqQuestion, FaqField> {
  const values = fieldsOf(input, FAQ_FIELDS);
  const parsed = faqQuestionSchema.safeParse(values);
  if (parsed.success) return { success: true, data: parsed.data };
  const incomplete = FAQ_FIELDS.some((f) => values[f].trim() === '');
  return {
    success: false,
    formError: incomplete
      ? { titleKey: FORM_KEYS.incompleteTitle, messageKey: FORM_KEYS.incomplete }
      : { titleKey: FORM_KEYS.invalidTitle, messageKey: firstMessage(parsed.error) },
    fieldErrors: firstErrors(parsed.error, FAQ_FIELDS),
  };
}

function firstMessage(error: z.ZodError): FormMessageKey {
  return (error.issues[0]?.message ?? FORM_KEYS.incomplete) as FormMessageKey;
}

const NEWSLETTER_FIELDS = ['email'] as const;

export function validateNewsletter(input: FormInput): ValidationResult<NewsletterSignup, 'email'> {
  const values = fieldsOf(input, NEWSLETTER_FIELDS);
  const parsed = newsletterSchema.safeParse(values);
  if (parsed.success) return { success: true, data: parsed.data };
  return {
    success: false,
    formError: { titleKey: FORM_KEYS.invalidEmailTitle, messageKey: FORM_KEYS.invalidEmail },
    fieldErrors: { email: FORM_KEYS.invalidEmail },
  };
}

// ---------------------------------------------------------------- spam checks

/** Name of the hidden field people never fill (autofill ignores this name). */
/** Name of the hidden field carrying the signed start time. */
export const MIN_FILL_MS = 3000;
/** A form token is accepted for two hours after the page issued it. */
export const TOKEN_MAX_AGE_MS = 2 * 60 * 60 * 1000;
export const RATE_LIMIT = { max: 5, windowMs: 60 * 60 * 1000 } as const;

const encoder = new TextEncoder();

function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
}

function toBase64Url(bytes: ArrayBuffer): string {
  let binary = '';
  for (const b of new Uint8Array(bytes)) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(s: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]+$/.test(s)) return null;
  try {
    const binary = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

/** The hidden field's value: `{issuedAt ms}.{HMAC-SHA-256 signature, base64url}`. */
export async function createFormToken(issuedAt: number, secret: string): Promise<string> {
  const stamp = String(Math.floor(issuedAt));
  const signature = await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(stamp));
  return `${stamp}.${toBase64Url(signature)}`;
}

/**
 * The signed start time, or null when the token is missing, malformed or forged. `secret` may
 * list several secrets (the current one, then previous ones during a rotation): any may verify.
 */
export async function readFormToken(token: unknown, secret: string | readonly string[]): Promise<number | null> {
  if (typeof token !== 'string') return null;
  const match = /^(\d{1,16})\.([A-Za-z0-9_-]{20,100})$/.exec(token);
  if (!match) return null;
  const [, stamp = '', sig = ''] = match;
  const signature = fromBase64Url(sig);
  if (!signature) return null;
  for (const candidate of typeof secret === 'string' ? [secret] : secret) {
    if (await crypto.subtle.verify('HMAC', await hmacKey(candidate), signature, encoder.encode(stamp))) return Number(stamp);
  }
  return null;
}

export type SpamVerdict =
  | { ok: true }
  | {
      ok: false;
      reason: 'honeypot' | 'tooFast' | 'expired';
      titleKey: FormMessageKey;
      messageKey: FormMessageKey;
    };

const spam = (
  reason: 'honeypot' | 'tooFast' | 'expired',
  messageKey: FormMessageKey,
): SpamVerdict => ({ ok: false, reason, titleKey: FORM_KEYS.spamTitle, messageKey });

/** Honeypot and minimum fill time, from the submitted form. */
export async function checkSpam(
  input: FormInput,
  options: { secret: string | readonly string[]; now: number; minFillMs?: number },
): Promise<SpamVerdict> {
  const { [HONEYPOT_FIELD]: honeypot, [FORM_TOKEN_FIELD]: token } = fieldsOf(input, [
    HONEYPOT_FIELD,
    FORM_TOKEN_FIELD,
  ]);
  if (honeypot.trim() !== '') return spam('honeypot', FORM_KEYS.spamHoneypot);
  const startedAt = await readFormToken(token, options.secret);
  if (startedAt === null || startedAt > options.now || options.now - startedAt > TOKEN_MAX_AGE_MS) return spam('expired', FORM_KEYS.spamExpired);
  if (options.now - startedAt < (options.minFillMs ?? MIN_FILL_MS)) {
    return spam('tooFast', FORM_KEYS.spamTooFast);
  }
  return { ok: true };
}

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
