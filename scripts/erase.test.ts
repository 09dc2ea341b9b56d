import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '~/db/client.server';
import { lockDataFolder } from '~/db/folder-lock.server';
import { accounts, billingCustomers, billingSubscriptions, faqQuestions, newsletterSignups } from '~/db/schema.server';
import { createPostgresDatabase, testDatabaseKinds } from '~/db/test-support';
import type { Database } from '~/db/types.server';

const run = promisify(execFile);
const EMAIL = 'someone@example.com';

/** `npm run erase -- …` as the operator runs it, on a data folder (and a PostgreSQL database). */
describe.each(testDatabaseKinds())('npm run erase on %s', (kind) => {
  let dir: string;
  let dataDir: string;
  let url = '';
  let drop = async () => {};

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'erase-cli-'));
    dataDir = path.join(dir, 'data');
    let database: Database;
    if (kind === 'postgres') {
      const created = await createPostgresDatabase();
      url = created.url;
      drop = created.drop;
      database = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
    } else database = await openDatabase({ kind: 'pglite', dataDir });
    try {
      await database.db
        .insert(accounts)
        .values({ customerId: 'cus_cli', email: EMAIL, name: 'Some One', locale: 'ar' });
      await database.db.insert(faqQuestions).values({
        id: '00000000-0000-4000-8000-0000000000c1',
        name: 'Some One',
        email: 'SomeOne@Example.com',
        phone: '',
        question: 'How long does a licence take?',
        locale: 'en',
        page: '/faq',
        submittedAt: new Date(),
      });
      await database.db.insert(newsletterSignups).values({
        id: '00000000-0000-4000-8000-0000000000c2',
        email: EMAIL,
        emailKey: EMAIL,
        locale: 'en',
        page: '/',
        submittedAt: new Date(),
      });
    } finally {
      await database.close();
    }
    mkdirSync(path.join(dataDir, 'outbox'), { recursive: true });
    writeFileSync(path.join(dataDir, 'outbox', 'message-1.json'), JSON.stringify({ to: EMAIL, subject: 'Your code' }));
    writeFileSync(path.join(dataDir, 'outbox', 'message-1.eml'), 'Subject: Your code\n\n123456\n');
  }, 60_000);

  afterEach(async () => {
    globalThis.__folderLocks?.get(dataDir)?.release();
    rmSync(dir, { recursive: true, force: true });
    await drop();
  });

  const command = (args: string[]) =>
    run(
      process.execPath,
      ['node_modules/vite-node/vite-node.mjs', '--config', 'vitest.config.ts', 'scripts/erase.ts', ...args],
      {
        env: {
          ...process.env,
          CONTENT_DATA_DIR: dataDir,
          DATABASE_URL: url,
          SANITY_PROJECT_ID: '',
          STRIPE_SECRET_KEY: '',
          STRIPE_WEBHOOK_SECRET: '',
          OUTBOX_DIR: '',
          SITE_URL: 'http://localhost:3000',
        },
      },
    );

  it('prints what it removed per place; the second time, nothing', { timeout: 120_000 }, async () => {
    const first = await command([' SomeOne@Example.com ']);
    expect(first.stdout).toContain('Erasure of someone@example.com: 4 records removed');
    expect(first.stdout).toMatch(/database: portal accounts [^\n]*: 1 removed\n {4}account cus_cli/);
    expect(first.stdout).toMatch(/database: FAQ questions: 1 removed/);
    expect(first.stdout).toMatch(/database: newsletter sign-up: 1 removed/);
    expect(first.stdout).toMatch(/outbox \(development mail\): 1 removed\n {4}message-1 \(\.json and \.eml\)/);
    expect(first.stdout).toMatch(/Stripe customers [^\n]*: 0 removed\n {4}note: Stripe is not configured here/);
    expect(existsSync(path.join(dataDir, 'outbox', 'message-1.eml'))).toBe(false);

    const second = await command([EMAIL]);
    expect(second.stdout).toContain('Erasure of someone@example.com: 0 records removed');
  });

  it('refuses anything but one address (exit 2)', { timeout: 60_000 }, async () => {
    for (const args of [[], ['not-an-address'], [EMAIL, 'other@example.com']]) {
      const refused = await command(args).then(
        () => null,
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(refused, args.join(' ')).toMatchObject({ code: 2, stdout: '' });
      expect(refused!.stderr).toContain('usage: npm run erase -- someone@example.com');
    }
  });

  /** Runs `change` on the test's database (closed again before the command opens it). */
  const onDatabase = async (change: (db: Database['db']) => Promise<unknown>) => {
    const database =
      kind === 'postgres'
        ? await openDatabase({ kind: 'postgres', url, poolSize: 1 })
        : await openDatabase({ kind: 'pglite', dataDir });
    try {
      await change(database.db);
    } finally {
      await database.close();
    }
  };

  it(
    'refuses, erasing nothing, while the billing engine still renews their subscription (exit 3)',
    {
      timeout: 120_000,
    },
    async () => {
      const start = new Date('2026-11-14T00:00:00.000Z');
      await onDatabase(async (db) => {
        await db
          .insert(billingCustomers)
          .values({ id: 'cus_CliBilled', email: EMAIL, name: 'Some One', locale: 'ar', createdAt: start });
        await db.insert(billingSubscriptions).values({
          id: 'sub_CliBilled',
          customerId: 'cus_CliBilled',
          plan: 'business',
          amount: 49_900,
          currency: 'sgd',
          status: 'active',
          billingAnchor: start,
          periodIndex: 1,
          currentPeriodStart: start,
          currentPeriodEnd: new Date('2026-12-14T00:00:00.000Z'),
          cancelAtPeriodEnd: false,
          createdAt: start,
        });
      });
      const refused = await command([EMAIL]).then(
        () => null,
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(refused).toMatchObject({ code: 3, stdout: '' });
      expect(refused!.stderr).toContain(
        'erase: nothing erased: someone@example.com still has a subscription that renews (billing engine sub_CliBilled, plan business, active, next renewal 2026-12-14)',
      );
      expect(existsSync(path.join(dataDir, 'outbox', 'message-1.eml'))).toBe(true);

      // The client cancels (it ends with the period they paid for): now the erasure goes ahead.
      await onDatabase((db) =>
        db
          .update(billingSubscriptions)
          .set({ cancelAtPeriodEnd: true, canceledAt: new Date() })
          .where(eq(billingSubscriptions.id, 'sub_CliBilled')),
      );
      const erased = await command([EMAIL]);
      expect(erased.stdout).toMatch(/database: portal accounts [^\n]*: 1 removed\n {4}account cus_cli/);
      expect(erased.stdout).toMatch(/customer cus_CliBilled \(Some One\): kept/);
    },
  );

  it('refuses a data folder a server holds, and erases nothing', { timeout: 60_000 }, async () => {
    lockDataFolder(dataDir);
    const refused = await command([EMAIL]).then(
      () => null,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused!.stderr).toContain(`is in use by another process: pid ${process.pid}`);
    expect(existsSync(path.join(dataDir, 'outbox', 'message-1.eml'))).toBe(true);
  });
});
