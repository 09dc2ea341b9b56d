import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc, eq, getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FORM_TOKEN_FIELD, HONEYPOT_FIELD } from '~/features/forms/fields';
import { createFormToken, MIN_FILL_MS } from '~/features/forms/spam-check';
import { handleFaqQuestion } from '~/features/forms/submissions.server';
import { remaining } from '~/portal/limits.server';
import { EmbeddedContentClient } from '~/sanity/embedded.server';
import { openDatabase } from './client.server';
import { FORMS_IMPORT, importWriteLog } from './import-log.server';
import { dataImports, faqQuestions, formTokens, newsletterSignups, rateLimits } from './schema.server';
import { openTestDatabase, testDatabaseKinds } from './test-support';
import type { Database, Db } from './types.server';

/**
 * fixtures/main-data/content-writes.ndjson is a write log made by the code before this move
 * (commit e014f8a, the store API of that version): two FAQ questions and two newsletter
 * sign-ups through handleFaqQuestion/handleNewsletter, their token records and limit windows,
 * one sign-in limit window and one portal account, written with SESSION_SECRET below and the
 * form secret 'fixture-secret' at 2026-11-20T09:00Z; then a torn last line (a crash mid-write).
 */
vi.hoisted(() => {
  process.env.SESSION_SECRET = 'fixture-session-secret-0123456789abcdef';
});
const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'main-data');
const FORM_SECRET = 'fixture-secret';
const T0 = Date.UTC(2026, 10, 20, 9, 0, 0);
const FIXTURE_NOW = T0 + MIN_FILL_MS + 1000;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'import-'));
  cpSync(FIXTURE, path.join(dir, 'data'), { recursive: true });
});
afterEach(() => {
  globalThis.__folderLocks?.get(path.join(dir, 'data'))?.release();
  rmSync(dir, { recursive: true, force: true });
});

async function count(db: Db, table: PgTable): Promise<number> {
  const r = await db.execute<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(getTableName(table))}`);
  return Number(r.rows[0]!.n);
}

describe('a data folder written by the previous version', () => {
  it('its submissions are imported into the database at the first start, once; the log no longer serves them', async () => {
    const dataDir = path.join(dir, 'data');
    let database = await openDatabase({ kind: 'pglite', dataDir });
    try {
      const questions = await database.db.select().from(faqQuestions).orderBy(asc(faqQuestions.page));
      expect(questions).toMatchObject([
        {
          id: '62d9a134-8611-4762-b1ec-75d4c00ca530',
          name: 'سارة',
          email: 'sara@example.ae',
          question: 'كم تستغرق الرخصة؟',
          locale: 'ar',
          page: '/ar/faq',
        },
        {
          name: 'Fixture Person',
          email: 'Fixture.Person@Example.com',
          phone: '+971 50 000 0001',
          locale: 'en',
          page: '/faq',
          submittedAt: new Date(FIXTURE_NOW),
        },
      ]);
      const signups = await database.db.select().from(newsletterSignups).orderBy(asc(newsletterSignups.emailKey));
      expect(signups).toMatchObject([
        { email: 'Reader@Example.com', emailKey: 'reader@example.com', locale: 'en', page: '/blog' },
        { email: 'second@example.org', emailKey: 'second@example.org', locale: 'ar', page: '/ar/blog' },
      ]);
      // Started days later: the tokens and windows had expired, so they were left behind.
      expect(await count(database.db, formTokens)).toBe(0);
      expect(await count(database.db, rateLimits)).toBe(0);
      expect(await database.db.select().from(dataImports).where(eq(dataImports.name, FORMS_IMPORT))).toMatchObject([
        {
          name: FORMS_IMPORT,
          counts: { faqQuestions: 2, newsletterSignups: 2, formTokens: 0, rateLimits: 0, skipped: 8 },
        },
      ]);
      // The torn last line (never acknowledged) was not imported.
      expect(questions.map((q) => q.id)).not.toContain('00000000-0000-4000-8000-000000000000');
    } finally {
      await database.close();
    }

    // A restart: nothing imported twice.
    database = await openDatabase({ kind: 'pglite', dataDir });
    try {
      expect(await count(database.db, faqQuestions)).toBe(2);
      expect(await count(database.db, newsletterSignups)).toBe(2);
      expect(await importWriteLog(database.db, dataDir)).toBeNull();
    } finally {
      await database.close();
    }

    // The content client reads the rest of the log as before, and none of the moved records.
    writeFileSync(
      path.join(dir, 'dataset.ndjson'),
      JSON.stringify({ _id: 'siteSettings', _type: 'siteSettings' }) + '\n',
    );
    const content = new EmbeddedContentClient({ datasetFile: path.join(dir, 'dataset.ndjson'), dataDir });
    try {
      expect(
        await content.queryPrivate('*[_type in ["faqQuestion", "newsletterSignup", "form.token", "portal.limit"]]'),
      ).toEqual([]);
      // The portal account moved too (import-portal.server.ts): the log no longer serves it either.
      expect(await content.getDocument('portal.account.cus_fixture')).toBeNull();
      await expect(
        content.mutate([{ create: { _id: 'submission.faqQuestion.x', _type: 'faqQuestion' } }]),
      ).rejects.toThrow(/lives in the database/);
    } finally {
      content.close();
    }
  });
});

describe.each(testDatabaseKinds())('importWriteLog on %s', (kind) => {
  let database: Database;
  beforeEach(async () => {
    database = await openTestDatabase(kind);
  });
  afterEach(() => database.close());

  it('brings live token records and limit windows too: a retried form is one submission', async () => {
    const counts = await importWriteLog(database.db, path.join(dir, 'data'), new Date(FIXTURE_NOW));
    expect(counts).toEqual({ faqQuestions: 2, newsletterSignups: 2, formTokens: 4, rateLimits: 4, skipped: 0 });
    // The first question's form, sent again with its token after the upgrade (a lost answer): the same success, no new row.
    const retry = new FormData();
    retry.set(FORM_TOKEN_FIELD, await createFormToken(T0 - 1, FORM_SECRET));
    retry.set(HONEYPOT_FIELD, '');
    for (const [k, v] of Object.entries({
      name: 'Fixture Person',
      email: 'Fixture.Person@Example.com',
      phone: '+971 50 000 0001',
      question: 'How long does a trade licence take?',
    }))
      retry.set(k, v);
    const deps = {
      db: database.db,
      mailer: { transport: 'outbox' as const, send: async () => ({ transport: 'outbox' as const, messageId: 'x' }) },
      secret: FORM_SECRET,
      now: () => FIXTURE_NOW + 60_000,
      mailFrom: 'site@example.com',
      mailTo: async () => 'firm@example.com',
    };
    expect(await handleFaqQuestion(retry, { page: '/faq' }, deps)).toEqual({ status: 'submitted' });
    expect(await count(database.db, faqQuestions)).toBe(2);
    // The old version's windows were keyed with the signing secret; the limits now have the
    // database's own key (server_keys, limits.server.ts), so at this upgrade they start afresh,
    // once (each ended within the hour anyway), and the imported rows go with the clean-up job.
    expect(
      await remaining(
        'signin-email',
        'client@example.com',
        { max: 5, windowMs: 3_600_000 },
        {
          db: database.db,
          now: FIXTURE_NOW + 60_000,
        },
      ),
    ).toBe(5);
    // Once only.
    expect(await importWriteLog(database.db, path.join(dir, 'data'), new Date(FIXTURE_NOW))).toBeNull();
    expect(await count(database.db, newsletterSignups)).toBe(2);
  });

  it('is one transaction: a failure part-way imports nothing and the next start tries again', async () => {
    await database.db.execute(sql`alter table rate_limits rename to rate_limits_away`);
    await expect(importWriteLog(database.db, path.join(dir, 'data'), new Date(FIXTURE_NOW))).rejects.toThrow();
    await database.db.execute(sql`alter table rate_limits_away rename to rate_limits`);
    expect(await count(database.db, faqQuestions)).toBe(0);
    expect(await count(database.db, dataImports)).toBe(0);
    expect(await importWriteLog(database.db, path.join(dir, 'data'), new Date(FIXTURE_NOW))).toMatchObject({
      faqQuestions: 2,
    });
    expect(await count(database.db, faqQuestions)).toBe(2);
  });

  it('a folder without a log is marked done and never read again', async () => {
    const empty = path.join(dir, 'empty');
    expect(await importWriteLog(database.db, empty)).toEqual({
      faqQuestions: 0,
      newsletterSignups: 0,
      formTokens: 0,
      rateLimits: 0,
      skipped: 0,
    });
    expect(await importWriteLog(database.db, path.join(dir, 'data'))).toBeNull();
  });
});
