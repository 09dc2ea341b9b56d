import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '~/db/client.server';
import type { Listening } from '~/db/coordination.server';
import { createPostgresDatabase, openTestDatabase, testDatabaseKinds } from '~/db/test-support';
import type { Database, DatabaseKind } from '~/db/types.server';
import {
  decodeChange,
  encodeChange,
  followContentChanges,
  MAX_TYPES,
  publishContentChange,
  type ContentChange,
} from './content-sync.server';
import { PageCache, preparePage } from './page-cache.server';

describe('content change messages', () => {
  it('carry the types only, bounded: too many, odd names or none become "all"', () => {
    expect(JSON.parse(encodeChange('copy-a', new Set(['post', 'blogTag'])))).toEqual({
      from: 'copy-a',
      types: ['blogTag', 'post'],
    });
    const many = new Set(Array.from({ length: MAX_TYPES + 1 }, (_, i) => `type${i}`));
    expect(JSON.parse(encodeChange('a', many)).types).toBe('all');
    expect(JSON.parse(encodeChange('a', new Set(['post', 'x'.repeat(65)]))).types).toBe('all');
    expect(JSON.parse(encodeChange('a', new Set(['post", "evil']))).types).toBe('all');
    expect(JSON.parse(encodeChange('a', new Set())).types).toBe('all');
    expect(JSON.parse(encodeChange('a', 'all')).types).toBe('all');
    // Twenty long names still fit well under PostgreSQL's 8000-byte payload.
    const largest = encodeChange(
      'a'.repeat(36),
      new Set(Array.from({ length: MAX_TYPES }, (_, i) => `${i}`.padEnd(64, 'x'))),
    );
    expect(Buffer.byteLength(largest)).toBeLessThan(2000);
  });

  it('read back as sent; anything malformed reads as "everything changed"', () => {
    expect(decodeChange(encodeChange('a', new Set(['post'])))).toEqual({ from: 'a', types: new Set(['post']) });
    expect(decodeChange(encodeChange('a', 'all'))).toEqual({ from: 'a', types: 'all' });
    expect(decodeChange('not json')).toEqual({ from: null, types: 'all' });
    expect(decodeChange('{"from":"b","types":[1,2]}')).toEqual({ from: 'b', types: 'all' });
    expect(decodeChange(JSON.stringify({ from: 'b', types: Array(MAX_TYPES + 1).fill('t') }))).toEqual({
      from: 'b',
      types: 'all',
    });
  });
});

/** Two server copies on one database (two pools on PostgreSQL; PGlite is one process). */
async function twoCopies(kind: DatabaseKind): Promise<{ a: Database; b: Database; close(): Promise<void> }> {
  if (kind === 'pglite') {
    const one = await openTestDatabase('pglite');
    return { a: one, b: one, close: () => one.close() };
  }
  const created = await createPostgresDatabase();
  const a = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 2 });
  const b = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 2 });
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

/** A copy's page cache with one page in it, and what its listener was told. */
function copyCaches() {
  const pages = new PageCache({ maxEntries: 10, maxBytes: 1 << 20, maxEntryBytes: 1 << 20, maxAgeMs: 60_000 });
  const fill = () => pages.set('en /pricing', preparePage([], Buffer.from('<html>')));
  fill();
  const told: ContentChange[] = [];
  return {
    pages,
    fill,
    told,
    apply(changed: ContentChange) {
      told.push(changed);
      pages.clear();
    },
  };
}

const waitFor = (check: () => boolean, what: string) =>
  expect.poll(check, { timeout: 15_000, interval: 25, message: what }).toBe(true);

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

describe.each(testDatabaseKinds())('every copy clears its caches on %s', (kind) => {
  it(
    'a change published by one copy empties the other copy’s page cache, not its own twice',
    { timeout: 60_000 },
    async () => {
      const copies = await twoCopies(kind);
      cleanup.push(() => copies.close());
      const a = copyCaches();
      const b = copyCaches();
      const la = await followContentChanges(copies.a, (c) => a.apply(c), { self: 'copy-a' });
      const lb = await followContentChanges(copies.b, (c) => b.apply(c), { self: 'copy-b' });
      cleanup.push(
        () => la.close(),
        () => lb.close(),
      );

      // The webhook reached copy A: it cleared its own caches and publishes the change.
      await publishContentChange(copies.a.db, new Set(['pricingPlan']), 'copy-a');
      await waitFor(() => b.pages.stats.entries === 0, 'copy B’s page cache to be emptied');
      expect(b.told).toEqual([new Set(['pricingPlan'])]);

      // And the other way; A hears B's message, and by then its own first message has long
      // passed it by: it was skipped.
      b.fill();
      await publishContentChange(copies.b.db, 'all', 'copy-b');
      await waitFor(() => a.pages.stats.entries === 0, 'copy A’s page cache to be emptied');
      expect(a.told).toEqual(['all']);
      expect(b.told).toEqual([new Set(['pricingPlan'])]);
      expect(b.pages.stats.entries).toBe(1);
    },
  );
});

describe.runIf(testDatabaseKinds().includes('postgres'))('a copy whose listening connection dropped', () => {
  it(
    'clears everything once it listens again (it may have missed a change), then follows as before',
    { timeout: 60_000 },
    async () => {
      const copies = await twoCopies('postgres');
      cleanup.push(() => copies.close());
      const b = copyCaches();
      const logs: string[] = [];
      const lb: Listening = await followContentChanges(copies.b, (c) => b.apply(c), {
        self: 'copy-b',
        log: (m) => logs.push(m),
        retryMs: 50,
      });
      cleanup.push(() => lb.close());
      await copies.a.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity
          where application_name = 'bawaba-site listen' and datname = current_database()`,
      );
      await waitFor(() => b.told.length === 1, 'copy B to clear after reconnecting');
      expect(b.told).toEqual(['all']);
      expect(logs.join('\n')).toMatch(/connection lost[^]*listening again/);
      b.fill();
      await publishContentChange(copies.a.db, new Set(['post']), 'copy-a');
      await waitFor(() => b.told.length === 2, 'the change after the reconnection');
      expect(b.told[1]).toEqual(new Set(['post']));
    },
  );
});
