import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './client.server';
import { listen, notify, runExclusive, type Listening } from './coordination.server';
import { createPostgresDatabase, openTestDatabase, testDatabaseKinds } from './test-support';
import type { Database, DatabaseKind } from './types.server';

/**
 * Two server copies on one database, as two `Database`s: on PostgreSQL two pools on the same
 * database (as two processes would have); on PGlite the one database of the one process.
 */
async function twoCopies(kind: DatabaseKind): Promise<{ a: Database; b: Database; close(): Promise<void> }> {
  if (kind === 'pglite') {
    const one = await openTestDatabase('pglite');
    return { a: one, b: one, close: () => one.close() };
  }
  const created = await createPostgresDatabase();
  const a = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 4 });
  const b = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 4 });
  return {
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      await created.drop();
    },
  };
}

const KEY = 990_001;
const OTHER_KEY = 990_002;

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function copies(kind: DatabaseKind) {
  const c = await twoCopies(kind);
  cleanup.push(() => c.close());
  return c;
}

/** Resolves when `check` holds (polling), or fails the test after `ms`. */
async function until(check: () => boolean | Promise<boolean>, what: string, ms = 15_000) {
  for (const start = Date.now(); Date.now() - start < ms;) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.each(testDatabaseKinds())('runExclusive on %s', (kind) => {
  it('while one copy holds a lock the other skips at once; after, it runs', { timeout: 60_000 }, async () => {
    const { a, b } = await copies(kind);
    let release!: () => void;
    let inside = false;
    const held = runExclusive(a, KEY, async () => {
      inside = true;
      await new Promise<void>((r) => (release = r));
      return 'a ran';
    });
    await until(() => inside, 'the first holder to start');
    expect(await runExclusive(b, KEY, async () => 'b ran')).toEqual({ ran: false });
    // Another key is another lock.
    expect(await runExclusive(b, OTHER_KEY, async () => 'other ran')).toEqual({ ran: true, value: 'other ran' });
    release();
    expect(await held).toEqual({ ran: true, value: 'a ran' });
    expect(await runExclusive(b, KEY, async () => 'b ran')).toEqual({ ran: true, value: 'b ran' });
  });

  it('work that fails releases the lock', { timeout: 60_000 }, async () => {
    const { a, b } = await copies(kind);
    await expect(
      runExclusive(a, KEY, async () => {
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    expect(await runExclusive(b, KEY, async () => 'b ran')).toEqual({ ran: true, value: 'b ran' });
  });

  it('of ten runners started at once on two copies, one runs and nine skip', { timeout: 60_000 }, async () => {
    const { a, b } = await copies(kind);
    // The holder's work waits until the nine others have answered: were two to run, the
    // count would never reach nine and the test would time out.
    let answered = 0;
    let open!: () => void;
    const allOthersAnswered = new Promise<void>((r) => (open = r));
    const runners = Array.from({ length: 10 }, (_, i) =>
      runExclusive(i % 2 ? a : b, KEY, async () => {
        await allOthersAnswered;
        return i;
      }).then((outcome) => {
        if (!outcome.ran && ++answered === 9) open();
        return outcome;
      }),
    );
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('two runners held the lock at once')), 30_000).unref(),
    );
    const outcomes = await Promise.race([Promise.all(runners), timeout]);
    expect(outcomes.filter((o) => o.ran)).toHaveLength(1);
  });
});

describe.runIf(testDatabaseKinds().includes('postgres'))('runExclusive on postgres: a copy that dies', () => {
  it('a holder whose connection is cut frees the lock (the server ends its session)', { timeout: 60_000 }, async () => {
    const { a, b } = await copies('postgres');
    let release!: () => void;
    let inside = false;
    const logs: string[] = [];
    const held = runExclusive(
      a,
      KEY,
      async () => {
        inside = true;
        await new Promise<void>((r) => (release = r));
        return 'a ran';
      },
      (m) => logs.push(m),
    );
    await until(() => inside, 'the first holder to start');
    expect(await runExclusive(b, KEY, async () => 'b ran')).toEqual({ ran: false });
    // As if the copy's connection died: the server ends the session holding the lock.
    const cut = await b.db.execute<{ ok: boolean }>(
      sql`select pg_terminate_backend(pid) as ok from pg_locks where locktype = 'advisory' and objid = ${KEY} and granted`,
    );
    expect(cut.rows).toEqual([{ ok: true }]);
    await until(async () => (await runExclusive(b, KEY, async () => true)).ran, 'the lock to be free');
    release();
    // The first holder's work finishes; its broken connection is closed, not returned to the pool.
    expect(await held).toEqual({ ran: true, value: 'a ran' });
    expect(logs.join('\n')).toMatch(/broke|could not release/);
    expect(await runExclusive(a, KEY, async () => 'a again')).toEqual({ ran: true, value: 'a again' });
  });
});

describe.each(testDatabaseKinds())('listen and notify on %s', (kind) => {
  it('a message sent through one copy reaches the listeners of both', { timeout: 60_000 }, async () => {
    const { a, b } = await copies(kind);
    const heard = { a: [] as string[], b: [] as string[] };
    const la = await listen(a, 'coordination_test', { onMessage: (p) => heard.a.push(p) });
    const lb = await listen(b, 'coordination_test', { onMessage: (p) => heard.b.push(p) });
    cleanup.push(
      () => la.close(),
      () => lb.close(),
    );
    await notify(a.db, 'coordination_test', 'hello');
    await until(() => heard.a.length > 0 && heard.b.length > 0, 'both listeners');
    expect(heard).toEqual({ a: ['hello'], b: ['hello'] });
    // Other channels are not heard; a closed listener hears nothing more.
    await notify(a.db, 'coordination_other', 'elsewhere');
    await lb.close();
    await notify(b.db, 'coordination_test', 'again');
    await until(() => heard.a.length > 1, 'the open listener');
    expect(heard).toEqual({ a: ['hello', 'again'], b: ['hello'] });
  });

  it('refuses a channel that is not a plain name and a payload over the bound', async () => {
    const { a } = await copies(kind);
    await expect(notify(a.db, 'bad channel; drop table x', 'x')).rejects.toThrow(/not a channel name/);
    await expect(listen(a, 'Bad-Channel', { onMessage() {} })).rejects.toThrow(/not a channel name/);
    await expect(notify(a.db, 'coordination_test', 'x'.repeat(2001))).rejects.toThrow(/payload too large/);
  });
});

describe.runIf(testDatabaseKinds().includes('postgres'))('listen on postgres: a dropped connection', () => {
  it('is logged, made again, reported, and hears what is sent after', { timeout: 60_000 }, async () => {
    const { a, b } = await copies('postgres');
    const heard: string[] = [];
    const logs: string[] = [];
    let reconnected = 0;
    const listening: Listening = await listen(b, 'coordination_test', {
      onMessage: (p) => heard.push(p),
      onReconnect: () => reconnected++,
      log: (m) => logs.push(m),
      retryMs: 50,
    });
    cleanup.push(() => listening.close());
    const cut = await a.db.execute<{ ok: boolean }>(
      sql`select pg_terminate_backend(pid) as ok from pg_stat_activity
          where application_name = 'bawaba-site listen' and datname = current_database()`,
    );
    expect(cut.rows).toEqual([{ ok: true }]);
    await until(() => reconnected === 1, 'the listener to reconnect');
    expect(logs.join('\n')).toMatch(/connection lost[^]*listening again/);
    await notify(a.db, 'coordination_test', 'after');
    await until(() => heard.length > 0, 'the message after the reconnection');
    expect(heard).toEqual(['after']);
  });
});
