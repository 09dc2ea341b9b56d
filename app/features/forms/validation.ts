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
 * The spam checks are in spam-check.ts, the per-address limit in rate-limit.ts.
 */
import { z } from 'zod';
import { toAsciiDigits } from '~/lib/digits';
import { FAQ_FIELDS, FORM_KEYS, MAX_LENGTH, type FaqField } from './fields';

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
export function fieldsOf<F extends string>(input: FormInput, fields: readonly F[]): Record<F, string> {
  const out = {} as Record<F, string>;
  for (const f of fields) {
    const v =
      typeof FormData !== 'undefined' && input instanceof FormData
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
