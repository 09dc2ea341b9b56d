import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '~/db/client.server';
import { rateLimits, serverKeys } from '~/db/schema.server';
import { createPostgresDatabase, installDatabase, openTestDatabase, testDatabaseKinds } from '~/db/test-support';
import type { Database } from '~/db/types.server';
import { pseudonym } from './crypto.server';
import {
  budgetLeft,
  consume,
  consumeAll,
  giveBack,
  limitsKey,
  limitSubject,
  purgeExpiredLimits,
  remaining,
  takeBudget,
} from './limits.server';

process.env.SESSION_SECRET ??= 'limits-test-session-secret-0123456789abcdef';

describe.each(testDatabaseKinds())('rate limits in the database (%s)', (kind) => {
  let database: Database;
  beforeEach(async () => {
    database = await openTestDatabase(kind, { poolSize: 20 });
    installDatabase(database);
  });
  afterEach(async () => {
    installDatabase(undefined);
    await database.close();
  });

  it('allows max uses per window, then refuses until the window has passed', async () => {
    const limit = { max: 3, windowMs: 60_000 };
    const t0 = Date.UTC(2026, 10, 23, 10);
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await consume('t', 'a@example.com', limit, { now: t0 + i }));
    expect(results).toEqual([true, true, true, false, false]);
    expect(await remaining('t', 'a@example.com', limit, { now: t0 + 10 })).toBe(0);
    // Another subject has its own window; the same subject gets a new window after it ends.
    expect(await consume('t', 'b@example.com', limit, { now: t0 })).toBe(true);
    expect(await remaining('t', 'b@example.com', limit, { now: t0 })).toBe(2);
    expect(await consume('t', 'a@example.com', limit, { now: t0 + 60_000 })).toBe(true);
    expect(await remaining('t', 'a@example.com', limit, { now: t0 + 60_000 })).toBe(2);
    // The same subject under another kind counts apart; the subject's case does not matter.
    expect(await consume('u', 'A@Example.com', limit, { now: t0 })).toBe(true);
    expect(await remaining('u', 'a@example.com', limit, { now: t0 })).toBe(2);
  });

  it('several limits in one statement: all are counted when all have room, none when one is full', async () => {
    const t0 = Date.UTC(2026, 10, 23, 10);
    const uses = [
      { kind: 'ip', subject: '203.0.113.1', limit: { max: 3, windowMs: 60_000 } },
      { kind: 'address', subject: 'a@example.com', limit: { max: 10, windowMs: 60 * 60_000 } },
    ];
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await consumeAll(uses, { now: t0 + i }));
    expect(results).toEqual([true, true, true, false, false]);
    // The refused requests counted nothing against the address.
    expect(await remaining('address', 'a@example.com', uses[1]!.limit, { now: t0 + 10 })).toBe(7);
    // Each row keeps its own window: a minute on, the IP has room again, the address still counts on.
    expect(await consumeAll(uses, { now: t0 + 60_000 })).toBe(true);
    expect(await remaining('ip', '203.0.113.1', uses[0]!.limit, { now: t0 + 60_000 })).toBe(2);
    expect(await remaining('address', 'a@example.com', uses[1]!.limit, { now: t0 + 60_000 })).toBe(6);
  });

  it('several limits at once under concurrency: 50 requests, a limit of 5 on one, allow 5 and count 5 on the other', async () => {
    const uses = [
      { kind: 'burst-ip', subject: '203.0.113.7', limit: { max: 5, windowMs: 60 * 60 * 1000 } },
      { kind: 'burst-address', subject: 'b@example.com', limit: { max: 100, windowMs: 60 * 60 * 1000 } },
    ];
    const results = await Promise.all(Array.from({ length: 50 }, () => consumeAll(uses)));
    expect(results.filter(Boolean)).toHaveLength(5);
    const rows = await database.db.select().from(rateLimits).orderBy(rateLimits.kind);
    // No window past its maximum; the address counted about the allowed requests (a request racing
    // the one that filled the IP's window can be counted there once more).
    expect(rows.find((r) => r.kind === 'burst-ip')?.count).toBe(5);
    expect(rows.find((r) => r.kind === 'burst-address')?.count).toBeLessThan(50);
  });

  it('holds under concurrency: 50 simultaneous uses against a limit of 5 allow exactly 5', async () => {
    const limit = { max: 5, windowMs: 60 * 60 * 1000 };
    const results = await Promise.all(Array.from({ length: 50 }, () => consume('burst', '203.0.113.9', limit)));
    expect(results.filter(Boolean)).toHaveLength(5);
    const rows = await database.db.select().from(rateLimits);
    expect(rows).toMatchObject([{ kind: 'burst', count: 5 }]);
  });

  it('a rolling budget: each use is held for the window from its own moment, all or none, given back on demand', async () => {
    const day = 24 * 60 * 60 * 1000;
    const budget = { max: 10, windowMs: day };
    const t0 = Date.UTC(2026, 10, 23, 10);
    const take = (uses: number, at: number) => takeBudget('b', 'a@example.com', budget, uses, { now: at });
    expect(await take(6, t0)).not.toBeNull();
    expect(await take(4, t0 + day / 2)).not.toBeNull();
    expect(await budgetLeft('b', 'a@example.com', budget, { now: t0 + day / 2 })).toBe(0);
    expect(await take(1, t0 + day / 2)).toBeNull();
    // A fixed window would have started afresh by now; the first six are held until their own 24 hours end.
    expect(await take(1, t0 + day - 1)).toBeNull();
    expect(await budgetLeft('b', 'a@example.com', budget, { now: t0 + day })).toBe(6);
    // All or none: seven asked for with six free takes nothing.
    expect(await take(7, t0 + day)).toBeNull();
    expect(await budgetLeft('b', 'a@example.com', budget, { now: t0 + day })).toBe(6);
    const taken = await take(6, t0 + day);
    expect(taken?.subjects).toHaveLength(6);
    expect(await take(1, t0 + day)).toBeNull();
    // Given back (a use that did not count), the slots are free again; another subject has its own.
    await giveBack(taken!);
    expect(await budgetLeft('b', 'a@example.com', budget, { now: t0 + day })).toBe(6);
    expect(await budgetLeft('b', 'other@example.com', budget, { now: t0 })).toBe(10);
    // The second batch ends 24 hours after it was taken; the rows hold pseudonyms only.
    expect(await budgetLeft('b', 'a@example.com', budget, { now: t0 + day + day / 2 })).toBe(10);
    expect(JSON.stringify(await database.db.select().from(rateLimits))).not.toContain('example.com');
  });

  it('a rolling budget under concurrency: 50 simultaneous uses of a budget of 10 take exactly 10, and no slot twice', async () => {
    const budget = { max: 10, windowMs: 24 * 60 * 60 * 1000 };
    const ones = await Promise.all(Array.from({ length: 50 }, () => takeBudget('c1', 'a@example.com', budget, 1)));
    expect(ones.filter(Boolean)).toHaveLength(10);
    expect(new Set(ones.flatMap((t) => t?.subjects ?? [])).size).toBe(10);
    // Three at a time: never more than ten held, and what the winners hold is exactly what is stored.
    const threes = await Promise.all(Array.from({ length: 20 }, () => takeBudget('c3', 'a@example.com', budget, 3)));
    const won = threes.filter(Boolean);
    expect(won.length).toBeGreaterThanOrEqual(1);
    expect(won.length).toBeLessThanOrEqual(3);
    const rows = await database.db.select().from(rateLimits);
    expect(rows.filter((r) => r.kind === 'c3')).toHaveLength(won.length * 3);
    expect(new Set(won.flatMap((t) => t!.subjects)).size).toBe(won.length * 3);
  });

  it('a rolling budget under concurrency never deadlocks: 30 rounds of 40 simultaneous takes of 2 to 5 and give-backs', async () => {
    // Each take locks several slot rows in one statement, and a give-back deletes several: taken in random
    // order, two statements could each hold a slot the other waits for (PostgreSQL: "deadlock detected").
    const budget = { max: 10, windowMs: 24 * 60 * 60 * 1000 };
    for (let round = 0; round < 30; round++) {
      const kind = `d${round}`;
      const takes = await Promise.all(
        Array.from({ length: 40 }, async (_, n) => {
          const taken = await takeBudget(kind, 'a@example.com', budget, 2 + (n % 4));
          if (taken) await giveBack(taken);
          return taken ? 1 : 0;
        }),
      );
      expect(takes.reduce<number>((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
      expect(await budgetLeft(kind, 'a@example.com', budget)).toBe(10);
    }
  });

  it('counts in one statement: one insert … on conflict do update … where … returning, no read first', async () => {
    const statements: string[] = [];
    const logged = await openTestDatabase(kind, { logQuery: (query) => statements.push(query) });
    try {
      const limit = { max: 2, windowMs: 1000 };
      for (let i = 0; i < 3; i++) await consume('once', 'x@example.com', limit, { db: logged.db, now: 5000 });
      // A new window after the old one has passed: still one statement.
      await consume('once', 'x@example.com', limit, { db: logged.db, now: 7000 });
      expect(statements).toHaveLength(4);
      for (const s of statements)
        expect(s).toMatch(
          /^insert into "rate_limits" .* on conflict \("kind","subject"\) do update set .* where .* returning/,
        );
      expect(await remaining('once', 'x@example.com', limit, { db: logged.db, now: 7000 })).toBe(1);
    } finally {
      await logged.close();
    }
  });

  it('keeps no personal data: the subject is a keyed pseudonym', async () => {
    await consume('signin-email', 'Layla.Haddad@Example.com', { max: 5, windowMs: 1000 });
    const rows = await database.db.select().from(rateLimits);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.subject).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(JSON.stringify(rows).toLowerCase()).not.toContain('layla');
  });

  it('purges windows that have ended, a bounded number at a time', async () => {
    const t0 = Date.UTC(2026, 10, 23, 10);
    for (let i = 0; i < 5; i++) await consume('p', `s${i}`, { max: 1, windowMs: 1000 }, { now: t0 });
    await consume('p', 'later', { max: 1, windowMs: 60_000 }, { now: t0 });
    expect(await purgeExpiredLimits(database.db, t0 + 2000, 3)).toBe(3);
    expect(await purgeExpiredLimits(database.db, t0 + 2000, 3)).toBe(2);
    expect(await purgeExpiredLimits(database.db, t0 + 2000, 3)).toBe(0);
    const left = await database.db.execute<{ n: number }>(sql`select count(*)::int as n from rate_limits`);
    expect(Number(left.rows[0]!.n)).toBe(1);
  });
});

/** What a process running app/portal/limits.child.ts reported. */
type ChildReport = { allowed: number; key: string; secret: string; secrets: number };

/** A separate server process on the database: counts `uses` uses of one window (5 an hour) with the given secrets. */
function serverProcess(where: string, uses: number, secrets: Record<string, string>, goAt?: number) {
  const args = ['node_modules/vite-node/vite-node.mjs', '--config', 'vitest.config.ts', 'app/portal/limits.child.ts'];
  args.push(where, String(uses));
  if (goAt) args.push(String(goAt));
  const { SESSION_SECRET: _s, SESSION_SECRET_PREVIOUS: _p, DATABASE_URL: _d, ...rest } = process.env;
  const child = spawn(process.execPath, args, {
    env: { ...rest, ...secrets, NODE_ENV: 'test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
  return new Promise<ChildReport>((resolve, reject) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      const line = out.split('\n').find((l) => l.startsWith('{"allowed"'));
      if (code === 0 && line) resolve(JSON.parse(line) as ChildReport);
      else reject(new Error(`limits.child.ts exited ${code}: ${out}`));
    }),
  );
}

const OLD_SECRET = 'limits-rotation-old-secret-0123456789abcdef';
const NEW_SECRET = 'limits-rotation-new-secret-fedcba9876543210';

describe.each(testDatabaseKinds())('the rate limits keep their own key in the database (%s)', (kind) => {
  let where: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    if (kind === 'pglite') {
      const dir = mkdtempSync(path.join(tmpdir(), 'limits-key-'));
      where = `pglite:${dir}`;
      cleanup = async () => rmSync(dir, { recursive: true, force: true });
    } else {
      const created = await createPostgresDatabase();
      where = `postgres:${created.url}`;
      cleanup = created.drop;
    }
  });
  afterEach(() => cleanup());

  it('rotating SESSION_SECRET keeps every window: a window filled before is still full in a server on the new secret', async () => {
    const before = await serverProcess(where, 5, { SESSION_SECRET: OLD_SECRET });
    expect(before.allowed).toBe(5);
    // The restarted server: a new signing secret, the old one kept as previous (how a rotation is done).
    const after = await serverProcess(where, 3, { SESSION_SECRET: NEW_SECRET, SESSION_SECRET_PREVIOUS: OLD_SECRET });
    expect(after.secret).not.toBe(before.secret);
    expect(after.secrets).toBe(2);
    expect(after.allowed).toBe(0);
    expect(after.key).toBe(before.key);
    // Even without the previous secret (a rotation that drops it at once), nothing resets.
    expect((await serverProcess(where, 1, { SESSION_SECRET: NEW_SECRET })).allowed).toBe(0);
  }, 120_000);

  if (kind === 'postgres')
    it('server copies starting at once on one new database agree on one key and count in the same windows', async () => {
      const goAt = Date.now() + 8_000;
      const copies = await Promise.all([
        serverProcess(where, 5, { SESSION_SECRET: OLD_SECRET }, goAt),
        serverProcess(where, 5, { SESSION_SECRET: NEW_SECRET }, goAt),
      ]);
      expect(copies[0]!.key).toBe(copies[1]!.key);
      // Ten uses of a window of five from two processes: five allowed in all.
      expect(copies[0]!.allowed + copies[1]!.allowed).toBe(5);
    }, 120_000);

  it('the key is made once per database, at random, and opening the database again reads the same one', async () => {
    const open = () =>
      where.startsWith('pglite:')
        ? openDatabase({ kind: 'pglite', dataDir: where.slice('pglite:'.length) })
        : openDatabase({ kind: 'postgres', url: where.slice('postgres:'.length) });
    const first = await open();
    let stored: { name: string; key: string }[];
    let key: Buffer;
    try {
      stored = await first.db.select({ name: serverKeys.name, key: serverKeys.key }).from(serverKeys);
      expect(stored).toEqual([{ name: 'rate-limits', key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) }]);
      key = await limitsKey(first.db);
      expect(key).toHaveLength(32);
      expect(key.toString('base64url')).toBe(stored[0]!.key);
      // The rows are keyed with it, and not with the signing secret.
      await consume('k', '198.51.100.1', { max: 1, windowMs: 60_000 }, { db: first.db });
      const [row] = await first.db.select().from(rateLimits);
      expect(row!.subject).toBe(limitSubject(key, 'k', '198.51.100.1'));
      expect(row!.subject).not.toBe(pseudonym('k', '198.51.100.1'));
    } finally {
      await first.close();
    }
    const again = await open();
    try {
      expect(await again.db.select({ name: serverKeys.name, key: serverKeys.key }).from(serverKeys)).toEqual(stored);
      expect((await limitsKey(again.db)).equals(key)).toBe(true);
    } finally {
      await again.close();
    }
    // Another database has a key of its own (not one copied from the migrated template).
    const other = await openTestDatabase(kind);
    try {
      expect((await limitsKey(other.db)).equals(key)).toBe(false);
    } finally {
      await other.close();
    }
  }, 60_000);
});
