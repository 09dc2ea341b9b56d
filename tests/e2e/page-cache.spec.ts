import { expect, test } from '@playwright/test';
import { encodeSignatureHeader } from '@sanity/webhook';
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { hydrated } from './helpers';
import { kill, startOwnServer, type OwnServer } from './own-server';

/**
 * The rendered-page cache (ADR 0010) on a server of its own with its own copy of the dataset:
 * anonymous pages are rendered once and served again with a fresh nonce; a signed webhook
 * makes the next request show the change; previews, signed-in clients and posts never read
 * or fill it.
 */
const PORT = Number(process.env.E2E_PORT ?? 3210) + 150;
const DIR = `.cache/e2e/page-cache-${PORT}`;
const WEBHOOK_SECRET = 'page-cache-webhook-secret';
const PREVIEW_SECRET = 'page-cache-preview-secret-0123';
const OLD = 'We help ambitious companies enter, establish and grow in the UAE';
const NEW = 'Changed for the page cache test';

let server: OwnServer;

test.describe.configure({ mode: 'serial' });
test.skip(({ viewport }) => (viewport?.width ?? 0) < 768, 'one browser is enough');

test.beforeAll(async () => {
  execFileSync(process.execPath, ['tests/e2e/prepare.mjs', DIR, '--with-dataset'], { stdio: 'ignore' });
  server = await startOwnServer(PORT, DIR, {
    NODE_ENV: 'production',
    CONTENT_DATASET_FILE: `${DIR}/production.ndjson`,
    SANITY_WEBHOOK_SECRET: WEBHOOK_SECRET,
    PREVIEW_SECRET,
  });
});

test.afterAll(async () => {
  if (server) await kill(server);
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.base}${path}`, { headers, redirect: 'manual' });

/** The response's nonce (from its policy), its body, and the nonces its scripts carry. */
async function read(response: Response) {
  const body = await response.text();
  const nonce = /'nonce-([A-Za-z0-9_-]+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1];
  const scriptNonces = new Set([...body.matchAll(/<(?:script|link)[^>]* nonce="([^"]*)"/g)].map((m) => m[1]));
  return { state: response.headers.get('x-page-cache'), body, nonce, scriptNonces };
}

test('a second anonymous request is served from the cache: the same page, its own valid nonce', async () => {
  for (const path of ['/about', '/ar/faq', '/blog']) {
    const first = await read(await get(path));
    const second = await read(await get(path));
    expect([first.state, second.state], path).toEqual(['miss', 'hit']);
    for (const answer of [first, second]) {
      expect(answer.nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect([...answer.scriptNonces]).toEqual([answer.nonce]);
    }
    expect(first.nonce).not.toBe(second.nonce);
    expect(second.body.split(second.nonce!).join('NONCE')).toBe(first.body.split(first.nonce!).join('NONCE'));
  }
  // Single-fetch data of a page is kept too.
  const data = await get('/blog.data');
  await data.arrayBuffer();
  expect((await get('/blog.data')).headers.get('x-page-cache')).toBe('hit');
});

test('a page carries its render time as the page token of its forms, the same for every visitor it is served to', async () => {
  const first = await (await get('/faq')).text();
  const token = /name="form_started" value="(\d+\.p\.[A-Za-z0-9_-]{43})"/.exec(first)?.[1];
  expect(token).toBeTruthy();
  expect((await (await get('/faq')).text()).match(/name="form_started" value="([^"]*)"/g)).toEqual(
    first.match(/name="form_started" value="([^"]*)"/g),
  );
  // The visitor token endpoint still answers (tabs running an earlier page's scripts ask it).
  const issued = await get('/api/form-token');
  expect(issued.headers.get('cache-control')).toBe('no-store');
  expect(issued.headers.get('x-page-cache')).toBe('bypass');
  expect((await issued.json()).token).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
});

test('a cached page runs its scripts under the policy (hydrates, no CSP violation)', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await get('/services').then((r) => r.text());
  const response = await page.goto(`${server.base}/services`);
  expect(response?.headers()['x-page-cache']).toBe('hit');
  await hydrated(page);
  expect(violations).toEqual([]);
});

test('a signed webhook makes the next request show the new content', async () => {
  const file = `${DIR}/production.ndjson`;
  const home = async () => {
    const response = await get('/');
    const html = await response.text();
    return {
      state: response.headers.get('x-page-cache'),
      text: html.includes(NEW) ? 'new' : html.includes(OLD) ? 'old' : 'none',
    };
  };
  await home();
  expect(await home()).toEqual({ state: 'hit', text: 'old' });
  await writeFile(file, (await readFile(file, 'utf8')).replace(OLD, NEW));
  const body = JSON.stringify({ _id: 'siteSettings', _type: 'siteSettings' });
  const signature = await encodeSignatureHeader(body, Date.now(), WEBHOOK_SECRET);
  const hook = await fetch(`${server.base}/api/revalidate`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'sanity-webhook-signature': signature },
  });
  expect(hook.status).toBe(200);
  expect(await home()).toEqual({ state: 'miss', text: 'new' });
  expect(await home()).toEqual({ state: 'hit', text: 'new' });
});

test('preview sessions and signed-in clients never read or fill the cache', async () => {
  const enter = await get(`/api/preview?secret=${PREVIEW_SECRET}&redirect=/pricing`);
  const previewCookie = (enter.headers.get('set-cookie') ?? '').split(';')[0]!;
  expect(previewCookie).toMatch(/^__preview=/);
  for (const cookie of [previewCookie, '__client=someone', `lng=en; ${previewCookie}`]) {
    const response = await get('/pricing', { Cookie: cookie });
    await response.arrayBuffer();
    expect(response.headers.get('x-page-cache'), cookie).toBe('bypass');
  }
  const preview = await get('/pricing', { Cookie: previewCookie });
  expect(preview.headers.get('cache-control')).toBe('private, no-store');
  await preview.arrayBuffer();
  // None of them filled it: the first anonymous request renders; then it is kept.
  expect((await get('/pricing').then(async (r) => (await r.arrayBuffer(), r))).headers.get('x-page-cache')).toBe(
    'miss',
  );
  expect((await get('/pricing').then(async (r) => (await r.arrayBuffer(), r))).headers.get('x-page-cache')).toBe('hit');
  // And none of them reads it.
  for (const cookie of [previewCookie, '__client=someone'])
    expect((await get('/pricing', { Cookie: cookie })).headers.get('x-page-cache')).toBe('bypass');
});

test('posts are never cached', async () => {
  for (let i = 0; i < 2; i++) {
    const response = await fetch(`${server.base}/faq`, {
      method: 'POST',
      body: new URLSearchParams({ name: '' }),
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-page-cache')).toBe('bypass');
    // The answer carries a token for the next try.
    expect(await response.text()).toMatch(/name="form_started" value="\d+\./);
  }
});
