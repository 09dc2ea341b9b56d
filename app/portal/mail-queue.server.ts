import { createHash } from 'node:crypto';
import { env } from '~/lib/env.server';
import { mailer as appMailer, type Mailer } from '~/lib/mailer.server';
import { contentClient } from '~/sanity/client.server';
import { isConflict, type PrivateStore, type StoredDocument } from '~/sanity/types';
import { renderClientEmail, type ClientEmail } from './emails.server';

/**
 * The client emails go through a durable queue: `portal.mail.<hash of what it reports>`.
 * - Queued once: the id derives from a key naming the fact (for example
 *   `cancel:<subscription>:<requested at>`), created only if absent, so a retried request, a
 *   redelivered webhook or two concurrent clicks queue one email.
 * - Queued only after the change it reports is durable (callers queue after the billing call
 *   or the event returned), and sending never undoes anything.
 * - Sent at most once: a sender first claims the message with a conditional write
 *   (pending -> sending), so two senders never both send it; after a successful send it is
 *   marked sent. A send that fails goes back to pending with a growing delay (1 min … 1 h).
 *   A claim left by a crash between the send and the mark is retried after 15 minutes with the
 *   same Message-ID, which mail systems use to drop a duplicate; in the outbox it rewrites the
 *   same file.
 * - Sign-in emails carry a code: their content is erased once sent or expired.
 */
export type MailDoc = {
  _id: string;
  _type: 'portal.mail';
  key: string;
  to: string;
  message: ClientEmail | null;
  status: 'pending' | 'sending' | 'sent' | 'dropped';
  attempts: number;
  nextAttemptAt: number;
  claimedAt: number | null;
  sentAt: string | null;
  lastError: string | null;
  /** Sign-in emails: not sent after this (the code has expired). */
  expiresAt: number | null;
};

const MAX_ATTEMPTS = 12;
const STALE_CLAIM_MS = 15 * 60 * 1000;

export const mailId = (key: string) =>
  `portal.mail.${createHash('sha256').update(key).digest('hex').slice(0, 40)}` as const;

export interface MailDeps {
  store: PrivateStore;
  mailer: Mailer;
  from: string;
  now: () => number;
  log: (message: string) => void;
}

export function mailDeps(): MailDeps {
  const e = env();
  return {
    store: contentClient(),
    mailer: appMailer(),
    from: e.mail.from ?? `Bawaba Advisory <no-reply@${new URL(e.siteUrl).hostname}>`,
    now: Date.now,
    log: (m) => console.log(`[mail] ${m}`),
  };
}

/** Queues an email unless one with this key was queued before. Returns whether it was new. */
export async function queueMail(
  key: string,
  to: string,
  message: ClientEmail,
  options: { expiresAt?: number } = {},
  deps: Pick<MailDeps, 'store' | 'now'> = mailDeps(),
): Promise<boolean> {
  const id = mailId(key);
  if (await deps.store.getDocument(id)) return false;
  // Created only if absent, as one conditional write: of concurrent reports of one fact, one queues.
  const doc: MailDoc = {
    _id: id,
    _type: 'portal.mail',
    key,
    to,
    message,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: deps.now(),
    claimedAt: null,
    sentAt: null,
    lastError: null,
    expiresAt: options.expiresAt ?? null,
  };
  try {
    await deps.store.mutate([{ create: doc as MailDoc & { _id: `${string}.${string}` } }]);
  } catch (error) {
    if (isConflict(error)) return false;
    throw error;
  }
  return true;
}

/** Sends what is due (at most `limit` messages). Safe to run concurrently and after a crash. */
export async function sendDueMail(limit = 20, deps: MailDeps = mailDeps()): Promise<{ sent: number; failed: number }> {
  const now = deps.now();
  const due = await deps.store.queryPrivate<StoredDocument<MailDoc>[]>(
    `*[_type == "portal.mail" && ((status == "pending" && nextAttemptAt <= $now) || (status == "sending" && claimedAt < $stale))] | order(nextAttemptAt asc) [0...$limit]`,
    { now, stale: now - STALE_CLAIM_MS, limit },
  );
  let sent = 0;
  let failed = 0;
  for (const doc of due) {
    const result = await sendOne(doc, deps);
    if (result === 'sent') sent++;
    else if (result === 'failed') failed++;
  }
  return { sent, failed };
}

/** Sends one queued message now if it is still due (used right after queueing, so it goes out at once). */
export async function sendNow(key: string, deps: MailDeps = mailDeps()): Promise<void> {
  const doc = await deps.store.getDocument<MailDoc>(mailId(key));
  if (doc && doc.status === 'pending') await sendOne(doc, deps);
}

async function sendOne(doc: StoredDocument<MailDoc>, deps: MailDeps): Promise<'sent' | 'failed' | 'skipped'> {
  const now = deps.now();
  if (!doc.message || (doc.expiresAt !== null && now > doc.expiresAt)) {
    await tryPatch(deps, doc, { status: 'dropped', message: null, lastError: 'expired before it could be sent' });
    return 'skipped';
  }
  // Claim it: of two senders, only the one whose conditional write lands sends.
  const claimed = await tryPatch(deps, doc, { status: 'sending', claimedAt: now });
  if (!claimed) return 'skipped';
  const rendered = renderClientEmail(doc.message);
  const host = new URL(doc.message.siteUrl).hostname;
  try {
    await deps.mailer.send({
      to: doc.to,
      from: deps.from,
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
      messageId: `<${doc._id}@${host}>`,
    });
  } catch (error) {
    const attempts = doc.attempts + 1;
    const delay = Math.min(60 * 60 * 1000, 60 * 1000 * 2 ** Math.min(doc.attempts, 6));
    deps.log(`could not send ${doc.message.kind} (attempt ${attempts}): ${String(error)}`);
    await forcePatch(deps, doc._id, {
      status: attempts >= MAX_ATTEMPTS ? 'dropped' : 'pending',
      attempts,
      nextAttemptAt: now + delay,
      claimedAt: null,
      lastError: String(error).slice(0, 300),
    });
    return 'failed';
  }
  await forcePatch(deps, doc._id, {
    status: 'sent',
    sentAt: new Date(deps.now()).toISOString(),
    claimedAt: null,
    lastError: null,
    // A sign-in email's code must not outlive its use.
    ...(doc.message.kind === 'sign-in' ? { message: null } : {}),
  });
  return 'sent';
}

async function tryPatch(deps: MailDeps, doc: StoredDocument<MailDoc>, set: Partial<MailDoc>): Promise<boolean> {
  try {
    await deps.store.mutate([{ patch: { id: doc._id, ifRevisionID: doc._rev, set } }]);
    return true;
  } catch (error) {
    if (isConflict(error)) return false;
    throw error;
  }
}

/** A write by the sender that holds the claim: retried on a concurrent change of other fields. */
async function forcePatch(deps: MailDeps, id: string, set: Partial<MailDoc>): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const current = await deps.store.getDocument<MailDoc>(id);
    if (!current) return;
    if (await tryPatch(deps, current, set)) return;
  }
  throw new Error(`mail ${id}: could not record the result`);
}
