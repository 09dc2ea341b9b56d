import { and, eq, isNull, lt, ne, sql } from 'drizzle-orm';
import { newsletterSignups } from '~/db/schema.server';
import type { Db, Tx } from '~/db/types.server';
import type { Locale } from '~/i18n';
import type { Mailer } from '~/lib/mailer.server';
import { queueMail, sendNow, type MailDeps } from '~/portal/mail-queue.server';
import { CONFIRM_LINK_MS, readConfirmLink, readUnsubscribeLink } from './links.server';
import type { NewsletterMail } from './list-mail.server';
import { NEWSLETTER_WORDING_VERSION } from './wording';

/**
 * The newsletter's double opt-in (issue 42), on the `newsletter_signups` row of each address:
 * - A sign-up is `pending` and gets a confirmation email whose link (links.server.ts: signed,
 *   7 days) makes it `confirmed`; the same link again only says it is confirmed already. The
 *   confirmation page shows a button that posts (mail scanners open links: a GET changes nothing).
 * - The same address sent again while pending gets the email again, at most MAX_CONFIRM_MAILS
 *   times a request (and within the forms' per-address budget, checked by the caller); a
 *   confirmed address gets nothing (the form answers the same, so it tells nobody who is on the list).
 * - Unsubscribing (one click, links.server.ts) makes it `unsubscribed`: no newsletter email goes to
 *   it; signing up again starts a new request (a new confirmation).
 * - Pending rows are deleted by the clean-up job 7 days after their last link; unsubscribed rows
 *   30 days after (the record that consent was withdrawn). Rows stored before double opt-in stay
 *   `pending` with no expiry and no wording version until the firm asks them to confirm
 *   (`requestLegacyConfirmations`, `npm run newsletter -- request-confirmation`).
 * - Every email goes through the mail queue (durable, sent once) and is made by listEmail
 *   (List-Unsubscribe headers).
 */
export const MAX_CONFIRM_MAILS = 3;
export const UNSUBSCRIBED_KEEP_DAYS = 30;
const DAY = 24 * 60 * 60 * 1000;

export type SubscribeOutcome = {
  id: string;
  /** A new row (a new address). */
  created: boolean;
  /** When the confirmation link to send was issued, or null when no email is due. */
  confirmIssuedAt: number | null;
  locale: Locale;
};

type Signup = typeof newsletterSignups.$inferSelect;

/** A new request for this row: what the person agreed to now, and a fresh count of emails. */
const newRequest = (input: { locale: Locale; page: string }, now: Date) => ({
  status: 'pending',
  locale: input.locale,
  page: input.page,
  submittedAt: now,
  consentVersion: NEWSLETTER_WORDING_VERSION,
  pendingSince: now,
  confirmMails: 1,
  confirmedAt: null,
  unsubscribedAt: null,
  expiresAt: new Date(now.getTime() + CONFIRM_LINK_MS),
});

/**
 * Records a sign-up in the caller's transaction (the one that claims the form token) and says
 * whether a confirmation email is due. The row of an address is locked while it is decided, so
 * two sign-ups of one address at once send at most one email more than one would.
 */
export async function subscribe(
  tx: Tx,
  input: { id: string; email: string; emailKey: string; locale: Locale; page: string },
  nowMs: number,
): Promise<SubscribeOutcome> {
  const now = new Date(nowMs);
  const inserted = await tx
    .insert(newsletterSignups)
    .values({ id: input.id, email: input.email, emailKey: input.emailKey, ...newRequest(input, now) })
    .onConflictDoNothing({ target: newsletterSignups.emailKey })
    .returning({ id: newsletterSignups.id });
  if (inserted.length) return { id: input.id, created: true, confirmIssuedAt: nowMs, locale: input.locale };

  const [row] = await tx
    .select()
    .from(newsletterSignups)
    .where(eq(newsletterSignups.emailKey, input.emailKey))
    .for('update');
  if (!row) throw new Error('newsletter: the sign-up row went away during its transaction');
  const none = { id: row.id, created: false, confirmIssuedAt: null, locale: row.locale as Locale };
  if (row.status === 'confirmed') return none;
  // Unsubscribed, or stored before double opt-in: the person asks anew, with today's wording.
  if (row.status === 'unsubscribed' || row.consentVersion === null) {
    await tx.update(newsletterSignups).set(newRequest(input, now)).where(eq(newsletterSignups.id, row.id));
    return { ...none, confirmIssuedAt: nowMs, locale: input.locale };
  }
  // Pending: the email again, within the request's bound (the earlier links keep working).
  if (row.confirmMails >= MAX_CONFIRM_MAILS) return none;
  await tx
    .update(newsletterSignups)
    .set({
      locale: input.locale,
      page: input.page,
      submittedAt: now,
      consentVersion: NEWSLETTER_WORDING_VERSION,
      confirmMails: row.confirmMails + 1,
      expiresAt: new Date(nowMs + CONFIRM_LINK_MS),
    })
    .where(eq(newsletterSignups.id, row.id));
  return { ...none, confirmIssuedAt: nowMs, locale: input.locale };
}

/**
 * What makes two sign-ups with one form token "the same one" (ADR 0021: a page token is claimed
 * with what it carried): the address and, once it unsubscribed, when. A retried post is still one
 * sign-up, but signing up again after unsubscribing, from the same cached page (whose token is
 * shared for a day), is a new one and not mistaken for the retry of the first.
 */
export async function newsletterClaimContent(db: Db, emailKey: string): Promise<Record<string, string>> {
  const [row] = await db
    .select({ unsubscribedAt: newsletterSignups.unsubscribedAt })
    .from(newsletterSignups)
    .where(eq(newsletterSignups.emailKey, emailKey));
  return row?.unsubscribedAt
    ? { email: emailKey, unsubscribedAt: row.unsubscribedAt.toISOString() }
    : { email: emailKey };
}

export interface NewsletterMailDeps {
  db: Db;
  mailer: Mailer;
  from: string;
  now: () => number;
  siteUrl: string;
  log: (message: string) => void;
  /** How long the answer waits for the email before going on (it is queued: the jobs send it later if need be). */
  waitMs?: number;
}

const queueDeps = (deps: NewsletterMailDeps): MailDeps => ({
  db: deps.db,
  mailer: deps.mailer,
  from: deps.from,
  now: deps.now,
  log: deps.log,
});

/** Queues a newsletter email once (by its key) and tries to send it at once, waiting at most `waitMs`. */
async function queueAndSend(key: string, to: string, message: NewsletterMail, deps: NewsletterMailDeps) {
  const sendBefore = message.kind === 'newsletter-confirm' ? message.issuedAt + CONFIRM_LINK_MS : undefined;
  await queueMail(key, to, message, { sendBefore }, { db: deps.db, now: deps.now });
  const sending = sendNow(key, queueDeps(deps)).catch((error: unknown) => {
    deps.log(`[newsletter] ${message.kind} not sent yet (queued, the jobs retry): ${String(error)}`);
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([sending, new Promise<void>((resolve) => (timer = setTimeout(resolve, deps.waitMs ?? 5000)))]);
  clearTimeout(timer);
}

/** Queues (and sends) the confirmation email of a sign-up. */
export function sendConfirmation(
  signup: { id: string; email: string; locale: Locale },
  issuedAt: number,
  deps: NewsletterMailDeps,
): Promise<void> {
  return queueAndSend(
    `newsletter-confirm:${signup.id}:${issuedAt}`,
    signup.email,
    { kind: 'newsletter-confirm', locale: signup.locale, siteUrl: deps.siteUrl, signupId: signup.id, issuedAt },
    deps,
  );
}

export type ConfirmResult = 'confirmed' | 'already' | 'expired' | 'invalid';

/** What a confirmation link would do, without doing it (the page's GET). */
export async function checkConfirmLink(db: Db, params: URLSearchParams, now: number): Promise<ConfirmResult | 'ready'> {
  const link = readConfirmLink(params, now);
  if (!link.ok) return link.reason;
  const [row] = await db.select().from(newsletterSignups).where(eq(newsletterSignups.id, link.id));
  return stateFor(row, link.issuedAt) === 'confirm' ? 'ready' : (stateFor(row, link.issuedAt) as ConfirmResult);
}

function stateFor(row: Signup | undefined, issuedAt: number): 'confirm' | 'already' | 'expired' {
  // Gone (expired and deleted, or erased): nothing to confirm.
  if (!row) return 'expired';
  if (row.status === 'confirmed') return 'already';
  // A link of this request (not of one before an unsubscribe or a request from the firm).
  if (row.status === 'pending' && row.pendingSince && issuedAt >= row.pendingSince.getTime()) return 'confirm';
  return 'expired';
}

/** Confirms the sign-up a link names (the page's POST); then queues the welcome email. */
export async function confirmSignup(params: URLSearchParams, deps: NewsletterMailDeps): Promise<ConfirmResult> {
  const now = deps.now();
  const link = readConfirmLink(params, now);
  if (!link.ok) return link.reason;
  const outcome = await deps.db.transaction(async (tx) => {
    const [row] = await tx.select().from(newsletterSignups).where(eq(newsletterSignups.id, link.id)).for('update');
    const state = stateFor(row, link.issuedAt);
    if (state !== 'confirm' || !row) return { result: state as ConfirmResult, row: null };
    await tx
      .update(newsletterSignups)
      .set({
        status: 'confirmed',
        confirmedAt: new Date(now),
        expiresAt: null,
        // A sign-up stored before double opt-in agrees now, to the wording of today's email.
        consentVersion: row.consentVersion ?? NEWSLETTER_WORDING_VERSION,
      })
      .where(eq(newsletterSignups.id, row.id));
    return { result: 'confirmed' as const, row };
  });
  if (outcome.row) {
    const { id, email, locale } = outcome.row;
    await queueAndSend(
      `newsletter-welcome:${id}:${now}`,
      email,
      { kind: 'newsletter-welcome', locale: locale as Locale, siteUrl: deps.siteUrl, signupId: id },
      deps,
    ).catch((error: unknown) => deps.log(`[newsletter] welcome email not queued: ${String(error)}`));
  }
  return outcome.result;
}

export type UnsubscribeResult = 'unsubscribed' | 'already' | 'invalid';

/** Whether an unsubscribe link is genuine (the page's GET changes nothing). */
export const checkUnsubscribeLink = (params: URLSearchParams): 'ready' | 'invalid' =>
  readUnsubscribeLink(params) ? 'ready' : 'invalid';

/**
 * Unsubscribes the sign-up a link names (the page's POST, or a mail program's RFC 8058 one-click
 * POST). A row already unsubscribed, or gone, is the same outcome for the person: not on the list.
 */
export async function unsubscribe(db: Db, params: URLSearchParams, now: number): Promise<UnsubscribeResult> {
  const id = readUnsubscribeLink(params);
  if (!id) return 'invalid';
  const done = await db
    .update(newsletterSignups)
    .set({
      status: 'unsubscribed',
      unsubscribedAt: new Date(now),
      expiresAt: new Date(now + UNSUBSCRIBED_KEEP_DAYS * DAY),
    })
    .where(and(eq(newsletterSignups.id, id), ne(newsletterSignups.status, 'unsubscribed')))
    .returning({ id: newsletterSignups.id });
  return done.length ? 'unsubscribed' : 'already';
}

/**
 * Asks sign-ups stored before double opt-in to confirm: at most `limit` a run, each once (its
 * `pending_since` is set, so a second run skips it). They stay kept and unconfirmed (no expiry)
 * whether or not they answer; only a confirmation makes them exported. Returns how many were queued
 * and how many wait for another run.
 */
export async function requestLegacyConfirmations(
  limit: number,
  deps: NewsletterMailDeps,
): Promise<{ queued: number; left: number }> {
  const legacy = and(
    eq(newsletterSignups.status, 'pending'),
    isNull(newsletterSignups.consentVersion),
    isNull(newsletterSignups.pendingSince),
  );
  const now = deps.now();
  const rows = await deps.db
    .update(newsletterSignups)
    .set({ pendingSince: new Date(now), confirmMails: 1 })
    .where(
      sql`${newsletterSignups.id} in (select id from ${newsletterSignups} where ${legacy} order by submitted_at limit ${limit})`,
    )
    .returning({ id: newsletterSignups.id, email: newsletterSignups.email, locale: newsletterSignups.locale });
  for (const row of rows) {
    await queueMail(
      `newsletter-confirm:${row.id}:${now}`,
      row.email,
      {
        kind: 'newsletter-confirm',
        locale: row.locale as Locale,
        siteUrl: deps.siteUrl,
        signupId: row.id,
        issuedAt: now,
      },
      { sendBefore: now + CONFIRM_LINK_MS },
      { db: deps.db, now: deps.now },
    );
  }
  const [{ n = 0 } = {}] = (
    await deps.db.execute<{ n: number }>(sql`select count(*)::int as n from ${newsletterSignups} where ${legacy}`)
  ).rows;
  return { queued: rows.length, left: Number(n) };
}

/** The retention rule's condition: pending or unsubscribed rows past their expiry (confirmed rows have none). */
export const expiredSignups = (now: Date) =>
  and(lt(newsletterSignups.expiresAt, now), ne(newsletterSignups.status, 'confirmed'))!;
