import { createHash } from 'node:crypto';
import { and, asc, eq, lte, or, sql } from 'drizzle-orm';
import { db as processDb } from '~/db/client.server';
import { mailQueue, newsletterSignups } from '~/db/schema.server';
import type { Db } from '~/db/types.server';
import type { Locale } from '~/i18n';
import { env } from '~/lib/env.server';
import { mailer as appMailer, type Mailer } from '~/lib/mailer.server';
import {
  NEWSLETTER_MAIL_KINDS,
  renderNewsletterMail,
  type NewsletterMail,
} from '~/features/newsletter/list-mail.server';
import { codeMail, type CodeMailKind } from './codes.server';
import { renderClientEmail, type ClientEmail } from './emails.server';
import { log as logger } from '~/lib/log.server';

/**
 * The client emails go through a durable queue, the `mail_queue` table.
 * - Queued once: the row's key is the sha256 of a key naming the fact (for example
 *   `cancel:<subscription>:<requested at>`), inserted with `on conflict do nothing`, so a
 *   retried request, a redelivered webhook or two concurrent clicks queue one email.
 * - Queued only after the change it reports is durable (callers queue after the billing call
 *   or the event returned), and sending never undoes anything.
 * - Sent at most once: a sender claims due rows with `for update skip locked` and marks them
 *   `sending` in the same statement, so two senders (or two server copies) never both send one;
 *   after a successful send it is marked sent. A send that fails goes back to pending with a
 *   growing delay (1 min … 1 h). A claim left by a crash between the send and the mark is
 *   retried after 15 minutes with the same Message-ID, which mail systems use to drop a
 *   duplicate; in the outbox it rewrites the same file.
 * - A sign-in or confirmation email holds only its code row's id: the code and the link are
 *   derived when it is rendered, so neither the queue nor the database ever holds one in clear.
 *   Its row is dropped when the code is used or expired before it could go, and when the code
 *   names no client (a stranger's address, asked for like a client's: nothing is sent).
 */
type CodeMail =
  | { kind: 'sign-in' | 'editor-sign-in'; locale: Locale; siteUrl: string; codeId: string; minutes: number }
  | { kind: 'checkout-confirm'; locale: Locale; siteUrl: string; codeId: string; minutes: number; planName: string };
const CODE_MAIL_KINDS: readonly string[] = ['sign-in', 'editor-sign-in', 'checkout-confirm'] satisfies CodeMailKind[];
const isCodeMail = (message: QueuedMessage): message is CodeMail => CODE_MAIL_KINDS.includes(message.kind);

/** What a queued row holds: a whole email, or (for a code, a newsletter email) what it is rendered from at send time. */
export type QueuedMessage =
  Exclude<ClientEmail, { kind: CodeMailKind | NewsletterMail['kind'] }> | CodeMail | NewsletterMail;
const isNewsletterMail = (message: QueuedMessage): message is NewsletterMail =>
  NEWSLETTER_MAIL_KINDS.includes(message.kind);

const MAX_ATTEMPTS = 12;
const STALE_CLAIM_MS = 15 * 60 * 1000;

export const mailKeyHash = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 40);

/** A code row, as the sender needs it: its client or editor and their name, whether it confirms a payment. */
export type CodeLookup = (id: string) => Promise<{
  customerId: string | null;
  editorEmail?: string | null;
  name: string | null;
  checkout: boolean;
} | null>;

export interface MailDeps {
  db?: Db;
  mailer: Mailer;
  from: string;
  now: () => number;
  log: (message: string) => void;
  /** Code rows (app/portal/signin.server.ts), and the code and link derived from one. */
  codes?: {
    live: CodeLookup;
    codeOf: (id: string, locale: Locale, kind: CodeMailKind) => { code: string; link: string };
  };
}

export function mailDeps(): MailDeps {
  const e = env();
  return {
    mailer: appMailer(),
    from: e.mail.from ?? `Bawaba Advisory <no-reply@${new URL(e.siteUrl).hostname}>`,
    now: Date.now,
    log: (m) => logger.info(`[mail] ${m}`),
  };
}

const database = async (deps: Pick<MailDeps, 'db'>) => deps.db ?? (await processDb());

/** The row that queues `message` under `key` (what queueMail inserts; sign-in inserts it with its code row). */
export function queuedMail(
  key: string,
  to: string,
  message: QueuedMessage,
  options: { sendBefore?: number } = {},
  now = Date.now(),
) {
  return {
    keyHash: mailKeyHash(key),
    toAddress: to,
    kind: message.kind,
    message: message as unknown as Record<string, unknown>,
    status: 'pending' as const,
    nextAttemptAt: new Date(now),
    sendBefore: options.sendBefore === undefined ? null : new Date(options.sendBefore),
  };
}

/** Queues an email unless one with this key was queued before. Returns whether it was new. */
export async function queueMail(
  key: string,
  to: string,
  message: QueuedMessage,
  options: { sendBefore?: number } = {},
  deps: Pick<MailDeps, 'db' | 'now'> = mailDeps(),
): Promise<boolean> {
  const inserted = await (
    await database(deps)
  )
    .insert(mailQueue)
    .values(queuedMail(key, to, message, options, deps.now()))
    .onConflictDoNothing()
    .returning({ keyHash: mailQueue.keyHash });
  return inserted.length > 0;
}

export type Claimed = typeof mailQueue.$inferSelect;

/**
 * Claims up to `limit` due rows (pending and due, or a claim older than 15 minutes): one
 * statement, `for update skip locked`, so concurrent senders take disjoint rows.
 */
async function claim(deps: MailDeps, where: ReturnType<typeof and>, limit: number): Promise<Claimed[]> {
  const d = await database(deps);
  const now = new Date(deps.now());
  const due = d
    .select({ keyHash: mailQueue.keyHash })
    .from(mailQueue)
    .where(where)
    .orderBy(asc(mailQueue.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return d
    .update(mailQueue)
    .set({ status: 'sending', claimedAt: now })
    .where(sql`${mailQueue.keyHash} in (${due})`)
    .returning();
}

const dueNow = (now: number) =>
  or(
    and(eq(mailQueue.status, 'pending'), lte(mailQueue.nextAttemptAt, new Date(now))),
    and(eq(mailQueue.status, 'sending'), lte(mailQueue.claimedAt, new Date(now - STALE_CLAIM_MS))),
  );

/** Sends what is due (at most `limit` messages). Safe to run concurrently, in several processes, and after a crash. */
export async function sendDueMail(limit = 20, deps: MailDeps = mailDeps()): Promise<{ sent: number; failed: number }> {
  const rows = await claim(deps, dueNow(deps.now()), limit);
  let sent = 0;
  let failed = 0;
  for (const row of rows) {
    const result = await sendClaimed(row, deps);
    if (result === 'sent') sent++;
    else if (result === 'failed') failed++;
  }
  return { sent, failed };
}

/**
 * A row its own request inserts already claimed (status `sending`), to send it at once without
 * a claim statement: its claim is dated so that it goes stale three minutes later, not fifteen,
 * so if this process dies before sending, any sender takes it again within a few minutes (well
 * inside a code's ten). Three minutes is longer than an SMTP send may take (the transport's
 * timeouts, app/lib/mailer.server.ts), so a slow send is not taken over and sent twice.
 */
export const SELF_CLAIM_LEASE_MS = 3 * 60 * 1000;
export function selfClaimedAt(now: number): Date {
  return new Date(now - STALE_CLAIM_MS + SELF_CLAIM_LEASE_MS);
}

/**
 * Sends a row that the caller inserted claimed (see selfClaimedAt), knowing its code row (just
 * written in the same statement): no statement but the one that records the outcome.
 */
export async function sendSelfClaimed(
  row: Claimed,
  code: Awaited<ReturnType<CodeLookup>>,
  deps: MailDeps = mailDeps(),
): Promise<void> {
  await sendClaimed(row, { ...deps, codes: { live: async () => code, codeOf: (deps.codes ?? codeMail).codeOf } });
}

/** Sends one queued message now if it is still pending (used right after queueing, so it goes out at once). */
export async function sendNow(key: string, deps: MailDeps = mailDeps()): Promise<void> {
  const [row] = await claim(deps, and(eq(mailQueue.keyHash, mailKeyHash(key)), eq(mailQueue.status, 'pending')), 1);
  if (row) await sendClaimed(row, deps);
}

/**
 * Records a claimed row's outcome, only while the claim is still this sender's: a sender whose
 * claim went stale and was taken over never overwrites what the newer claimer recorded.
 */
async function finish(deps: MailDeps, row: Claimed, set: Partial<typeof mailQueue.$inferInsert>) {
  const own = row.claimedAt ? eq(mailQueue.claimedAt, row.claimedAt) : undefined;
  await (
    await database(deps)
  )
    .update(mailQueue)
    .set(set)
    .where(and(eq(mailQueue.keyHash, row.keyHash), eq(mailQueue.status, 'sending'), own));
}

/**
 * A newsletter email goes only while its sign-up is in the state it was written for: a
 * confirmation request while pending, anything else while confirmed (an address that unsubscribed
 * or was erased meanwhile gets nothing).
 */
async function newsletterMailLive(message: NewsletterMail, deps: MailDeps): Promise<boolean> {
  const [row] = await (
    await database(deps)
  )
    .select({ status: newsletterSignups.status })
    .from(newsletterSignups)
    .where(eq(newsletterSignups.id, message.signupId));
  return row?.status === (message.kind === 'newsletter-confirm' ? 'pending' : 'confirmed');
}

/** The email a claimed row stands for, or why it is not sent. */
async function compose(row: Claimed, deps: MailDeps): Promise<ClientEmail | NewsletterMail | { drop: string }> {
  const message = row.message as unknown as QueuedMessage | null;
  if (!message) return { drop: 'no content' };
  if (row.sendBefore && deps.now() > row.sendBefore.getTime()) return { drop: 'expired before it could be sent' };
  if (isNewsletterMail(message))
    return (await newsletterMailLive(message, deps)) ? message : { drop: 'the sign-up is no longer in that state' };
  if (!isCodeMail(message)) return message;
  const codes = deps.codes ?? codeMail;
  const live = await codes.live(message.codeId);
  if (!live) return { drop: 'the code was used or expired before it could be sent' };
  const { code, link } = codes.codeOf(message.codeId, message.locale, message.kind);
  if (message.kind === 'checkout-confirm') return { ...message, name: '', code, link };
  if (!(message.kind === 'editor-sign-in' ? live.editorEmail : live.customerId)) return { drop: 'not a client' };
  return { ...message, name: live.name ?? '', code, link };
}

async function sendClaimed(row: Claimed, deps: MailDeps): Promise<'sent' | 'failed' | 'skipped'> {
  const email = await compose(row, deps);
  if ('drop' in email) {
    // A stranger's sign-in row (no client's, or no editor's) goes entirely (its address has no reason to be kept).
    if (email.drop === 'not a client')
      await (await database(deps)).delete(mailQueue).where(eq(mailQueue.keyHash, row.keyHash));
    else await finish(deps, row, { status: 'dropped', message: null, claimedAt: null, lastError: email.drop });
    return 'skipped';
  }
  const listMail = 'signupId' in email ? renderNewsletterMail(email) : null;
  const rendered = listMail ?? renderClientEmail(email as ClientEmail);
  const host = new URL(email.siteUrl).hostname;
  try {
    await deps.mailer.send({
      to: row.toAddress,
      from: deps.from,
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
      messageId: `<portal.mail.${row.keyHash}@${host}>`,
      ...(listMail ? { headers: listMail.headers } : {}),
    });
  } catch (error) {
    const attempts = row.attempts + 1;
    const delay = Math.min(60 * 60 * 1000, 60 * 1000 * 2 ** Math.min(row.attempts, 6));
    deps.log(`could not send ${row.kind} (attempt ${attempts}): ${String(error)}`);
    await finish(deps, row, {
      status: attempts >= MAX_ATTEMPTS ? 'dropped' : 'pending',
      attempts,
      nextAttemptAt: new Date(deps.now() + delay),
      claimedAt: null,
      lastError: String(error).slice(0, 300),
    });
    return 'failed';
  }
  await finish(deps, row, {
    status: 'sent',
    sentAt: new Date(deps.now()),
    claimedAt: null,
    lastError: null,
    // A code's email keeps nothing of it once out (it held only the row's id anyway).
    ...(CODE_MAIL_KINDS.includes(row.kind) ? { message: null } : {}),
  });
  return 'sent';
}
