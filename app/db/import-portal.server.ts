import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { WRITES_FILE } from '~/sanity/write-log';
import { readMovedRecords } from './import-log.server';
import { accounts, dataImports, mailQueue } from './schema.server';
import type { Db } from './types.server';
import { log as logger } from '~/lib/log.server';

/**
 * The portal's accounts and mail queue as the previous version kept them: private documents of
 * the embedded write log (`portal.account.<customerId>`, `portal.mail.<hash of its key>`). On the
 * first start of this version on such a folder they are copied into the database once, in one
 * transaction with the `data_imports` row that says so. Sign-in codes are not carried over (they
 * live ten minutes and their emails held the code); a sign-in email still queued is dropped, its
 * content never copied. Sessions were cookies with no record: clients sign in again.
 */
export const PORTAL_IMPORT = 'content-writes:portal';

const text = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : '');
const when = (v: unknown): Date | null => {
  if (typeof v !== 'string' && typeof v !== 'number') return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
};
const STATUSES = new Set(['pending', 'sending', 'sent', 'dropped']);

export async function importPortalLog(db: Db, dataDir: string): Promise<Record<string, number> | null> {
  const done = await db.select({ name: dataImports.name }).from(dataImports).where(eq(dataImports.name, PORTAL_IMPORT));
  if (done.length) return null;
  const file = path.join(path.resolve(dataDir), WRITES_FILE);
  const records = existsSync(file)
    ? await readMovedRecords(file, (id) => id.startsWith('portal.account.') || id.startsWith('portal.mail.'))
    : new Map();
  const accountRows: (typeof accounts.$inferInsert)[] = [];
  const mailRows: (typeof mailQueue.$inferInsert)[] = [];
  let skipped = 0;
  for (const doc of records.values()) {
    if (doc._id.startsWith('portal.account.')) {
      const email = text(doc.email, 254).trim().toLowerCase();
      const customerId = doc._id.slice('portal.account.'.length);
      if (!email || !/^[A-Za-z0-9_]{1,64}$/.test(customerId)) {
        skipped++;
        continue;
      }
      accountRows.push({
        customerId,
        email,
        name: text(doc.name, 200),
        company: typeof doc.company === 'string' ? doc.company.slice(0, 200) : null,
        locale: doc.locale === 'ar' ? 'ar' : 'en',
        // Whether this client's subscription still runs is billing's to say: marked now, the
        // retention job asks billing three years on (and clears the mark of a subscribed client).
        subscriptionEndedAt: new Date(),
      });
    } else {
      const keyHash = doc._id.slice('portal.mail.'.length);
      const message = doc.message as { kind?: unknown } | null;
      const kind = typeof message?.kind === 'string' ? message.kind : 'unknown';
      const status = typeof doc.status === 'string' && STATUSES.has(doc.status) ? doc.status : 'dropped';
      if (!/^[0-9a-f]{40}$/.test(keyHash) || typeof doc.to !== 'string') {
        skipped++;
        continue;
      }
      // A code's email is never carried over with its content (it held the code in clear).
      const code = kind === 'sign-in' || kind === 'checkout-confirm';
      mailRows.push({
        keyHash,
        toAddress: doc.to.slice(0, 254),
        kind: kind.slice(0, 40),
        message: code || status === 'sent' || status === 'dropped' ? null : (message as Record<string, unknown>),
        status: code && status !== 'sent' ? 'dropped' : status,
        attempts: typeof doc.attempts === 'number' ? Math.max(0, Math.floor(doc.attempts)) : 0,
        nextAttemptAt: when(doc.nextAttemptAt) ?? new Date(),
        claimedAt: when(doc.claimedAt),
        sentAt: when(doc.sentAt),
        lastError: typeof doc.lastError === 'string' ? doc.lastError.slice(0, 300) : null,
      });
    }
  }
  const counts = { accounts: accountRows.length, mail: mailRows.length, skipped };
  const imported = await db.transaction(async (tx) => {
    const claimed = await tx
      .insert(dataImports)
      .values({ name: PORTAL_IMPORT, counts })
      .onConflictDoNothing()
      .returning({ name: dataImports.name });
    if (!claimed.length) return false;
    for (let i = 0; i < accountRows.length; i += 500)
      await tx
        .insert(accounts)
        .values(accountRows.slice(i, i + 500))
        .onConflictDoNothing();
    for (let i = 0; i < mailRows.length; i += 500)
      await tx
        .insert(mailQueue)
        .values(mailRows.slice(i, i + 500))
        .onConflictDoNothing();
    return true;
  });
  if (!imported) return null;
  if (records.size)
    logger.info(`[db] imported from ${file}: ${counts.accounts} portal accounts, ${counts.mail} queued emails`);
  return counts;
}
