import { createHash, randomUUID } from 'node:crypto';
import { eq, lt, sql } from 'drizzle-orm';
import { db as processDb } from '~/db/client.server';
import { faqQuestions, formTokens } from '~/db/schema.server';
import type { Db, Tx } from '~/db/types.server';
import { localeFromPath, type Locale } from '~/i18n';
import { env } from '~/lib/env.server';
import { headerSafe, mailer as appMailer, type Mailer } from '~/lib/mailer.server';
import { consume, consumeAll, type Limit } from '~/portal/limits.server';
import { contentClient } from '~/sanity/client.server';
import {
  newsletterClaimContent,
  sendConfirmation,
  subscribe,
  type SubscribeOutcome,
} from '~/features/newsletter/newsletter.server';
import { FORM_KEYS, FORM_TOKEN_FIELD, type FaqField } from './fields';
import { RATE_LIMIT, RATE_LIMITED_MESSAGE } from './rate-limit';
import {
  checkSpam,
  createFormToken,
  liveFormToken,
  maxAgeOf,
  type FormTokenKind,
  type SpamVerdict,
} from './spam-check';
import { validateFaqQuestion, validateNewsletter, type FormMessageKey } from './validation';
import { log as logger } from '~/lib/log.server';

/**
 * The server side of the FAQ question and newsletter forms, independent of Remix so it
 * is tested against a real database (PGlite, and PostgreSQL when the tests have one) and an
 * outbox mailer. The data is the firm's, in its own database (app/db/): never in the CMS.
 *
 * Order of checks (each answered with its own localized message, nothing dropped
 * silently): honeypot -> field validation -> minimum fill time / signed token (2 h) ->
 * the token's earlier use -> limits (FAQ: 5 an hour per email address and 20 an hour per
 * visitor IP, counted together; newsletter: 20 sign-ups an hour per visitor IP, and one record
 * per address) -> store -> notify the firm by email.
 *
 * - Counting and storing cannot race: the counts are one statement on their `rate_limits` rows
 *   (`consumeAll`, `consume`) made before the submission is stored, so of fifty questions sent at
 *   once from one address five are stored, and of fifty from one IP twenty. A refusal (429, the
 *   same localized "too many submissions from this address" for both limits) stores nothing and
 *   keeps the visitor's token for a later try.
 * - A retry of a submission already stored with its token is answered from the token's record
 *   before any limit is counted: the same success, never a 429, and not counted again.
 *   (Two copies of it sent at the same instant may both be counted; one is stored.)
 * - Each use of a token is claimed once: the submission's row and a `form_tokens` row (the claim's
 *   key, the primary key, and the hash of what was submitted) are inserted in one transaction,
 *   the claim first: a second use waits on the first and finds the key taken. Sending the same
 *   submission again with that token (a retry after a lost answer) gets the same success and
 *   stores nothing. The claim's key depends on the token's kind (ADR 0021): a visitor token
 *   (JavaScript, one visitor's own) is claimed whole, so anything else sent with it is refused
 *   as expired; a page token (in the cached HTML, shared by every visitor of that page) is
 *   claimed together with what was submitted, so each different submission is one, and an
 *   identical one sent again is the same one.
 * - The newsletter keeps one row per address (`email_key`, unique), the address as first typed;
 *   a sign-up is pending until the address confirms from the emailed link (double opt-in,
 *   app/features/newsletter/newsletter.server.ts), and the form still answers "subscribed".
 * - The firm's notification emails are limited per visitor IP (NOTIFY_LIMIT): beyond it the
 *   submission is still stored (it passed every other check) and the email is not sent.
 * - The answer waits until the transaction committed (the row is durable); a failed or slow
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
       * its start time), else a new visitor token (a post without a token, or with an expired
       * one, gets one here); null only when the body could not be read.
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
  /** The database the submissions, token records and limits are kept in. */
  db: Db;
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
  /** The site's address, for the links in the newsletter's emails (default: SITE_URL). */
  siteUrl?: string;
}

/** Notification emails to the firm per visitor IP, both forms together. */
export const NOTIFY_LIMIT: Limit = { max: 20, windowMs: 60 * 60 * 1000 };

/**
 * Stored FAQ questions per visitor IP (whatever the email addresses): a person asks a few; an
 * office behind one address, a handful each; twenty an hour is well above both and stops a
 * script filling the firm's inbox and database from one address.
 */
export const FAQ_PER_IP: Limit = { max: 20, windowMs: 60 * 60 * 1000 };

/** Newsletter sign-ups per visitor IP (a sign-up of an address already on the list counts too). */
export const NEWSLETTER_PER_IP: Limit = { max: 20, windowMs: 60 * 60 * 1000 };

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

/** What a form token is known by once used: its sha256 (40 hex; the token itself is never kept). */
export const tokenHashOf = (token: string) => sha256(token).slice(0, 40);

/** An address's newsletter key: one row per address, whatever its case. */
export const newsletterKey = (email: string) => email.trim().toLowerCase();

type TokenForm = 'faq' | 'newsletter';

/** Kept as long as the token itself could be accepted; afterwards the clean-up job deletes it. */
const tokenExpiry = (token: LiveToken) => new Date(token.issuedAt + maxAgeOf(token.kind) + 60_000);

/** A genuine token within its kind's age, as submitted. */
type LiveToken = { value: string; issuedAt: number; kind: FormTokenKind };

/**
 * The key a use of the token is claimed by in `form_tokens`: a visitor token by itself (one
 * submission), a page token with what was submitted (one per different submission).
 */
export const claimKeyOf = (token: LiveToken, contentHash: string) =>
  token.kind === 'page' ? tokenHashOf(`${token.value}\n${contentHash}`) : tokenHashOf(token.value);

/** What makes two submissions "the same one": the form and its validated values. */
const contentHashOf = (form: TokenForm, values: Record<string, string>) =>
  sha256(
    JSON.stringify([
      form,
      ...Object.keys(values)
        .sort()
        .map((k) => [k, values[k]]),
    ]),
  );

/** 'same': this submission was stored with the token before; 'other': the token carried something else. */
async function earlierUse(db: Db, token: LiveToken, contentHash: string): Promise<'none' | 'same' | 'other'> {
  const [record] = await db
    .select({ contentHash: formTokens.contentHash })
    .from(formTokens)
    .where(eq(formTokens.tokenHash, claimKeyOf(token, contentHash)));
  if (!record) return 'none';
  return record.contentHash === contentHash ? 'same' : 'other';
}

/** Deletes the records of tokens that could no longer be accepted (the clean-up job); at most `max` a call. */
export async function purgeExpiredFormTokens(db: Db, now = Date.now(), max = 1000): Promise<number> {
  const expired = db
    .select({ tokenHash: formTokens.tokenHash })
    .from(formTokens)
    .where(lt(formTokens.expiresAt, new Date(now)))
    .limit(max);
  const deleted = await db
    .delete(formTokens)
    .where(sql`${formTokens.tokenHash} in (${expired})`)
    .returning({ tokenHash: formTokens.tokenHash });
  return deleted.length;
}

/** The transaction was given up because the token had carried a submission already. */
class TokenUsed extends Error {}

/** A new token signed with the current secret. */
function newToken(secret: string | readonly string[], now: number): Promise<string> {
  return createFormToken(now, typeof secret === 'string' ? secret : secret[0]!);
}

async function genuineToken(
  form: FormData,
  secret: string | readonly string[],
  now: number,
): Promise<LiveToken | null> {
  const value = text(form, FORM_TOKEN_FIELD, 200);
  const live = await liveFormToken(value, secret, now);
  return live ? { value, ...live } : null;
}

/** Only the keys the form shows (never the internal reason). */
const messageOf = (verdict: Exclude<SpamVerdict, { ok: true }>): FormError => ({
  titleKey: verdict.titleKey,
  messageKey: verdict.messageKey,
});

/** Counts one notification for the visitor's IP; false beyond NOTIFY_LIMIT (or when the count cannot be kept). */
async function mayNotify(deps: SubmissionDeps, ip: string | undefined): Promise<boolean> {
  const log = deps.log ?? ((m: string) => logger.error(m));
  try {
    if (await consume('form-notify-ip', ip || 'unknown', NOTIFY_LIMIT, { now: deps.now(), db: deps.db })) return true;
    log('[forms] notification not sent: this IP is over its hourly limit (the submission is stored)');
  } catch (error) {
    log(`[forms] notification not sent: the per-IP count failed (the submission is stored): ${String(error)}`);
  }
  return false;
}

async function notify(deps: SubmissionDeps, ip: string | undefined, subject: string, body: string, replyTo?: string) {
  if (!(await mayNotify(deps, ip))) return;
  const log = deps.log ?? ((m: string) => logger.error(m));
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

/**
 * Records that `used` carried this submission, in the submission's own transaction; throws
 * TokenUsed when the token already carried one (the unique key decides, not a read before it).
 */
async function claimToken(
  tx: Tx,
  used: LiveToken,
  form: 'faq' | 'newsletter',
  contentHash: string,
  submissionId: string,
): Promise<void> {
  const claimed = await tx
    .insert(formTokens)
    .values({
      tokenHash: claimKeyOf(used, contentHash),
      form,
      contentHash,
      submissionId,
      expiresAt: tokenExpiry(used),
    })
    .onConflictDoNothing()
    .returning({ tokenHash: formTokens.tokenHash });
  if (!claimed.length) throw new TokenUsed();
}

export async function handleFaqQuestion(
  form: FormData,
  context: SubmissionContext,
  deps: SubmissionDeps,
): Promise<FaqResult> {
  const log = deps.log ?? ((m: string) => logger.error(m));
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
    token: token?.value ?? next,
    httpStatus,
  });
  const failed = (): FaqResult => ({
    status: 'error',
    formError: SUBMISSION_ERROR,
    fieldErrors: {},
    values,
    token: token?.value ?? next,
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
    const use = await earlierUse(deps.db, token, contentHash);
    if (use === 'same') return { status: 'submitted' };
    if (use === 'other') {
      token = null;
      return reject(EXPIRED);
    }
    // Both counted in one statement, only when both have room: a refusal by one never uses up the other.
    const allowed = await consumeAll(
      [
        { kind: 'form-faq-email', subject: valid.data.email, limit: RATE_LIMIT },
        { kind: 'form-faq-ip', subject: context.ip || 'unknown', limit: FAQ_PER_IP },
      ],
      { now, db: deps.db },
    );
    if (!allowed) return reject(RATE_LIMITED_MESSAGE, 429);
  } catch (error) {
    log(`[forms] could not check an FAQ question's token or limit: ${String(error)}`);
    return failed();
  }

  const submittedAt = new Date(now);
  const id = randomUUID();
  const used = token;
  try {
    await deps.db.transaction(async (tx) => {
      await claimToken(tx, used, 'faq', contentHash, id);
      await tx.insert(faqQuestions).values({ id, ...valid.data, locale, page: context.page, submittedAt });
    });
  } catch (error) {
    if (error instanceof TokenUsed) {
      // The same token was used at the same moment: the same submission is one, another is refused.
      const use = await earlierUse(deps.db, used, contentHash).catch(() => 'other' as const);
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
      `Submitted: ${submittedAt.toISOString()}`,
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
  const log = deps.log ?? ((m: string) => logger.error(m));
  const now = deps.now();
  let token = await genuineToken(form, deps.secret, now);
  const next = await newToken(deps.secret, now);
  const reject = (formError: FormError, httpStatus = 400): NewsletterResult => ({
    status: 'rejected',
    formError,
    token: token?.value ?? next,
    httpStatus,
  });
  const failed = (): NewsletterResult => ({
    status: 'error',
    formError: NEWSLETTER_ERROR,
    token: token?.value ?? next,
    httpStatus: 503,
  });
  const spam = await checkSpam(form, { secret: deps.secret, now });
  if (!spam.ok && spam.reason === 'honeypot') return reject(messageOf(spam));
  const valid = validateNewsletter(form);
  if (!valid.success) return reject(valid.formError);
  if (!spam.ok) return reject(messageOf(spam));
  if (!token) return reject(EXPIRED);

  const locale = context.locale ?? localeFromPath(context.page);
  const submittedAt = new Date(now);
  const email = valid.data.email;
  // Set in the try below: the address, and when it last unsubscribed (newsletterClaimContent).
  let contentHash = '';
  const used = token;
  const usedBefore = async (): Promise<NewsletterResult | null> => {
    const use = await earlierUse(deps.db, used, contentHash);
    if (use === 'same') return { status: 'subscribed', created: false };
    if (use === 'other') {
      token = null;
      return reject(EXPIRED);
    }
    return null;
  };

  let outcome: SubscribeOutcome;
  try {
    contentHash = contentHashOf('newsletter', await newsletterClaimContent(deps.db, newsletterKey(email)));
    const earlier = await usedBefore();
    if (earlier) return earlier;
    if (!(await consume('form-newsletter-ip', context.ip || 'unknown', NEWSLETTER_PER_IP, { now, db: deps.db })))
      return reject(RATE_LIMITED_MESSAGE, 429);
    const id = randomUUID();
    // One row per address (any case): app/features/newsletter/newsletter.server.ts decides what a
    // second sign-up does (pending: the confirmation again, bounded; confirmed: nothing).
    outcome = await deps.db.transaction(async (tx) => {
      await claimToken(tx, used, 'newsletter', contentHash, id);
      return subscribe(tx, { id, email, emailKey: newsletterKey(email), locale, page: context.page }, now);
    });
  } catch (error) {
    if (error instanceof TokenUsed) {
      const raced = await usedBefore().catch(() => null);
      if (raced) return raced;
    }
    log(`[forms] could not store a newsletter sign-up: ${String(error)}`);
    return failed();
  }
  if (outcome.confirmIssuedAt !== null) {
    // The forms' per-address budget also bounds what one inbox receives from this form.
    const mayMail = await consume('form-newsletter-email', email, RATE_LIMIT, { now, db: deps.db }).catch(
      (error: unknown) => {
        log(`[forms] newsletter confirmation not sent: the per-address count failed: ${String(error)}`);
        return false;
      },
    );
    if (mayMail)
      await sendConfirmation({ id: outcome.id, email, locale: outcome.locale }, outcome.confirmIssuedAt, {
        db: deps.db,
        mailer: deps.mailer,
        from: deps.mailFrom,
        now: deps.now,
        siteUrl: deps.siteUrl ?? env().siteUrl,
        log,
        waitMs: deps.mailWaitMs,
      }).catch((error: unknown) => log(`[forms] newsletter confirmation not queued: ${String(error)}`));
    else log('[forms] newsletter confirmation not sent: this address is over its hourly budget (the sign-up is kept)');
  }
  if (outcome.created) {
    await notify(
      deps,
      context.ip,
      'New newsletter sign-up (website, waiting for the address to confirm)',
      [
        `Email: ${email}`,
        `Language: ${locale}`,
        `Page: ${context.page}`,
        `Submitted: ${submittedAt.toISOString()}`,
        '',
      ].join('\n'),
    );
  }
  return { status: 'subscribed', created: outcome.created };
}

/** The app's dependencies: the process's database, the mailer, the session secret. */
export async function submissionDeps(): Promise<SubmissionDeps> {
  const e = env();
  const host = new URL(e.siteUrl).hostname;
  return {
    db: await processDb(),
    mailer: appMailer(),
    secret: e.sessionSecrets,
    now: Date.now,
    mailFrom: e.mail.from ?? `Website <no-reply@${host}>`,
    mailTo: firmInbox,
    siteUrl: e.siteUrl,
  };
}

/** Where the firm's notifications go: MAIL_TO, else the site's contact email, else inbox@ the site's host. */
export async function firmInbox(): Promise<string> {
  const e = env();
  if (e.mail.to) return e.mail.to;
  const settingsEmail = await contentClient()
    .fetch<string | null>('*[_id == "siteSettings"][0].contactEmail', {}, { perspective: 'published' })
    .catch(() => null);
  return settingsEmail ?? `inbox@${new URL(e.siteUrl).hostname}`;
}
