import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddedContentClient } from './embedded.server';
import { isConflict, type PrivateDocument } from './types';

let dir: string;
const open = async () => {
  const client = new EmbeddedContentClient({ datasetFile: path.join(dir, 'dataset.ndjson'), dataDir: path.join(dir, 'data') });
  await client.whenReady();
  return client;
};
const doc = (id: string, extra: Record<string, unknown> = {}) => ({ _id: id, _type: 'test.item', ...extra }) as PrivateDocument;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'store-'));
  await writeFile(path.join(dir, 'dataset.ndjson'), '{"_id":"a","_type":"page"}\n');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the embedded private store: atomic, durable, revision-checked transactions', () => {
  it('creates, patches with a revision check, deletes, and keeps all of it across a restart', async () => {
    const store = await open();
    await store.mutate([{ create: doc('t.1', { n: 1, note: 'x' }) }]);
    const first = await store.getDocument<{ _id: string; _type: string; n: number }>('t.1');
    expect(first).toMatchObject({ n: 1, _rev: expect.any(String), _createdAt: expect.any(String) });
    await store.mutate([{ patch: { id: 't.1', ifRevisionID: first!._rev, set: { n: 2 }, unset: ['note'] } }]);
    const second = await store.getDocument('t.1');
    expect(second).toMatchObject({ n: 2 });
    expect(second).not.toHaveProperty('note');
    expect(second!._rev).not.toBe(first!._rev);
    expect(second!._createdAt).toBe(first!._createdAt);
    // A stale revision: refused, nothing changes.
    await expect(store.mutate([{ patch: { id: 't.1', ifRevisionID: first!._rev, set: { n: 99 } } }])).rejects.toSatisfy(isConflict);
    await store.mutate([{ create: doc('t.2') }, { delete: { id: 't.2' } }, { create: doc('t.3') }]);
    await store.mutate([{ delete: { id: 't.3' } }]);
    const again = await open();
    expect(await again.getDocument('t.1')).toMatchObject({ n: 2, _rev: second!._rev });
    expect(await again.getDocument('t.2')).toBeNull();
    expect(await again.getDocument('t.3')).toBeNull();
    expect(await again.queryPrivate('*[_type == "test.item"]._id')).toEqual(['t.1']);
  });

  it('a transaction applies whole or not at all: one failed condition leaves everything as it was', async () => {
    const store = await open();
    await store.mutate([{ create: doc('t.taken') }]);
    await expect(store.mutate([{ create: doc('t.new') }, { create: doc('t.taken') }])).rejects.toSatisfy(isConflict);
    expect(await store.getDocument('t.new')).toBeNull();
    await expect(store.mutate([{ create: doc('t.other') }, { patch: { id: 't.missing', set: { x: 1 } } }])).rejects.toSatisfy(isConflict);
    expect(await store.getDocument('t.other')).toBeNull();
    expect((await open()).getDocument('t.new')).resolves.toBeNull();
  });

  it('of 20 concurrent writes conditional on the same revision, exactly one lands', async () => {
    const store = await open();
    await store.mutate([{ create: doc('t.counter', { n: 0 }) }]);
    const { _rev } = (await store.getDocument('t.counter'))!;
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => store.mutate([{ patch: { id: 't.counter', ifRevisionID: _rev, set: { n: i + 1 } } }])));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected' && isConflict(r.reason))).toHaveLength(19);
  });

  it('after a crash mid-write (a torn last line), the log loads everything before it and none of the torn transaction', async () => {
    const store = await open();
    await store.mutate([{ create: doc('t.before', { n: 1 }) }]);
    const log = path.join(dir, 'data', 'content-writes.ndjson');
    const whole = JSON.stringify({ _tx: 'x', docs: [{ _id: 't.torn1', _type: 'test.item' }, { _id: 't.torn2', _type: 'test.item' }], deleted: ['t.before'] });
    await appendFile(log, whole.slice(0, whole.length / 2));
    const messages: string[] = [];
    const after = new EmbeddedContentClient({ datasetFile: path.join(dir, 'dataset.ndjson'), dataDir: path.join(dir, 'data'), log: (m) => messages.push(m) });
    await after.whenReady();
    expect(await after.getDocument('t.before')).toMatchObject({ n: 1 });
    expect(await after.getDocument('t.torn1')).toBeNull();
    expect(await after.getDocument('t.torn2')).toBeNull();
    expect(messages.join('\n')).toMatch(/incomplete line/);
    // The fragment is gone from the file, so the next write is a whole line of its own and survives a restart.
    await after.mutate([{ create: doc('t.next') }]);
    expect((await readFile(log, 'utf8')).split('\n').filter(Boolean).every((line) => JSON.parse(line))).toBe(true);
    expect(await (await open()).getDocument('t.next')).not.toBeNull();
  });

  it('only private documents can be written', async () => {
    const store = await open();
    await expect(store.mutate([{ create: { _id: 'public', _type: 'x' } as unknown as PrivateDocument }])).rejects.toThrow(/private/);
  });
});
