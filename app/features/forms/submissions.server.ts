import { createHash, randomUUID } from 'node:crypto';
import { localeFromPath, type Locale } from '~/i18n';
import { env } from '~/lib/env.server';
import { headerSafe, mailer as appMailer, type Mailer } from '~/lib/mailer.server';
import { contentClient } from '~/sanity/client.server';
import type { ContentClient } from '~/sanity/types';
import {
  checkSpam,
  FORM_KEYS,
  FORM_TOKEN_FIELD,
  isRateLimited,
  RATE_LIMITED_MESSAGE,
  readFormToken,
  validateFaqQuestion,
  validateNewsletter,
  type FaqField,
  type FormMessageKey,
} from './validation';

/**
 * The server side of the FAQ question and newsletter forms, independent of Remix so it
 * is tested against a real embedded content client and an outbox mailer.
 *
 * Order of checks (each answered with its own localized message, nothing dropped
 * silently): honeypot -> field validation -> minimum fill time / signed token ->
 * per-address rate limit (FAQ; the newsletter keeps one record per address anyway) ->
 * store (the answer waits until the store resolved, i.e. the document is durable) ->
 * notify the firm by email (a failure or a slow server is logged, never fails the
 * answer or loses the submission).
 */
export type FormError = { titleKey: string; messageKey: string };
export type FaqValues = Record<FaqField, string>;

export type FaqResult =
  | { status: 'submitted' }
  | {
      status: 'rejected' | 'error';
      formError: FormError;
      fieldErrors: Partial<Record<FaqField, FormMessageKey>>;
      values: FaqValues;
      /** The submitted start token when it was genuine: the next try keeps its start time. */
      token: string | null;
      httpStatus: number;
    };

export type NewsletterResult =
  | { status: 'subscribed'; created: boolean }
  | { status: 'rejected' | 'error'; formError: FormError; token: string | null; httpStatus: number };

export interface SubmissionDeps {
  client: Pick<ContentClient, 'fetch' | 'create' | 'createIfNotExists'>;
  mailer: Mailer;
  /** Secrets a form token may be signed with: the current one first, then previous ones (rotation). */
  secret: string | readonly string[];
  now: () => number;
  mailFrom: string;
  /** The firm's address (MAIL_TO, else site settings' contact email). */
  mailTo: () => Promise<string>;
  /** How long the answer waits for the mail before going on (the send continues). */
  mailWaitMs?: number;
  log?: (message: string) => void;
}

export const SUBMISSION_ERROR: FormError = { titleKey: FORM_KEYS.submissionErrorTitle, messageKey: FORM_KEYS.submissionError };

export const NEWSLETTER_ERROR: FormError = { titleKey: 'forms:newsletter.errorTitle', messageKey: 'forms:newsletter.error' };

const FAQ_FIELDS: FaqField[] = ['name', 'email', 'phone', 'question'];

function text(form: FormData, name: string, max = 10_000): string {
  const v = form.get(name);
  return typeof v === 'string' ? v.slice(0, max) : '';
}

/** The id of an address's one newsletter record: sha256 of the lower-cased address, 32 hex. */
export function newsletterId(email: string): `submission.newsletter.${string}` {
  const hash = createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32);
  return `submission.newsletter.${hash}`;
}

async function genuineToken(form: FormData, secret: string | readonly string[]): Promise<string | null> {
  const token = text(form, FORM_TOKEN_FIELD, 200);
  return (await readFormToken(token, secret)) === null ? null : token;
}

async function notify(deps: SubmissionDeps, subject: string, body: string, replyTo?: string) {
  const log = deps.log ?? ((m: string) => console.error(m));
  const sending = (async () => {
    const to = await deps.mailTo();
    return deps.mailer.send({ to, from: deps.mailFrom, subject, text: body, replyTo });
  })().catch((error: unknown) => {
    log(`[mail] notification "${headerSafe(subject)}" failed (the submission is stored): ${String(error)}`);
    return null;
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), deps.mailWaitMs ?? 5000);
  });
  await Promise.race([sending, timeout]);
  clearTimeout(timer);
}

export async function handleFaqQuestion(form: FormData, context: { page: string; locale?: Locale }, deps: SubmissionDeps): Promise<FaqResult> {
  const values = Object.fromEntries(FAQ_FIELDS.map((f) => [f, text(form, f)])) as FaqValues;
  const token = await genuineToken(form, deps.secret);
  const reject = (formError: FormError, httpStatus = 400, fieldErrors: Partial<Record<FaqField, FormMessageKey>> = {}): FaqResult => ({
    status: 'rejected',
    formError,
    fieldErrors,
    values,
    token,
    httpStatus,
  });

  const now = deps.now();
  const spam = await checkSpam(form, { secret: deps.secret, now });
  if (!spam.ok && spam.reason === 'honeypot') return reject(spam);
  const valid = validateFaqQuestion(form);
  if (!valid.success) return reject(valid.formError, 400, valid.fieldErrors);
  if (!spam.ok) return reject(spam);

  const email = valid.data.email.toLowerCase();
  let previous: unknown = [];
  try {
    previous = await deps.client.fetch('*[_type == "faqQuestion" && lower(email) == $email].submittedAt', { email }, { perspective: 'published' });
  } catch (error) {
    // Never turn a person away because the count could not be read.
    (deps.log ?? console.error)(`[forms] could not count earlier questions: ${String(error)}`);
  }
  const times = (Array.isArray(previous) ? previous : []).map((t) => Date.parse(String(t))).filter(Number.isFinite);
  if (isRateLimited(times, now)) return reject(RATE_LIMITED_MESSAGE, 429);

  const locale = context.locale ?? localeFromPath(context.page);
  const submittedAt = new Date(now).toISOString();
  try {
    await deps.client.create({ _id: `submission.faqQuestion.${randomUUID()}`, _type: 'faqQuestion', ...valid.data, locale, page: context.page, submittedAt });
  } catch (error) {
    (deps.log ?? console.error)(`[forms] could not store an FAQ question: ${String(error)}`);
    return { status: 'error', formError: SUBMISSION_ERROR, fieldErrors: {}, values, token, httpStatus: 503 };
  }
  const q = valid.data;
  await notify(
    deps,
    `New question from ${q.name} (website FAQ)`,
    [`Name: ${q.name}`, `Email: ${q.email}`, `Phone: ${q.phone}`, `Language: ${locale}`, `Page: ${context.page}`, `Submitted: ${submittedAt}`, '', 'Question:', q.question, ''].join('\n'),
    q.email,
  );
  return { status: 'submitted' };
}

export async function handleNewsletter(form: FormData, context: { page: string; locale?: Locale }, deps: SubmissionDeps): Promise<NewsletterResult> {
  const token = await genuineToken(form, deps.secret);
  const reject = (formError: FormError, httpStatus = 400): NewsletterResult => ({ status: 'rejected', formError, token, httpStatus });
  const now = deps.now();
  const spam = await checkSpam(form, { secret: deps.secret, now });
  if (!spam.ok && spam.reason === 'honeypot') return reject(spam);
  const valid = validateNewsletter(form);
  if (!valid.success) return reject(valid.formError);
  if (!spam.ok) return reject(spam);

  const locale = context.locale ?? localeFromPath(context.page);
  const submittedAt = new Date(now).toISOString();
  const email = valid.data.email;
  let created: boolean;
  try {
    ({ created } = await deps.client.createIfNotExists({ _id: newsletterId(email), _type: 'newsletterSignup', email, locale, page: context.page, submittedAt }));
  } catch (error) {
    (deps.log ?? console.error)(`[forms] could not store a newsletter sign-up: ${String(error)}`);
    return { status: 'error', formError: NEWSLETTER_ERROR, token, httpStatus: 503 };
  }
  if (created) {
    await notify(deps, 'New newsletter sign-up (website)', [`Email: ${email}`, `Language: ${locale}`, `Page: ${context.page}`, `Submitted: ${submittedAt}`, ''].join('\n'));
  }
  return { status: 'subscribed', created };
}

/** The app's dependencies: the one content client, the mailer, the session secret. */
export function submissionDeps(): SubmissionDeps {
  const e = env();
  const host = new URL(e.siteUrl).hostname;
  return {
    client: contentClient(),
    mailer: appMailer(),
    secret: e.sessionSecrets,
    now: Date.now,
    mailFrom: e.mail.from ?? `Website <no-reply@${host}>`,
    mailTo: async () => {
      if (e.mail.to) return e.mail.to;
      const settingsEmail = await contentClient()
        .fetch<string | null>('*[_id == "siteSettings"][0].contactEmail', {}, { perspective: 'published' })
        .catch(() => null);
      return settingsEmail ?? `inbox@${host}`;
    },
  };
}
