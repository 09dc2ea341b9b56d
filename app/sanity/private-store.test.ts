import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLake } from '../../tests/fake-lake.mjs';
import { EmbeddedContentClient } from './embedded.server';
import { HostedContentClient } from './hosted.server';
import { isConflict, type ContentClient, type PrivateDocument } from './types';

/**
 * The private store's contract (types.ts: PrivateStore and Mutation), run against both adapters:
 * the embedded one (fsync'd write log) and the hosted one (@sanity/client with the write token)
 * against tests/fake-lake.mjs, the local stand-in for the Content Lake's mutate and doc endpoints.
 * `open()` gives a new client over the same stored state (embedded: a restart on the same folder;
 * hosted: another server process reading the same dataset).
 */
const doc = (id: string, extra: Record<string, unknown> = {}) =>
  ({ _id: id, _type: 'test.item', ...extra }) as PrivateDocument;
type Item = { _id: string; _type: string; n: number; note?: string };

function privateStoreContract(name: string, setup: () => { open: () => Promise<ContentClient> }) {
  describe(`the ${name} private store: atomic, revision-checked transactions`, () => {
    const world = setup();
    const open = () => world.open();

    it('creates, patches with a revision check, deletes, and another client sees all of it', async () => {
      const store = await open();
      await store.mutate([{ create: doc('t.1', { n: 1, note: 'x' }) }]);
      const first = await store.getDocument<Item>('t.1');
      expect(first).toMatchObject({
        n: 1,
        note: 'x',
        _rev: expect.any(String),
        _createdAt: expect.any(String),
        _updatedAt: expect.any(String),
      });
      await store.mutate([{ patch: { id: 't.1', ifRevisionID: first!._rev, set: { n: 2 }, unset: ['note'] } }]);
      const second = await store.getDocument<Item>('t.1');
      expect(second).toMatchObject({ n: 2 });
      expect(second).not.toHaveProperty('note');
      expect(second!._rev).not.toBe(first!._rev);
      expect(second!._createdAt).toBe(first!._createdAt);
      // A stale revision: refused, nothing changes.
      await expect(
        store.mutate([{ patch: { id: 't.1', ifRevisionID: first!._rev, set: { n: 99 } } }]),
      ).rejects.toSatisfy(isConflict);
      expect(await store.getDocument('t.1')).toMatchObject({ n: 2, _rev: second!._rev });
      await store.mutate([{ create: doc('t.2') }, { delete: { id: 't.2' } }, { create: doc('t.3') }]);
      await store.mutate([{ delete: { id: 't.3' } }]);
      // Deleting what is not there is a no-op.
      await store.mutate([{ delete: { id: 't.never' } }]);
      const again = await open();
      expect(await again.getDocument('t.1')).toMatchObject({ n: 2, _rev: second!._rev });
      expect(await again.getDocument('t.2')).toBeNull();
      expect(await again.getDocument('t.3')).toBeNull();
      expect(await again.queryPrivate('*[_type == "test.item"]._id')).toEqual(['t.1']);
    });

    it('create fails on an existing id; createIfNotExists is then a no-op; createOrReplace replaces', async () => {
      const store = await open();
      await store.mutate([{ create: doc('t.once', { n: 1 }) }]);
      const { _rev, _createdAt } = (await store.getDocument('t.once'))!;
      await expect(store.mutate([{ create: doc('t.once', { n: 2 }) }])).rejects.toSatisfy(isConflict);
      await store.mutate([{ createIfNotExists: doc('t.once', { n: 3 }) }]);
      expect(await store.getDocument('t.once')).toMatchObject({ n: 1, _rev });
      await store.mutate([{ createIfNotExists: doc('t.fresh', { n: 4 }) }]);
      expect(await store.getDocument('t.fresh')).toMatchObject({ n: 4 });
      await store.mutate([{ createOrReplace: doc('t.once', { note: 'replaced' }) }]);
      const replaced = await store.getDocument('t.once');
      expect(replaced).toMatchObject({ note: 'replaced', _createdAt });
      expect(replaced).not.toHaveProperty('n');
      expect(replaced!._rev).not.toBe(_rev);
    });

    it('a transaction applies whole or not at all: one failed condition leaves everything as it was', async () => {
      const store = await open();
      await store.mutate([{ create: doc('t.taken', { n: 1 }) }]);
      const { _rev } = (await store.getDocument('t.taken'))!;
      await expect(store.mutate([{ create: doc('t.new') }, { create: doc('t.taken') }])).rejects.toSatisfy(isConflict);
      expect(await store.getDocument('t.new')).toBeNull();
      await expect(
        store.mutate([{ create: doc('t.other') }, { patch: { id: 't.missing', set: { n: 1 } } }]),
      ).rejects.toSatisfy(isConflict);
      expect(await store.getDocument('t.other')).toBeNull();
      await expect(
        store.mutate([
          { patch: { id: 't.taken', ifRevisionID: _rev, set: { n: 2 } } },
          { delete: { id: 't.taken' } },
          { create: doc('t.taken', { n: 3 }) },
          { patch: { id: 't.taken', ifRevisionID: 'stale', set: { n: 4 } } },
        ]),
      ).rejects.toSatisfy(isConflict);
      expect(await store.getDocument('t.taken')).toMatchObject({ n: 1, _rev });
      expect(await (await open()).getDocument('t.new')).toBeNull();
    });

    it('mutations see the ones before them in the same transaction, and share one new revision', async () => {
      const store = await open();
      await store.mutate([
        { create: doc('t.a', { n: 1 }) },
        { patch: { id: 't.a', set: { n: 2 } } },
        { create: doc('t.b', { n: 1 }) },
      ]);
      const [a, b] = [await store.getDocument<Item>('t.a'), await store.getDocument<Item>('t.b')];
      expect(a!.n).toBe(2);
      expect(a!._rev).toBe(b!._rev);
    });

    it('of 20 concurrent writes conditional on the same revision, exactly one lands', async () => {
      const store = await open();
      await store.mutate([{ create: doc('t.counter', { n: 0 }) }]);
      const { _rev } = (await store.getDocument('t.counter'))!;
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          store.mutate([{ patch: { id: 't.counter', ifRevisionID: _rev, set: { n: i + 1 } } }]),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'rejected' && isConflict(r.reason))).toHaveLength(19);
      const winner = results.findIndex((r) => r.status === 'fulfilled');
      expect(await store.getDocument('t.counter')).toMatchObject({ n: winner + 1 });
    });

    it('concurrent read-then-conditional-write loops lose no update', async () => {
      const store = await open();
      await store.mutate([{ create: doc('t.tally', { n: 0 }) }]);
      let conflicts = 0;
      const add = async (store: ContentClient, times: number) => {
        for (let i = 0; i < times; i++) {
          for (;;) {
            const current = (await store.getDocument<Item>('t.tally'))!;
            try {
              await store.mutate([{ patch: { id: 't.tally', ifRevisionID: current._rev, set: { n: current.n + 1 } } }]);
              break;
            } catch (error) {
              if (!isConflict(error)) throw error;
              conflicts++;
            }
          }
        }
      };
      await Promise.all([add(store, 15), add(store, 15), add(store, 15)]);
      expect(await (await open()).getDocument('t.tally')).toMatchObject({ n: 45 });
      expect(conflicts).toBeGreaterThan(0);
    });

    it('only private documents can be written', async () => {
      const store = await open();
      await expect(
        store.mutate([{ create: { _id: 'public', _type: 'x' } as unknown as PrivateDocument }]),
      ).rejects.toThrow(/private/);
      await expect(
        store.mutate([{ createIfNotExists: { _id: 'drafts.x', _type: 'x' } as unknown as PrivateDocument }]),
      ).rejects.toThrow(/private/);
    });
  });
}

// ------------------------------------------------------------------------------ embedded

let dir: string;
const openEmbedded = async (log?: (m: string) => void) => {
  const client = new EmbeddedContentClient({
    datasetFile: path.join(dir, 'dataset.ndjson'),
    dataDir: path.join(dir, 'data'),
    log,
  });
  await client.whenReady();
  return client;
};

describe('embedded', () => {
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'store-'));
    await writeFile(path.join(dir, 'dataset.ndjson'), '{"_id":"a","_type":"page"}\n');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  privateStoreContract('embedded', () => ({ open: () => openEmbedded() }));

  it('after a crash mid-write (a torn last line), the log loads everything before it and none of the torn transaction', async () => {
    const store = await openEmbedded();
    await store.mutate([{ create: doc('t.before', { n: 1 }) }]);
    const log = path.join(dir, 'data', 'content-writes.ndjson');
    const whole = JSON.stringify({
      _tx: 'x',
      docs: [
        { _id: 't.torn1', _type: 'test.item' },
        { _id: 't.torn2', _type: 'test.item' },
      ],
      deleted: ['t.before'],
    });
    await appendFile(log, whole.slice(0, whole.length / 2));
    const messages: string[] = [];
    const after = await openEmbedded((m) => messages.push(m));
    expect(await after.getDocument('t.before')).toMatchObject({ n: 1 });
    expect(await after.getDocument('t.torn1')).toBeNull();
    expect(await after.getDocument('t.torn2')).toBeNull();
    expect(messages.join('\n')).toMatch(/incomplete line/);
    // The fragment is gone from the file, so the next write is a whole line of its own and survives a restart.
    await after.mutate([{ create: doc('t.next') }]);
    expect(
      (await readFile(log, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .every((line) => JSON.parse(line)),
    ).toBe(true);
    expect(await (await openEmbedded()).getDocument('t.next')).not.toBeNull();
  });
});

// ------------------------------------------------------------------------------ hosted

const READ_TOKEN = 'contract-read-token';
const WRITE_TOKEN = 'contract-write-token';
let lake: Awaited<ReturnType<typeof startFakeLake>>;
const openHosted = async (
  tokens: { readToken?: string; writeToken?: string } = { readToken: READ_TOKEN, writeToken: WRITE_TOKEN },
) =>
  new HostedContentClient({
    projectId: 'fake',
    dataset: 'production',
    apiVersion: '2025-02-19',
    apiHost: lake.url,
    ...tokens,
  });

describe('hosted, against the fake Content Lake', () => {
  beforeEach(async () => {
    lake = await startFakeLake({
      documents: [{ _id: 'a', _type: 'page', title: 'Public' }],
      token: READ_TOKEN,
      writeToken: WRITE_TOKEN,
    });
  });
  afterEach(() => lake.close());

  privateStoreContract('hosted', () => ({ open: () => openHosted() }));

  it('writes go through the mutate endpoint with the write token; private documents stay out of public reads', async () => {
    const store = await openHosted();
    await store.mutate([{ create: doc('portal.test.1', { n: 1 }) }]);
    expect(lake.writes.at(-1)).toMatchObject({ status: 200, mutations: 1 });
    // The Content Lake gives the transaction id as the new revision.
    expect((await store.getDocument('portal.test.1'))!._rev).toBe(lake.writes.at(-1)!.transactionId);
    // Public (CDN, no token) reads never see a private document; the read token does.
    expect(await store.fetch('*[_type in ["page", "test.item"]]._id', {}, { perspective: 'published' })).toEqual(['a']);
    expect(await store.queryPrivate('*[_type == "test.item"]._id')).toEqual(['portal.test.1']);
    const reader = await fetch(`${lake.url}/v2025-02-19/data/doc/production/portal.test.1,a`);
    expect(await reader.json()).toMatchObject({
      documents: [{ _id: 'a' }],
      omitted: [{ id: 'portal.test.1', reason: 'permission' }],
    });
  });

  it('the fake refuses writes without the write token, and answers Sanity’s error envelope on a failed condition', async () => {
    const mutate = (token: string | null, body: unknown) =>
      fetch(`${lake.url}/v2025-02-19/data/mutate/production?returnIds=true&visibility=sync`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    const create = { mutations: [{ create: doc('portal.test.2', { n: 1 }) }] };
    expect((await mutate(null, create)).status).toBe(401);
    expect((await mutate('wrong', create)).status).toBe(401);
    expect((await mutate(READ_TOKEN, create)).status).toBe(403);
    const ok = await mutate(WRITE_TOKEN, { ...create, transactionId: 'tx-contract-1' });
    expect(await ok.json()).toEqual({
      transactionId: 'tx-contract-1',
      results: [{ id: 'portal.test.2', operation: 'create' }],
      documentIds: ['portal.test.2'],
    });
    const again = await mutate(WRITE_TOKEN, create);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({
      error: {
        type: 'mutationError',
        items: [{ index: 0, error: { type: 'documentAlreadyExistsError', id: 'portal.test.2' } }],
      },
    });
    const stale = await mutate(WRITE_TOKEN, {
      mutations: [{ patch: { id: 'portal.test.2', ifRevisionID: 'old', inc: { n: 1 } } }],
    });
    expect(stale.status).toBe(409);
    // setIfMissing, inc and dec on attribute paths; a transaction id may be used once.
    const patched = await mutate(WRITE_TOKEN, {
      mutations: [
        {
          patch: {
            id: 'portal.test.2',
            ifRevisionID: 'tx-contract-1',
            inc: { n: 4 },
            dec: { n: 1 },
            setIfMissing: { 'meta.tries': 3, n: 100 },
          },
        },
      ],
    });
    expect(patched.status).toBe(200);
    expect(lake.documents.find((d) => d._id === 'portal.test.2')).toMatchObject({ n: 4, meta: { tries: 3 } });
    expect(
      (await mutate(WRITE_TOKEN, { mutations: [{ delete: { id: 'portal.test.2' } }], transactionId: 'tx-contract-1' }))
        .status,
    ).toBe(409);
    expect(lake.documents.some((d) => d._id === 'portal.test.2')).toBe(true);
  });

  it('without a write token the hosted client neither reads nor writes private documents', async () => {
    const store = await openHosted({ readToken: READ_TOKEN });
    await expect(store.mutate([{ create: doc('portal.test.3') }])).rejects.toThrow(/SANITY_WRITE_TOKEN/);
    await expect(store.getDocument('portal.test.3')).rejects.toThrow(/SANITY_WRITE_TOKEN/);
  });
});
