/**
 * Form field names and limits shared by the form components (browser) and the server's
 * validation. Kept free of zod so the browser bundle does not carry the validator.
 */
export const MAX_LENGTH = { name: 200, email: 254, phone: 32, question: 5000 } as const;
export const FAQ_FIELDS = ['name', 'email', 'phone', 'question'] as const;
export type FaqField = (typeof FAQ_FIELDS)[number];
export const HONEYPOT_FIELD = 'hp_leave_empty';
export const FORM_TOKEN_FIELD = 'form_started';
/**
 * Issues a visitor token. The forms no longer ask for one (pages carry a page token, ADR 0021);
 * it answers tabs still running the scripts of a page rendered before that.
 */
export const FORM_TOKEN_ACTION = '/api/form-token';

/** i18next keys of the messages (namespace `forms`). */
export const FORM_KEYS = {
  incompleteTitle: 'forms:incompleteTitle',
  incomplete: 'forms:incomplete',
  invalidTitle: 'forms:invalidTitle',
  required: 'forms:required',
  tooLong: 'forms:tooLong',
  phoneRequired: 'forms:phoneRequired',
  phoneCountryCode: 'forms:phoneCountryCode',
  phoneInvalid: 'forms:phoneInvalid',
  invalidEmailTitle: 'forms:invalidEmailTitle',
  invalidEmail: 'forms:invalidEmail',
  submissionErrorTitle: 'forms:submissionErrorTitle',
  submissionError: 'forms:submissionError',
  spamTitle: 'forms:spamTitle',
  spamTooFast: 'forms:spamTooFast',
  spamExpired: 'forms:spamExpired',
  spamHoneypot: 'forms:spamHoneypot',
  spamRateLimited: 'forms:spamRateLimited',
  confirmTitle: 'forms:confirmTitle',
  confirmSend: 'forms:confirmSend',
  badRequest: 'forms:badRequest',
} as const;
