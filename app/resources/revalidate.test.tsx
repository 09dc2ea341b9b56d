// @vitest-environment jsdom
/**
 * The content webhook (POST /api/revalidate) against the embedded world on a copy of the bundled
 * dataset, with the blog tag page read through Remix's router (createRemixStub) before and after.
 * The dataset file is changed on disk and not watched, so only the webhook can make the page show
 * the change. The webhook itself is called with a real Request, as Sanity calls it: it is not a
 * page, and the signature header it needs cannot be sent by a form or fetcher submission.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { useLoaderData, useRouteError } from '@remix-run/react';
import { encodeSignatureHeader } from '@sanity/webhook';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Listening } from '~/db/coordination.server';
import { installDatabase, openTestDatabase } from '~/db/test-support';
import type { Database } from '~/db/types.server';
import { followContentChanges, type ContentChange } from '~/lib/content-sync.server';
import { renderRoute } from '~/lib/route-stub.test-support';
import { loader as tagLoader } from '~/pages/blog-tag';
import { EmbeddedContentClient } from '~/sanity/embedded.server';
import { action, REPLAY_WINDOW_MS } from './revalidate';

const SECRET = 'webhook-secret-for-the-route-test';
const OLD_TITLE = 'Abu Dhabi';
const NEW_TITLE = 'Abu Dhabi (renamed)';

let dir: string;
let datasetFile: string;
let database: Database;
/** Another server copy on the same database, and the changes it was told of. */
let otherCopy: Listening;
const toldOtherCopy: ContentChange[] = [];

function TagTitle() {
  const { tag } = useLoaderData<typeof tagLoader>();
  return <h1 data-done>{tag.title}</h1>;
}

function Boundary() {
  const error = useRouteError();
  return <p data-done>error: {JSON.stringify(error) ?? String(error)}</p>;
}

const routes = [{ path: '/blog/tag/:tagSlug', loader: tagLoader, Component: TagTitle, ErrorBoundary: Boundary }];

async function tagTitle(): Promise<string | null | undefined> {
  const page = await renderRoute(routes, '/blog/tag/abu_dhabi');
  return page.querySelector('h1')?.textContent ?? page.textContent;
}

async function webhook(body: string, signature?: string) {
  const headers = new Headers({ 'Content-Type': 'application/json' });
  if (signature !== undefined) headers.set('sanity-webhook-signature', signature);
  const request = new Request('http://localhost/api/revalidate', { method: 'POST', headers, body });
  return (await action({ request, params: {}, context: {} })) as Response;
}

const change = JSON.stringify({ _type: 'blogTag', _id: 'blogTag-abu_dhabi' });

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'revalidate-route-'));
  datasetFile = path.join(dir, 'production.ndjson');
  copyFileSync('studio/dataset/production.ndjson', datasetFile);
  // The dataset's image assets are read from beside it.
  symlinkSync(path.resolve('studio/dataset/images'), path.join(dir, 'images'));
  Object.assign(process.env, {
    SANITY_WEBHOOK_SECRET: SECRET,
    SESSION_SECRET: 'route-test-session-secret-0123456789abcdef',
    CONTENT_DATASET_FILE: datasetFile,
    CONTENT_DATA_DIR: dir,
  });
  // Not watching the file: only the webhook reloads it.
  globalThis.__contentClient = new EmbeddedContentClient({ datasetFile, dataDir: dir, watch: false });
  // In a folder: jsdom's Blob cannot load the in-memory database's template.
  database = await openTestDatabase('pglite', { dataDir: dir });
  installDatabase(database);
  otherCopy = await followContentChanges(database, (changed) => toldOtherCopy.push(changed), { self: 'other-copy' });
}, 60_000);

afterAll(async () => {
  await otherCopy?.close();
  installDatabase(undefined);
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  // The page reads (and caches) the old title; then the file changes behind its back.
  const original = readFileSync('studio/dataset/production.ndjson', 'utf8');
  writeFileSync(datasetFile, original);
  await (globalThis.__contentClient as EmbeddedContentClient).reload();
  expect(await tagTitle()).toBe(OLD_TITLE);
  writeFileSync(
    datasetFile,
    original.replace(`"en":"${OLD_TITLE}","ar":"أبوظبي"`, `"en":"${NEW_TITLE}","ar":"أبوظبي"`),
  );
  expect(readFileSync(datasetFile, 'utf8')).toContain(NEW_TITLE);
}, 30_000);

describe('POST /api/revalidate', () => {
  it('a signed call reloads the content and clears the cache: the next request shows the change', async () => {
    toldOtherCopy.length = 0;
    const response = await webhook(change, await encodeSignatureHeader(change, Date.now(), SECRET));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ revalidated: 'blogTag', published: true });
    expect(await tagTitle()).toBe(NEW_TITLE);
    // The other server copies are told through the database, with the changed type only.
    await expect.poll(() => toldOtherCopy, { timeout: 10_000 }).toEqual([new Set(['blogTag'])]);
  });

  it.each([
    ['unsigned', async () => undefined],
    ['signed with another secret', async () => encodeSignatureHeader(change, Date.now(), 'not-the-secret')],
    ['signed over another body', async () => encodeSignatureHeader('{"_type":"service"}', Date.now(), SECRET)],
    ['signed too long ago', async () => encodeSignatureHeader(change, Date.now() - REPLAY_WINDOW_MS - 60_000, SECRET)],
    ['malformed signature', async () => 't=abc,v1=xyz'],
  ])('%s: 401, and the page keeps its content', async (_name, sign) => {
    toldOtherCopy.length = 0;
    const response = await webhook(change, await sign());
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'Invalid signature' });
    expect(await tagTitle()).toBe(OLD_TITLE);
    expect(toldOtherCopy).toEqual([]);
  });
});
