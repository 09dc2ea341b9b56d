import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddedContentClient } from '~/sanity/embedded.server';
import { importPortalLog, PORTAL_IMPORT } from './import-portal.server';
import { accounts, dataImports, mailQueue } from './schema.server';
import { openTestDatabase, testDatabaseKinds } from './test-support';

/**
 * The portal's accounts and mail queue from a data folder the previous version wrote
 * (fixtures/main-data: its write log has a portal account; this test appends two queued emails
 * in that version's shape: a pending cancellation and a sent sign-in email that held a code).
 */
const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'main-data');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'import-portal-'));
  cpSync(FIXTURE, path.join(dir, 'data'), { recursive: true });
  const mail = (hash: string, fields: Record<string, unknown>) =>
    JSON.stringify({
      _tx: `tx-${hash}`,
      docs: [{ _id: `portal.mail.${hash}`, _type: 'portal.mail', ...fields }],
      deleted: [],
    });
  appendFileSync(
    path.join(dir, 'data', 'content-writes.ndjson'),
    '\n' +
      mail('a'.repeat(40), {
        key: 'cancel:sub_1:2026-11-20',
        to: 'client@example.com',
        status: 'pending',
        attempts: 1,
        nextAttemptAt: Date.UTC(2026, 10, 20, 9, 5),
        message: {
          kind: 'cancellation',
          locale: 'en',
          name: 'Fixture Client',
          siteUrl: 'http://localhost:3000',
          planName: 'Business',
          accessEndsAt: '2026-12-14T00:00:00.000Z',
          resumeUrl: 'http://localhost:3000/account/subscription',
        },
      }) +
      '\n' +
      mail('b'.repeat(40), {
        key: 'signin:x',
        to: 'client@example.com',
        status: 'pending',
        attempts: 0,
        nextAttemptAt: Date.UTC(2026, 10, 20, 9, 6),
        message: {
          kind: 'sign-in',
          locale: 'en',
          name: 'Fixture Client',
          siteUrl: 'http://localhost:3000',
          code: '654321',
          link: 'http://localhost:3000/account/verify?c=x&code=654321',
          minutes: 10,
        },
      }) +
      '\n',
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe.each(testDatabaseKinds())('the portal records of a previous version (%s)', (kind) => {
  it('are imported once: the account, the queued email, and no code', async () => {
    const database = await openTestDatabase(kind);
    try {
      const counts = await importPortalLog(database.db, path.join(dir, 'data'));
      expect(counts).toEqual({ accounts: 1, mail: 2, skipped: 0 });
      expect(await database.db.select().from(accounts)).toMatchObject([
        { customerId: 'cus_fixture', email: 'client@example.com', name: 'Fixture Client', locale: 'en' },
      ]);
      // Marked for the retention job's question to billing, three years on.
      expect((await database.db.select().from(accounts))[0]!.subscriptionEndedAt).toBeInstanceOf(Date);
      const mails = await database.db.select().from(mailQueue).orderBy(asc(mailQueue.keyHash));
      expect(mails).toMatchObject([
        { keyHash: 'a'.repeat(40), kind: 'cancellation', status: 'pending', attempts: 1 },
        { keyHash: 'b'.repeat(40), kind: 'sign-in', status: 'dropped', message: null },
      ]);
      expect(JSON.stringify(mails)).not.toContain('654321');
      // Once: a second start imports nothing.
      expect(await importPortalLog(database.db, path.join(dir, 'data'))).toBeNull();
      expect((await database.db.select().from(dataImports)).map((r) => r.name)).toContain(PORTAL_IMPORT);
      // The content client no longer serves them from the log.
      const store = new EmbeddedContentClient({
        datasetFile: path.resolve('studio/dataset/production.ndjson'),
        dataDir: path.join(dir, 'data'),
      });
      await store.whenReady();
      try {
        expect(await store.getDocument('portal.account.cus_fixture')).toBeNull();
        expect(await store.getDocument(`portal.mail.${'a'.repeat(40)}`)).toBeNull();
      } finally {
        store.close();
      }
    } finally {
      await database.close();
    }
  });
});
