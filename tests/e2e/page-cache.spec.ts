import { expect, test } from '@playwright/test';
import { encodeSignatureHeader } from '@sanity/webhook';
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import type http from 'node:http';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { hydrated, rawGet } from './helpers';
import { kill, startOwnServer, type OwnServer } from './own-server';

/**
 * The rendered-page cache (ADR 0010) on a server of its own with its own copy of the dataset:
 * anonymous pages are rendered once and served again as they were kept (ADR 0023: the same
 * bytes and policy, in the form the browser takes, with an ETag and 304); a signed webhook makes
 * the next request show the change; previews, signed-in clients and posts never read or fill it.
 */
const PORT = Number(process.env.E2E_PORT ?? 3210) + 150;
const DIR = `.cache/e2e/page-cache-${PORT}`;
const WEBHOOK_SECRET = 'page-cache-webhook-secret';
const PREVIEW_SECRET = 'page-cache-preview-secret-0123';
const OLD = 'We help ambitious companies enter, establish and grow in the UAE';
const NEW = 'Changed for the page cache test';

let server: OwnServer;

test.describe.configure({ mode: 'serial' });

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

const raw = (path: string, headers: Record<string, string> = {}) => rawGet(`${server.base}${path}`, headers);

const decoded = (answer: { headers: http.IncomingHttpHeaders; body: Buffer }) =>
  answer.headers['content-encoding'] === 'br'
    ? brotliDecompressSync(answer.body)
    : answer.headers['content-encoding'] === 'gzip'
      ? gunzipSync(answer.body)
      : answer.body;

test('a second anonymous request is served from the cache: the same bytes and policy', async () => {
  for (const path of ['/about', '/ar/faq', '/blog']) {
    const first = await raw(path);
    const second = await raw(path);
    expect([first.headers['x-page-cache'], second.headers['x-page-cache']], path).toEqual(['miss', 'hit']);
    expect(second.body.equals(first.body), path).toBe(true);
    expect(second.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
    expect(first.headers['content-security-policy']).toMatch(/script-src 'sha256-[^;]*'strict-dynamic'/);
  }
  // Single-fetch data of a page is kept too.
  const data = await get('/blog.data');
  await data.arrayBuffer();
  expect((await get('/blog.data')).headers.get('x-page-cache')).toBe('hit');
});

test('a kept page is sent in the form the browser takes, each with its own ETag, and a revalidation gets 304', async () => {
  const plain = await raw('/ar/services', { 'accept-encoding': 'identity' });
  await raw('/ar/services');
  const forms = new Map<string, { headers: http.IncomingHttpHeaders; body: Buffer }>();
  // Brotli is made after the page is stored, off the request path: it appears shortly after.
  await expect
    .poll(
      async () => (await raw('/ar/services', { 'accept-encoding': 'gzip, deflate, br' })).headers['content-encoding'],
    )
    .toBe('br');
  for (const accept of ['gzip, deflate, br', 'gzip', 'identity']) {
    const answer = await raw('/ar/services', { 'accept-encoding': accept });
    expect(answer.headers['x-page-cache']).toBe('hit');
    expect(answer.headers.vary).toMatch(/Accept-Encoding/);
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(decoded(answer).equals(plain.body)).toBe(true);
    forms.set(answer.headers['content-encoding'] ?? 'identity', answer);
  }
  expect([...forms.keys()]).toEqual(['br', 'gzip', 'identity']);
  expect(forms.get('br')!.body.length).toBeLessThan(forms.get('gzip')!.body.length);
  expect(new Set([...forms.values()].map((f) => f.headers.etag)).size).toBe(3);
  const tag = forms.get('gzip')!.headers.etag!;
  const again = await raw('/ar/services', { 'accept-encoding': 'gzip', 'if-none-match': tag });
  expect(again.status).toBe(304);
  expect(again.body.length).toBe(0);
  expect(again.headers.etag).toBe(tag);
  expect(again.headers['cache-control']).toMatch(/public/);
  expect((await raw('/ar/services', { 'if-none-match': '"something-else"' })).status).toBe(200);
});

test("the build's scripts and stylesheet go out as the copies compressed once at brotli's best, in the form the browser takes", async () => {
  const page = await (await get('/ar')).text();
  const files = [...page.matchAll(/<link rel="(?:modulepreload|stylesheet)" href="(\/build\/[^"]+)"/g)].map(
    (m) => m[1],
  );
  expect(files.length).toBeGreaterThan(3);
  for (const file of new Set(files)) {
    const plain = await raw(file, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding'], file).toBeUndefined();
    const best = brotliCompressSync(plain.body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: plain.body.length },
    });
    for (const [accept, coding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ]) {
      const answer = await raw(file, { 'accept-encoding': accept });
      expect(answer.headers['content-encoding'], file).toBe(coding);
      expect(answer.headers.vary, file).toMatch(/Accept-Encoding/);
      expect(answer.headers['cache-control'], file).toBe('public, max-age=31536000, immutable');
      expect(answer.headers['content-type'], file).toMatch(file.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
      expect(decoded(answer).equals(plain.body), file).toBe(true);
      // Compressed per request (quality 4), the same file is about 14% larger.
      if (coding === 'br') expect(answer.body.length, file).toBeLessThanOrEqual(best.length);
    }
  }
});

test('a path under the build that does not decode is refused as anywhere else on the site, and none reaches a file outside it', async () => {
  const elsewhere = await raw('/%E0%A4%A', { 'accept-encoding': 'identity' });
  const built = await raw('/build/%E0%A4%A', { 'accept-encoding': 'identity' });
  expect([elsewhere.status, built.status]).toEqual([400, 400]);
  expect(built.body.toString()).toBe(elsewhere.body.toString());
  for (const path of ['/build/..%2f..%2fpackage.json', '/build/_shared/..%2F..%2F..%2Fpackage.json']) {
    const answer = await raw(path, { 'accept-encoding': 'identity' });
    expect(answer.status, path).toBe(404);
    expect(answer.body.toString(), path).not.toContain('"dependencies"');
  }
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
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) =>
      console.log(`Content Security Policy: ${e.violatedDirective}`),
    ),
  );
  await get('/services').then((r) => r.text());
  const response = await page.goto(`${server.base}/services`);
  expect(response?.headers()['x-page-cache']).toBe('hit');
  await hydrated(page);
  // The language menu opens: its scripts run.
  await page.getByRole('button', { name: /Language/ }).click();
  await expect(page.getByRole('menu')).toBeVisible();
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

// Issue 40, item 4: random query strings were a render each and emptied the cache; any unknown
// cookie skipped it.
test('tracking parameters and cookies that change nothing are served the kept page; a storm of other misses leaves the popular pages kept', async () => {
  const popular = ['/services', '/ar/services', '/pricing', '/ar/pricing'];
  const state = async (path: string, headers: Record<string, string> = {}) => {
    const response = await get(path, headers);
    await response.arrayBuffer();
    return response.headers.get('x-page-cache');
  };
  for (const path of popular) {
    await state(path);
    expect(await state(path), path).toBe('hit');
  }
  const kept = await raw('/pricing', { 'accept-encoding': 'identity' });
  for (let i = 0; i < 20; i++) {
    const tag = Math.random().toString(36).slice(2);
    expect(await state(`/pricing?utm_x=${tag}`), tag).toBe('hit');
    expect(await state(`/ar/services?utm_source=mail&gclid=${tag}&fbclid=${tag}`)).toBe('hit');
    expect(await state('/pricing', { Cookie: `_fbp=fb.1.${tag}; consent=${tag}; lng=en` })).toBe('hit');
  }
  // The very bytes of the kept page, whoever asks.
  const tagged = await raw('/pricing?utm_campaign=launch', { 'accept-encoding': 'identity', cookie: 'session=x' });
  expect(tagged.body.equals(kept.body)).toBe(true);
  // Addresses that are pages of their own, each asked for once: a render each, and the popular
  // pages stay kept.
  for (let i = 0; i < 60; i++) expect(await state(`/about?x=${i}-${Math.random()}`)).toBe('miss');
  for (const path of popular) expect(await state(path), path).toBe('hit');
});

test('the page kept for a tagged address hydrates there without an error, and its analytics still see the tags', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await get('/ar/faq').then((r) => r.text());
  const response = await page.goto(`${server.base}/ar/faq?utm_source=mail&utm_campaign=launch`);
  expect(response?.headers()['x-page-cache']).toBe('hit');
  await hydrated(page);
  await page.getByRole('button', { name: /اللغة|Language/ }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  expect(await page.evaluate(() => location.search)).toBe('?utm_source=mail&utm_campaign=launch');
  expect(errors).toEqual([]);
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
