import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installDatabase, openTestDatabase, testDatabaseKinds } from '~/db/test-support';
import type { Database } from '~/db/types.server';
import { createLakeHandler } from './api.server';
import { addEditor, editorFromRequest } from './editors.server';
import { LakeStore } from './store.server';

/**
 * Issue 40: an editor's request cannot freeze or empty the public site. Queries run in worker
 * threads with a time limit and end when their client goes; requests are bounded (413, 429);
 * malformed ones answer 400 and change nothing; listeners are bounded per editor; each editor's
 * Studio preferences are their own, in the database.
 */
process.env.SESSION_SECRET ??= 'lake-unit-test-secret-0123456789-0123456789';

const BASE = Array.from({ length: 150 }, (_, i) => ({
  _id: `faq-${i}`,
  _type: 'faqItem',
  question: { _type: 'localeString', en: `Q${i}`, ar: '' },
}));
// The query: every document times every document times every document.
const HEAVY = `count(*[]{'a': *[]{'b': *[]{_id}}})`;

async function editorToken(database: Database, email: string): Promise<string> {
  const token = `lk1.${createHash('sha256').update(String(Math.random())).digest('hex').slice(0, 43)}`;
  await database.db.execute(
    sql`insert into lake_editor_sessions (id_hash, email, expires_at) values (${createHash('sha256').update(token).digest('hex')}, ${email}, ${new Date(Date.now() + 3_600_000).toISOString()}::timestamptz)`,
  );
  return token;
}

for (const kind of testDatabaseKinds()) {
  describe(`the lake guards the site from its editors (${kind})`, () => {
    let database: Database;
    let store: LakeStore;
    let server: Server;
    let base: string;
    let auth: Record<string, string>;
    let other: Record<string, string>;
    let handle: ReturnType<typeof createLakeHandler>;
    const logged: string[] = [];
    const start = async (s: LakeStore) => {
      const h = createLakeHandler({
        store: s,
        projectId: 'placeholder',
        dataset: 'production',
        authenticate: editorFromRequest,
        allowedOrigins: () => false,
        log: (line) => logged.push(line),
        queries: { workers: 1, queue: 1, timeoutMs: 3_000 },
        limits: { listenersPerEditor: 5, preferenceKeys: 4 },
      });
      const srv = createServer((req, res) => void h(req, res));
      await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
      return { h, srv, url: `http://127.0.0.1:${(srv.address() as { port: number }).port}` };
    };
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      installDatabase(database);
      await addEditor('editor@example.com', 'Eda');
      await addEditor('second@example.com', 'Sami');
      auth = { Authorization: `Bearer ${await editorToken(database, 'editor@example.com')}` };
      other = { Authorization: `Bearer ${await editorToken(database, 'second@example.com')}` };
      store = new LakeStore(database.db);
      await store.open(BASE);
      ({ h: handle, srv: server, url: base } = await start(store));
    });
    afterAll(async () => {
      await handle.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      installDatabase(undefined);
      await database.close();
    });

    const query = (q: string, init: RequestInit = {}) =>
      fetch(`${base}/v2025-02-19/data/query/production?query=${encodeURIComponent(q)}`, {
        ...init,
        headers: { ...auth, ...(init.headers as Record<string, string>) },
      });
    const post = (path: string, body: string, headers = auth) =>
      fetch(`${base}${path}`, { method: 'POST', body, headers: { ...headers, 'Content-Type': 'application/json' } });

    it('runs a heavy query off the main thread: the server answers meanwhile, and the query is stopped at its time limit (422)', async () => {
      const started = Date.now();
      const heavy = query(HEAVY);
      await new Promise((r) => setTimeout(r, 150));
      const pings: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t = Date.now();
        expect((await fetch(`${base}/ping`)).status).toBe(200);
        pings.push(Date.now() - t);
      }
      expect(Math.max(...pings)).toBeLessThan(1_000);
      const res = await heavy;
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ error: { type: 'queryTimeout' }, statusCode: 422 });
      expect(Date.now() - started).toBeLessThan(6_000);
      // The next query gets a fresh worker, with the documents.
      const ok = await query('count(*[_type == "faqItem"])');
      expect(await ok.json()).toMatchObject({ result: 150 });
    }, 20_000);

    it('stops a query when its client goes away, and refuses one past the queue (429)', async () => {
      const ended = handle.queries.ended;
      const gone = new AbortController();
      const heavy = query(HEAVY, { signal: gone.signal }).catch(() => null);
      await new Promise((r) => setTimeout(r, 150));
      // One runs, one waits: a third is refused at once, with Retry-After.
      const waiting = query('count(*)');
      await new Promise((r) => setTimeout(r, 50));
      const third = await query('count(*)');
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toBe('2');
      gone.abort();
      await heavy;
      expect((await waiting).status).toBe(200);
      expect(handle.queries.ended).toBe(ended + 1);
      expect(handle.queries.stats()).toMatchObject({ busy: 0, waiting: 0 });
    }, 20_000);

    it('refuses oversized requests with 413 before doing any work, and writes nothing', async () => {
      const long = await post(
        '/v1/data/query/production',
        JSON.stringify({ query: `*[${'_id == "x" || '.repeat(8000)}false]` }),
      );
      expect(long.status).toBe(413);
      expect((await long.json()).message).toMatch(/characters long; the lake takes up to 100,000/);
      const params = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`p${i}`, `faq-${i}`]));
      const manyParams = await post('/v1/data/query/production', JSON.stringify({ query: '*[_id == $p0]', params }));
      expect(manyParams.status).toBe(413);
      const t = Date.now();
      const many = await post(
        '/v1/data/mutate/production',
        JSON.stringify({
          mutations: Array.from({ length: 60_000 }, (_, i) => ({
            createOrReplace: { _id: `bulk-${i}`, _type: 'faqItem' },
          })),
        }),
      );
      expect(many.status).toBe(413);
      expect((await many.json()).message).toMatch(/larger than 2 MB/);
      const count = await post(
        '/v1/data/mutate/production',
        JSON.stringify({ mutations: Array.from({ length: 101 }, (_, i) => ({ delete: { id: `faq-${i}` } })) }),
      );
      expect(count.status).toBe(413);
      expect((await count.json()).message).toMatch(/101 mutations; the lake takes up to 100/);
      expect(store.get('faq-0')).not.toBeNull();
      expect(Date.now() - t).toBeLessThan(2_000);
      const huge = await post(
        '/v1/data/mutate/production',
        JSON.stringify({
          mutations: [{ create: { _id: 'big', _type: 'faqItem', text: 'x'.repeat(5 * 1024 * 1024) } }],
        }),
      );
      expect(huge.status).toBe(413);
      // Documents written: each up to 2 MB, a transaction up to 4 MB (an edit copies the published
      // document into a draft, so a small request can write much).
      const mb = (n: number) => 'x'.repeat(Math.round(n * 1024 * 1024));
      const mutate = (mutations: unknown[]) => post('/v1/data/mutate/production', JSON.stringify({ mutations }));
      for (const id of ['big1', 'big2', 'big3'])
        expect((await mutate([{ create: { _id: id, _type: 'faqItem', a: mb(1.5) } }])).status).toBe(200);
      const grow = await mutate([{ patch: { id: 'big1', set: { b: mb(0.8) } } }]);
      expect(grow.status).toBe(413);
      expect((await grow.json()).message).toMatch(/big1 would be 2\.3 MB; a document is up to 2 MB/);
      const copies = await post(
        '/v1/data/actions/production',
        JSON.stringify({
          actions: ['big1', 'big2', 'big3'].map((id) => ({
            actionType: 'sanity.action.document.edit',
            draftId: `drafts.${id}`,
            publishedId: id,
            patch: { set: { n: 1 } },
          })),
        }),
      );
      expect(copies.status).toBe(413);
      expect((await copies.json()).message).toMatch(/would write 4\.5 MB; the lake writes up to 4 MB/);
      expect(store.get('big1')?.b).toBeUndefined();
      expect(store.get('drafts.big1')).toBeNull();
      expect(store.get('bulk-0')).toBeNull();
      expect(store.get('big')).toBeNull();
    }, 20_000);

    it('drops a transaction whose client went away before it started', async () => {
      const gone = new AbortController();
      gone.abort();
      await expect(
        store.mutate([{ create: { _id: 'left', _type: 'faqItem' } }], 'editor', undefined, { signal: gone.signal }),
      ).rejects.toMatchObject({ status: 499 });
      expect(store.get('left')).toBeNull();
    });

    it('answers malformed requests 400, never 500, and changes nothing', async () => {
      const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
      const before = store.snapshotVersion;
      const cases: [string, string, string?][] = [
        ['GET', '/v1/data/query/production?query=*%5B'],
        ['GET', '/v1/data/query/production?query='],
        ['GET', '/v1/data/query/production?query=*%5B_type%20%3D%3D%20'],
        ['GET', '/v1/data/query/production?query=%7B%7D%7B'],
        ['POST', '/v1/data/query/production', '{'],
        ['POST', '/v1/data/query/production', '[]'],
        ['POST', '/v1/data/query/production', '"*"'],
        ['POST', '/v1/data/query/production', '{"query": "*[", "params": {}}'],
        ['POST', '/v1/data/query/production', '{"query": "*", "params": 5}'],
        ['POST', '/v1/data/query/production', `{"query": "*[_id == $p]", "params": {"p": ${deep(2000)}}}`],
        ['GET', '/v1/data/doc/production/faq-1%E0%A4%A'],
        ['GET', '/v1/data/doc/production/%'],
        ['GET', '/v1/data/history/production/documents/%E0%A4%A'],
        ['GET', '/v1/data/history/production/events/documents/%ZZ'],
        ['GET', '/v1/data/history/production/transactions/%E0'],
        ['GET', '/v1/users/me/keyvalue/%E0%A4%A'],
        ['GET', '/v1/data/listen/production?query=*%5B'],
        ['POST', '/v1/data/mutate/production', '{'],
        ['POST', '/v1/data/mutate/production', ''],
        ['POST', '/v1/data/mutate/production', 'null'],
        ['POST', '/v1/data/mutate/production', '{"mutations": "x"}'],
        [
          'POST',
          '/v1/data/mutate/production',
          `{"mutations": [{"create": {"_id": "deep", "_type": "faqItem", "a": ${deep(2000)}}}]}`,
        ],
        ['POST', '/v1/data/mutate/production', deep(2000)],
        ['POST', '/v1/data/actions/production', '{'],
        ['POST', '/v1/data/actions/production', '[1, 2'],
        [
          'POST',
          '/v1/data/actions/production',
          `{"actions": [{"actionType": "sanity.action.document.create", "publishedId": "deep", "attributes": {"_id": "drafts.deep", "_type": "faqItem", "a": ${deep(2000)}}}]}`,
        ],
        ['PUT', '/v1/users/me/keyvalue', '{'],
        ['PUT', '/v1/users/me/keyvalue', '"x"'],
        ['PUT', '/v1/users/me/keyvalue', '[{"key": 5, "value": 1}]'],
        ['PUT', '/v1/users/me/keyvalue', '[{"key": "a,b", "value": 1}]'],
        ['PUT', '/v1/users/me/keyvalue', '[null]'],
        ['PUT', '/v1/users/me/keyvalue', `[{"key": "k", "value": ${deep(2000)}}]`],
      ];
      const statuses: string[] = [];
      for (const [method, path, body] of cases) {
        const res = await fetch(`${base}${path}`, {
          method,
          headers: { ...auth, 'Content-Type': 'application/json' },
          ...(body !== undefined ? { body } : {}),
        });
        statuses.push(`${res.status} ${method} ${path.slice(0, 70)}`);
        if (res.status === 400) expect((await res.json()).statusCode).toBe(400);
        else await res.body?.cancel();
      }
      expect(statuses.filter((s) => !s.startsWith('400 '))).toEqual([]);
      expect(store.snapshotVersion).toBe(before);
      expect(store.get('deep')).toBeNull();
    }, 30_000);

    it('bounds listeners per editor (429), and frees a place when one closes', async () => {
      const listen = (headers: Record<string, string>, signal: AbortSignal) =>
        fetch(`${base}/v1/data/listen/production?query=*%5B_type%20%3D%3D%20%22faqItem%22%5D`, { headers, signal });
      const gone = new AbortController();
      const open = [];
      for (let i = 0; i < 5; i++) open.push(await listen(auth, gone.signal));
      expect(open.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      const sixth = await listen(auth, gone.signal);
      expect(sixth.status).toBe(429);
      expect((await sixth.json()).message).toMatch(/up to 5 listeners/);
      // Another editor is not held back by the first one's.
      const theirs = new AbortController();
      expect((await listen(other, theirs.signal)).status).toBe(200);
      theirs.abort();
      gone.abort();
      await new Promise((r) => setTimeout(r, 200));
      const again = new AbortController();
      expect((await listen(auth, again.signal)).status).toBe(200);
      again.abort();
    });

    it("keeps each editor's Studio preferences in the database, bounded, across a restart", async () => {
      const kv = (headers: Record<string, string>, keys: string) =>
        fetch(`${base}/v1/users/me/keyvalue/${keys}`, { headers }).then((r) => r.json());
      const put = (headers: Record<string, string>, body: unknown) =>
        fetch(`${base}/v1/users/me/keyvalue`, {
          method: 'PUT',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect((await put(auth, [{ key: 'studio.announcement.seen', value: ['a1'] }])).status).toBe(200);
      expect(await kv(auth, 'studio.announcement.seen,other')).toEqual([
        { key: 'studio.announcement.seen', value: ['a1'] },
        { key: 'other', value: null },
      ]);
      // Not another editor's.
      expect(await kv(other, 'studio.announcement.seen')).toEqual([{ key: 'studio.announcement.seen', value: null }]);
      // A value too large, and more keys than an editor keeps: refused, nothing written.
      expect((await put(auth, [{ key: 'big', value: 'x'.repeat(17 * 1024) }])).status).toBe(413);
      const tooMany = await put(
        auth,
        ['k1', 'k2', 'k3', 'k4'].map((key) => ({ key, value: 1 })),
      );
      expect(tooMany.status).toBe(413);
      expect(await kv(auth, 'big,k1')).toEqual([
        { key: 'big', value: null },
        { key: 'k1', value: null },
      ]);
      // A restart: a new handler over the same database still knows.
      const restarted = await start(store);
      try {
        const res = await fetch(`${restarted.url}/v1/users/me/keyvalue/studio.announcement.seen`, { headers: auth });
        expect(await res.json()).toEqual([{ key: 'studio.announcement.seen', value: ['a1'] }]);
      } finally {
        await restarted.h.close();
        await new Promise((resolve) => restarted.srv.close(resolve));
      }
    });

    it('writes one log line for a flood of refused requests, then a count', async () => {
      const fresh = await start(store);
      logged.length = 0;
      try {
        for (let i = 0; i < 40; i++)
          await (await fetch(`${fresh.url}/v1/data/query/production?query=*`)).body?.cancel();
        expect(logged.filter((l) => l.includes('not signed in'))).toHaveLength(1);
      } finally {
        await fresh.h.close();
        await new Promise((resolve) => fresh.srv.close(resolve));
      }
    });
  });
}
