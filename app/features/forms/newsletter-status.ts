/**
 * The newsletter form's statuses and the no-JavaScript round trip (pure, shared by the
 * resource route and the form): a plain form post is redirected back to its page with
 * `?newsletter={status}&newsletter_form={formId}#newsletter-{formId}` (and, after a refusal, the
 * form token for the next try); the form whose id
 * matches shows the status. The return path must be a same-origin site path.
 */
import { FORM_KEYS, FORM_TOKEN_FIELD } from './fields';

export const NEWSLETTER_ACTION = '/api/newsletter';
export const NEWSLETTER_RETURN_FIELD = 'return_to';
export const NEWSLETTER_FORM_FIELD = 'form_id';
/** Set by the form once hydrated: the answer is JSON for a fetcher instead of a redirect. */
export const NEWSLETTER_JS_FIELD = '_js';
export const STATUS_PARAM = 'newsletter';
export const FORM_PARAM = 'newsletter_form';

export const NEWSLETTER_STATUSES = [
  'subscribed',
  'invalid',
  'confirm',
  'tooFast',
  'expired',
  'honeypot',
  'rateLimited',
  'error',
] as const;
export type NewsletterStatus = (typeof NEWSLETTER_STATUSES)[number];

export const NEWSLETTER_MESSAGES: Record<NewsletterStatus, { titleKey: string; messageKey: string }> = {
  subscribed: { titleKey: 'forms:newsletter.subscribed', messageKey: 'forms:newsletter.thankYou' },
  invalid: { titleKey: FORM_KEYS.invalidEmailTitle, messageKey: FORM_KEYS.invalidEmail },
  confirm: { titleKey: FORM_KEYS.confirmTitle, messageKey: FORM_KEYS.confirmSend },
  tooFast: { titleKey: FORM_KEYS.spamTitle, messageKey: FORM_KEYS.spamTooFast },
  expired: { titleKey: FORM_KEYS.spamTitle, messageKey: FORM_KEYS.spamExpired },
  honeypot: { titleKey: FORM_KEYS.spamTitle, messageKey: FORM_KEYS.spamHoneypot },
  rateLimited: { titleKey: FORM_KEYS.spamTitle, messageKey: FORM_KEYS.spamRateLimited },
  error: { titleKey: 'forms:newsletter.errorTitle', messageKey: 'forms:newsletter.error' },
};

export function isNewsletterStatus(value: unknown): value is NewsletterStatus {
  return typeof value === 'string' && (NEWSLETTER_STATUSES as readonly string[]).includes(value);
}

/** The status of an action result (by its message). */
export function newsletterStatusOf(result: { status: string; formError?: { messageKey: string } }): NewsletterStatus {
  if (result.status === 'subscribed') return 'subscribed';
  const key = result.formError?.messageKey;
  const found = NEWSLETTER_STATUSES.find((s) => s !== 'subscribed' && NEWSLETTER_MESSAGES[s].messageKey === key);
  return found ?? 'error';
}

export function safeFormId(value: unknown): string {
  return typeof value === 'string' && /^[a-z0-9-]{1,20}$/.test(value) ? value : 'footer';
}

/**
 * Where a plain post returns: the page, our status and form id and, after a refusal, the form
 * token for the next try (such a URL is never served from the page cache).
 */
export function returnUrlWithStatus(
  path: string,
  status: NewsletterStatus,
  formId: string,
  token?: string | null,
): string {
  const id = safeFormId(formId);
  const url = new URL(path, 'http://site.invalid');
  // The page's own address, without an earlier answer's token (our parameters are set anew, the hash replaced).
  url.searchParams.delete(FORM_TOKEN_FIELD);
  url.searchParams.set(STATUS_PARAM, status);
  url.searchParams.set(FORM_PARAM, id);
  if (token && status !== 'subscribed') url.searchParams.set(FORM_TOKEN_FIELD, token);
  return `${url.pathname}${url.search}#newsletter-${id}`;
}
