/**
 * The version of the newsletter's sign-up wording (the form's title, text and button, and the
 * sentence asking to confirm, in both languages): stored with each sign-up
 * (`newsletter_signups.consent_version`) so the firm can show what a person agreed to. Change the
 * wording and this changes with it: wording.test.ts pins the text this version names.
 */
export const NEWSLETTER_WORDING_VERSION = '2026-11-29';

/** The keys (forms namespace) whose text the version names. */
export const NEWSLETTER_WORDING_KEYS = ['title', 'text', 'subscribe', 'checkEmail'] as const;

/** How long a confirmation link works. */
export const CONFIRM_LINK_DAYS = 7;
