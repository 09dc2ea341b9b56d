import { createHash, randomUUID } from 'node:crypto';
import { localeFromPath, type Locale } from '~/i18n';
import { env } from '~/lib/env.server';
import { headerSafe, mailer as appMailer, type Mailer } from '~/lib/mailer.server';
import { consume, type Limit } from '~/portal/limits.server';
import { contentClient } from '~/sanity/client.server';
import { isConflict, type Mutation, type PrivateDocument, type PrivateStore } from '~/sanity/types';
import { FORM_KEYS, FORM_TOKEN_FIELD, type FaqField } from './fields';
import { RATE_LIMIT, RATE_LIMITED_MESSAGE } from './rate-limit';
import { checkSpam, createFormToken, readFormToken, TOKEN_MAX_AGE_MS, type SpamVerdict } from './spam-check';
import { validateFaqQuestion, validateNewsletter, type FormMessageKey } from './validation';

/**
 * The server side of the FAQ question and newsletter forms, independent of Remix so it
 * is tested against a real embedded store and an outbox mailer.
 *
 * Order of checks (each answered with its own localized message, nothing dropped
 * silently): honeypot -> field validation -> minimum fill time / signed token (2 h) ->
 * the token's earlier use -> per-address limit (FAQ: 5 an hour; the newsletter keeps one
 * record per address) -> store -> notify the firm by email.
 *
 * - Counting and storing cannot race: the per-address count is one conditional write of the
 *   limit document (`consume`) made before the submission is stored, so of fifty questions
 *   sent at once from one address five are stored.
 * - A token carries one stored submission: the submission and `form.token.<hash>` (the hash
 *   of what was submitted) are created in one transaction. Sending the same submission again
 *   with that token (a retry after a lost answer) gets the same success and stores nothing;
 *   anything else with it is refused as expired.
 * - The firm's notification emails are limited per visitor IP (NOTIFY_LIMIT): beyond it the
 *   submission is still stored (it passed every other check) and the email is not sent.
 * - The answer waits until the store resolved (the document is durable); a failed or slow
 *   email is logged, never fails the answer or loses the submission.
 * - Refusals carry only what the forms show: the localized title and message keys.
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
      /**
       * The token for the next try: the submitted one when it is genuine and unused (it keeps
       * its start time), else a new one (pages carry none: a form posted without JavaScript
       * gets its first token here); null only when the body could not be read.
       */
      token: string | null;
      httpStatus: number;
    };

export type NewsletterResult =
  | { status: 'subscribed'; created: boolean }
  | { status: 'rejected' | 'error'; formError: FormError; token: string | null; httpStatus: number };

export type SubmissionContext = {
  page: string;
  locale?: Locale;
  /** The visitor's address (per-IP limits). */ ip?: string;
};

export interface SubmissionDeps {
  /** The private store (atomic transactions). */
  store: PrivateStore;
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

/** Notification emails to the firm per visitor IP, both forms together. */
export const NOTIFY_LIMIT: Limit = { max: 20, windowMs: 60 * 60 * 1000 };

export const SUBMISSION_ERROR: FormError = {
  titleKey: FORM_KEYS.submissionErrorTitle,
  messageKey: FORM_KEYS.submissionError,
};

export const NEWSLETTER_ERROR: FormError = {
  titleKey: 'forms:newsletter.errorTitle',
  messageKey: 'forms:newsletter.error',
};

export const EXPIRED: FormError = { titleKey: FORM_KEYS.spamTitle, messageKey: FORM_KEYS.spamExpired };

/** A body that is not a form (wrong content type, broken multipart). */
export const BAD_REQUEST: FormError = { titleKey: FORM_KEYS.spamTitle, messageKey: FORM_KEYS.badRequest };

const FAQ_FIELDS: FaqField[] = ['name', 'email', 'phone', 'question'];

function text(form: FormData, name: string, max = 10_000): string {
  const v = form.get(name);
  return typeof v === 'string' ? v.slice(0, max) : '';
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** The id of an address's one newsletter record: sha256 of the lower-cased address, 32 hex. */
export function newsletterId(email: string): `submission.newsletter.${string}` {
  return `submission.newsletter.${sha256(email.trim().toLowerCase()).slice(0, 32)}`;
}

/** The record that a form token has carried a stored submission. */
export function tokenRecordId(token: string): `form.token.${string}` {
  return `form.token.${sha256(token).slice(0, 40)}`;
}

type TokenRecord = PrivateDocument & {
  _type: 'form.token';
  form: 'faq' | 'newsletter';
  contentHash: string;
  submissionId: string;
  expiresAt: string;
};

function tokenRecord(
  token: string,
  form: TokenRecord['form'],
  contentHash: string,
  submissionId: string,
  now: number,
): TokenRecord {
  // Kept as long as the token itself could be accepted; afterwards it may be deleted.
  const expiresAt = new Date(Number(token.split('.')[0]) + TOKEN_MAX_AGE_MS + 60_000).toISOString();
  return {
    _id: tokenRecordId(token),
    _type: 'form.token',
    form,
    contentHash,
    submissionId,
    expiresAt: expiresAt === 'Invalid Date' ? new Date(now).toISOString() : expiresAt,
  };
}

/** What makes two submissions "the same one": the form and its validated values. */
const contentHashOf = (form: TokenRecord['form'], values: Record<string, string>) =>
  sha256(
    JSON.stringify([
      form,
      ...Object.keys(values)
        .sort()
        .map((k) => [k, values[k]]),
    ]),
  );

/** 'same': this submission was stored with the token before; 'other': the token carried something else. */
async function earlierUse(store: PrivateStore, token: string, contentHash: string): Promise<'none' | 'same' | 'other'> {
  const record = await store.getDocument<TokenRecord>(tokenRecordId(token));
  if (!record) return 'none';
  return record.contentHash === contentHash ? 'same' : 'other';
}

/** A new token signed with the current secret. */
function newToken(secret: string | readonly string[], now: number): Promise<string> {
  return createFormToken(now, typeof secret === 'string' ? secret : secret[0]!);
}

async function genuineToken(form: FormData, secret: string | readonly string[], now: number): Promise<string | null> {
  const token = text(form, FORM_TOKEN_FIELD, 200);
  const startedAt = await readFormToken(token, secret);
  return startedAt === null || startedAt > now || now - startedAt > TOKEN_MAX_AGE_MS ? null : token;
}

/** Only the keys the form shows (never the internal reason). */
const messageOf = (verdict: Exclude<SpamVerdict, { ok: true }>): FormError => ({
  titleKey: verdict.titleKey,
  messageKey: verdict.messageKey,
});

/** Counts one notification for the visitor's IP; false beyond NOTIFY_LIMIT (or when the count cannot be kept). */
async function mayNotify(deps: SubmissionDeps, ip: string | undefined): Promise<boolean> {
  const log = deps.log ?? ((m: string) => console.error(m));
  try {
    if (await consume('form-notify-ip', ip || 'unknown', NOTIFY_LIMIT, { now: deps.now(), store: deps.store }))
      return true;
    log('[forms] notification not sent: this IP is over its hourly limit (the submission is stored)');
  } catch (error) {
    log(`[forms] notification not sent: the per-IP count failed (the submission is stored): ${String(error)}`);
  }
  return false;
}

async function notify(deps: SubmissionDeps, ip: string | undefined, subject: string, body: string, replyTo?: string) {
  if (!(await mayNotify(deps, ip))) return;
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

export async function handleFaqQuestion(
  form: FormData,
  context: SubmissionContext,
  deps: SubmissionDeps,
): Promise<FaqResult> {
  const log = deps.log ?? ((m: string) => console.error(m));
  const values = Object.fromEntries(FAQ_FIELDS.map((f) => [f, text(form, f)])) as FaqValues;
  const now = deps.now();
  let token = await genuineToken(form, deps.secret, now);
  const next = await newToken(deps.secret, now);
  const reject = (
    formError: FormError,
    httpStatus = 400,
    fieldErrors: Partial<Record<FaqField, FormMessageKey>> = {},
  ): FaqResult => ({
    status: 'rejected',
    formError,
    fieldErrors,
    values,
    token: token ?? next,
    httpStatus,
  });
  const failed = (): FaqResult => ({
    status: 'error',
    formError: SUBMISSION_ERROR,
    fieldErrors: {},
    values,
    token: token ?? next,
    httpStatus: 503,
  });

  const spam = await checkSpam(form, { secret: deps.secret, now });
  if (!spam.ok && spam.reason === 'honeypot') return reject(messageOf(spam));
  const valid = validateFaqQuestion(form);
  if (!valid.success) return reject(valid.formError, 400, valid.fieldErrors);
  if (!spam.ok) return reject(messageOf(spam));
  if (!token) return reject(EXPIRED);

  const locale = context.locale ?? localeFromPath(context.page);
  const contentHash = contentHashOf('faq', valid.data);
  try {
    const use = await earlierUse(deps.store, token, contentHash);
    if (use === 'same') return { status: 'submitted' };
    if (use === 'other') {
      token = null;
      return reject(EXPIRED);
    }
    if (!(await consume('form-faq-email', valid.data.email, RATE_LIMIT, { now, store: deps.store })))
      return reject(RATE_LIMITED_MESSAGE, 429);
  } catch (error) {
    log(`[forms] could not check an FAQ question's token or limit: ${String(error)}`);
    return failed();
  }

  const submittedAt = new Date(now).toISOString();
  const id = `submission.faqQuestion.${randomUUID()}` as const;
  try {
    await deps.store.mutate([
      { create: tokenRecord(token, 'faq', contentHash, id, now) },
      { create: { _id: id, _type: 'faqQuestion', ...valid.data, locale, page: context.page, submittedAt } },
    ]);
  } catch (error) {
    if (isConflict(error)) {
      // The same token was used at the same moment: the same submission is one, another is refused.
      const use = await earlierUse(deps.store, token, contentHash).catch(() => 'other' as const);
      if (use === 'same') return { status: 'submitted' };
      token = null;
      return reject(EXPIRED);
    }
    log(`[forms] could not store an FAQ question: ${String(error)}`);
    return failed();
  }
  const q = valid.data;
  await notify(
    deps,
    context.ip,
    `New question from ${q.name} (website FAQ)`,
    [
      `Name: ${q.name}`,
      `Email: ${q.email}`,
      `Phone: ${q.phone}`,
      `Language: ${locale}`,
      `Page: ${context.page}`,
      `Submitted: ${submittedAt}`,
      '',
      'Question:',
      q.question,
      '',
    ].join('\n'),
    q.email,
  );
  return { status: 'submitted' };
}

export async function handleNewsletter(
  form: FormData,
  context: SubmissionContext,
  deps: SubmissionDeps,
): Promise<NewsletterResult> {
  const log = deps.log ?? ((m: string) => console.error(m));
  const now = deps.now();
  let token = await genuineToken(form, deps.secret, now);
  const next = await newToken(deps.secret, now);
  const reject = (formError: FormError, httpStatus = 400): NewsletterResult => ({
    status: 'rejected',
    formError,
    token: token ?? next,
    httpStatus,
  });
  const failed = (): NewsletterResult => ({
    status: 'error',
    formError: NEWSLETTER_ERROR,
    token: token ?? next,
    httpStatus: 503,
  });
  const spam = await checkSpam(form, { secret: deps.secret, now });
  if (!spam.ok && spam.reason === 'honeypot') return reject(messageOf(spam));
  const valid = validateNewsletter(form);
  if (!valid.success) return reject(valid.formError);
  if (!spam.ok) return reject(messageOf(spam));
  if (!token) return reject(EXPIRED);

  const locale = context.locale ?? localeFromPath(context.page);
  const submittedAt = new Date(now).toISOString();
  const email = valid.data.email;
  const contentHash = contentHashOf('newsletter', { email: email.toLowerCase() });
  const doc = {
    _id: newsletterId(email),
    _type: 'newsletterSignup',
    email,
    locale,
    page: context.page,
    submittedAt,
  } as const;
  const used = token;
  const record = tokenRecord(used, 'newsletter', contentHash, doc._id, now);
  const usedBefore = async (): Promise<NewsletterResult | null> => {
    const use = await earlierUse(deps.store, used, contentHash);
    if (use === 'same') return { status: 'subscribed', created: false };
    if (use === 'other') {
      token = null;
      return reject(EXPIRED);
    }
    return null;
  };

  let created = true;
  try {
    const earlier = await usedBefore();
    if (earlier) return earlier;
    try {
      await deps.store.mutate([{ create: record }, { create: doc }]);
    } catch (error) {
      if (!isConflict(error)) throw error;
      // Either the token was used at the same moment, or the address has its record already.
      const raced = await usedBefore();
      if (raced) return raced;
      created = false;
      await deps.store.mutate([{ create: record }, { createIfNotExists: doc }] satisfies Mutation[]);
    }
  } catch (error) {
    if (isConflict(error)) {
      const raced = await usedBefore().catch(() => null);
      if (raced) return raced;
    }
    log(`[forms] could not store a newsletter sign-up: ${String(error)}`);
    return failed();
  }
  if (created) {
    await notify(
      deps,
      context.ip,
      'New newsletter sign-up (website)',
      [`Email: ${email}`, `Language: ${locale}`, `Page: ${context.page}`, `Submitted: ${submittedAt}`, ''].join('\n'),
    );
  }
  return { status: 'subscribed', created };
}

/** The app's dependencies: the one content client, the mailer, the session secret. */
export function submissionDeps(): SubmissionDeps {
  const e = env();
  const host = new URL(e.siteUrl).hostname;
  return {
    store: contentClient(),
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
