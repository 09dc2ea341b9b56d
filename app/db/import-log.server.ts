import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { eq, sql } from 'drizzle-orm';
import type { SanityDocument } from '~/sanity/types';
import { isMovedToDatabase, parseWriteLogLine, WRITES_FILE } from '~/sanity/write-log';
import { dataImports, faqQuestions, formTokens, newsletterSignups, rateLimits } from './schema.server';
import type { Db } from './types.server';
import { log as logger } from '~/lib/log.server';

/**
 * The embedded world's earlier home of the forms' data: private documents in the write log
 * (`submission.faqQuestion.*`, `submission.newsletter.*`, `form.token.*`, `portal.limit.*`).
 * On the first start of this version on such a folder they are copied into the database, once:
 * all of them and the `data_imports` row that says so are one transaction, so a crash part-way
 * leaves nothing imported and the next start does it again; after it, no start reads them
 * (the content client skips them too). Expired form tokens and rate-limit windows are left
 * behind (they would be deleted at once). The log itself is not rewritten.
 */
export const FORMS_IMPORT = 'content-writes:forms';
const FORMS_PREFIXES = ['submission.', 'form.token.', 'portal.limit.'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const str = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : '');
const locale = (v: unknown) => (v === 'ar' ? 'ar' : 'en');
const date = (v: unknown, fallback: Date) => {
  const d = typeof v === 'string' || typeof v === 'number' ? new Date(v) : fallback;
  return Number.isNaN(d.getTime()) ? fallback : d;
};

/** The final state of the moved records in a write log (streamed: the log may be large). */
export async function readMovedRecords(
  file: string,
  accept: (id: string) => boolean = isMovedToDatabase,
): Promise<Map<string, SanityDocument>> {
  const records = new Map<string, SanityDocument>();
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    const entry = parseWriteLogLine(line);
    if (!entry) continue; // a torn last line: never acknowledged
    for (const id of entry.deleted) records.delete(id);
    for (const doc of entry.docs) if (accept(doc._id)) records.set(doc._id, doc);
  }
  return records;
}

async function insertInBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += 500) await insert(rows.slice(i, i + 500));
}

/**
 * Imports the write log's forms data once; returns what it imported, or null when there was
 * nothing to do (done before, or no log).
 */
export async function importWriteLog(
  db: Db,
  dataDir: string,
  now = new Date(),
): Promise<Record<string, number> | null> {
  const done = await db.select({ name: dataImports.name }).from(dataImports).where(eq(dataImports.name, FORMS_IMPORT));
  if (done.length) return null;
  const file = path.join(path.resolve(dataDir), WRITES_FILE);
  const records = existsSync(file)
    ? await readMovedRecords(file, (id) => FORMS_PREFIXES.some((prefix) => id.startsWith(prefix)))
    : new Map<string, SanityDocument>();

  const questions: (typeof faqQuestions.$inferInsert)[] = [];
  const signups: (typeof newsletterSignups.$inferInsert)[] = [];
  const tokens: (typeof formTokens.$inferInsert)[] = [];
  const limits: (typeof rateLimits.$inferInsert)[] = [];
  let skipped = 0;
  for (const doc of records.values()) {
    const id = doc._id;
    if (id.startsWith('submission.') && doc._type === 'faqQuestion') {
      const suffix = id.slice('submission.faqQuestion.'.length);
      questions.push({
        id: UUID.test(suffix) ? suffix : randomUUID(),
        name: str(doc.name, 200),
        email: str(doc.email, 254),
        phone: str(doc.phone, 32),
        question: str(doc.question, 5000),
        locale: locale(doc.locale),
        page: str(doc.page, 2048),
        submittedAt: date(doc.submittedAt, now),
      });
    } else if (id.startsWith('submission.') && doc._type === 'newsletterSignup') {
      const email = str(doc.email, 254).trim();
      if (!email) {
        skipped++;
        continue;
      }
      signups.push({
        id: randomUUID(),
        email,
        emailKey: email.toLowerCase(),
        locale: locale(doc.locale),
        page: str(doc.page, 2048),
        submittedAt: date(doc.submittedAt, now),
      });
    } else if (id.startsWith('form.token.')) {
      const expiresAt = date(doc.expiresAt, now);
      const form = doc.form === 'faq' || doc.form === 'newsletter' ? doc.form : null;
      const hash = id.slice('form.token.'.length);
      if (expiresAt <= now || !form || !/^[0-9a-f]{1,64}$/.test(hash) || typeof doc.contentHash !== 'string') {
        skipped++;
        continue;
      }
      const submission = String(doc.submissionId ?? '').slice('submission.faqQuestion.'.length);
      tokens.push({
        tokenHash: hash,
        form,
        contentHash: doc.contentHash.slice(0, 64),
        submissionId: UUID.test(submission) ? submission : null,
        expiresAt,
      });
    } else if (id.startsWith('portal.limit.')) {
      const rest = id.slice('portal.limit.'.length);
      const dot = rest.lastIndexOf('.');
      const expiresAt = date(doc.expiresAt, now);
      if (dot <= 0 || expiresAt <= now || typeof doc.windowStart !== 'number' || typeof doc.count !== 'number') {
        skipped++;
        continue;
      }
      limits.push({
        kind: rest.slice(0, dot).slice(0, 64),
        subject: rest.slice(dot + 1).slice(0, 64),
        windowStart: new Date(doc.windowStart),
        count: Math.max(0, Math.floor(doc.count)),
        expiresAt,
      });
    } else skipped++;
  }

  const counts = {
    faqQuestions: questions.length,
    newsletterSignups: signups.length,
    formTokens: tokens.length,
    rateLimits: limits.length,
    skipped,
  };
  const imported = await db.transaction(async (tx) => {
    const claimed = await tx
      .insert(dataImports)
      .values({ name: FORMS_IMPORT, counts })
      .onConflictDoNothing()
      .returning({ name: dataImports.name });
    if (!claimed.length) return false;
    await insertInBatches(questions, (b) => tx.insert(faqQuestions).values(b).onConflictDoNothing());
    await insertInBatches(signups, (b) => tx.insert(newsletterSignups).values(b).onConflictDoNothing());
    await insertInBatches(tokens, (b) => tx.insert(formTokens).values(b).onConflictDoNothing());
    await insertInBatches(limits, (b) => tx.insert(rateLimits).values(b).onConflictDoNothing());
    return true;
  });
  if (!imported) return null;
  if (records.size)
    logger.info(
      `[db] imported from ${file}: ${counts.faqQuestions} FAQ questions, ${counts.newsletterSignups} newsletter sign-ups, ` +
        `${counts.formTokens} form tokens, ${counts.rateLimits} rate-limit windows (${skipped} expired or unusable left out)`,
    );
  return counts;
}

/** For tests and diagnostics: whether the import has run on this database. */
export async function importDone(db: Db): Promise<boolean> {
  const rows = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from ${dataImports} where ${dataImports.name} = ${FORMS_IMPORT}`,
  );
  return Number(rows.rows[0]?.n ?? 0) > 0;
}
