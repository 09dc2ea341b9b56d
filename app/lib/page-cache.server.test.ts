import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { localeCookieValue } from '~/i18n';
import { NONCE_PLACEHOLDER, RENDER_FOR_REUSE, withFreshNonce } from './csp.server';
import { EmbeddedContentClient } from '~/sanity/embedded.server';
import {
  cacheVerdict,
  followContent,
  isStorable,
  PageCache,
  withPageCache,
  type RequestHandler,
} from './page-cache.server';

const SITE = 'http://127.0.0.1:3000';
const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  new Request(`${SITE}${path}`, { method, headers });

describe('cacheVerdict: which requests may use the cache, under which key', () => {
  it('keys public pages and their single-fetch data by language, path and search', () => {
    expect(cacheVerdict(get('/'))).toEqual({ key: 'en /' });
    expect(cacheVerdict(get('/ar'))).toEqual({ key: 'ar /ar' });
    expect(cacheVerdict(get('/blog?page=2'))).toEqual({ key: 'en /blog?page=2' });
    expect(cacheVerdict(get('/ar/faq.data'))).toEqual({ key: 'ar /ar/faq.data' });
    expect(cacheVerdict(get('/_root.data?_routes=locale-en'))).toEqual({ key: 'en /_root.data?_routes=locale-en' });
    expect(cacheVerdict(get('/blog', {}, 'HEAD'))).toEqual({ key: 'en /blog' });
    // The language choice and analytics cookies do not change a page.
    expect(cacheVerdict(get('/blog', { Cookie: 'lng=ar; _ga=GA1.1.1; _ga_ABC123=GS1; _gid=x; _gcl_au=1' }))).toEqual({
      key: 'en /blog',
    });
  });

  it.each([
    ['POST', get('/faq', {}, 'POST'), 'method'],
    ['PUT', get('/faq', {}, 'PUT'), 'method'],
    ['a preview session', get('/blog', { Cookie: '__preview=abc' }), 'cookie'],
    ['a signed-in client', get('/pricing', { Cookie: 'lng=en; __client=abc' }), 'cookie'],
    ['the sign-in step', get('/', { Cookie: '__signin=abc' }), 'cookie'],
    ['an unknown cookie', get('/', { Cookie: 'session=abc' }), 'cookie'],
    ['the portal', get('/account'), 'portal'],
    ['the Arabic portal', get('/ar/account/subscription'), 'portal'],
    ['the portal data', get('/account.data'), 'portal'],
    ['checkout', get('/checkout/abc'), 'portal'],
    ['the API', get('/api/newsletter'), 'resource'],
    ['the form token', get('/api/form-token'), 'resource'],
    ['images', get('/images/p/d/file.png'), 'resource'],
    ['the sitemap', get('/sitemap.xml'), 'resource'],
    ['robots.txt', get('/robots.txt'), 'resource'],
    ['a booking confirmation', get('/ar/booking-confirmation/abc'), 'personal'],
    ['a form token in the URL', get('/about?newsletter=confirm&newsletter_form=footer&form_started=1.abc'), 'personal'],
    [
      'the English home for a visitor who chose Arabic (as the language menu writes it)',
      get('/', { Cookie: `_ga=GA1.1.1; lng=${localeCookieValue('ar')}` }),
      'language-choice',
    ],
    [
      'the English home for a visitor who chose Arabic (the value unescaped)',
      get('/', { Cookie: `lng=${decodeURIComponent(localeCookieValue('ar'))}` }),
      'language-choice',
    ],
  ])('bypasses %s', (_label, request, reason) => {
    expect(cacheVerdict(request)).toEqual({ bypass: reason });
  });
});

it('keeps the English home for a visitor who chose English', () => {
  expect(cacheVerdict(get('/', { Cookie: `lng=${localeCookieValue('en')}` }))).toEqual({ key: 'en /' });
});

describe('isStorable', () => {
  const response = (status: number, headers: Record<string, string>) => new Response('x', { status, headers });
  const publicHtml = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'public, max-age=0, s-maxage=60' };
  it('keeps only a public 200 page or data answer that sets no cookie', () => {
    expect(isStorable(response(200, publicHtml))).toBe(true);
    expect(isStorable(response(200, { ...publicHtml, 'Content-Type': 'text/x-script' }))).toBe(true);
    expect(isStorable(response(404, publicHtml))).toBe(false);
    expect(isStorable(response(500, publicHtml))).toBe(false);
    expect(isStorable(response(200, { ...publicHtml, 'Set-Cookie': 'a=b' }))).toBe(false);
    expect(isStorable(response(200, { ...publicHtml, 'Cache-Control': 'private, no-store' }))).toBe(false);
    expect(isStorable(response(200, { ...publicHtml, 'Cache-Control': 'no-store' }))).toBe(false);
    expect(isStorable(response(200, { 'Content-Type': 'text/html' }))).toBe(false);
    expect(isStorable(response(200, { ...publicHtml, 'Content-Type': 'application/json' }))).toBe(false);
  });
});

describe('PageCache: bounded, least recently used first', () => {
  const page = (bytes: number) => ({ headers: [] as [string, string][], body: Buffer.alloc(bytes, 'a') });
  const options = { maxEntries: 3, maxBytes: 1000, maxEntryBytes: 600, maxAgeMs: 60_000 };

  it('drops the least recently used page beyond the count', () => {
    const cache = new PageCache(options);
    for (const key of ['a', 'b', 'c']) cache.set(key, page(10));
    cache.get('a');
    cache.set('d', page(10));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.stats).toEqual({ entries: 3, bytes: 30 });
  });

  it('drops pages beyond the bytes and never keeps one page larger than its limit', () => {
    const cache = new PageCache(options);
    cache.set('a', page(500));
    cache.set('b', page(400));
    cache.set('c', page(300));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.stats).toEqual({ entries: 2, bytes: 700 });
    expect(cache.set('big', page(601))).toBe(false);
    expect(cache.get('big')).toBeUndefined();
    // Replacing a page counts its bytes once.
    cache.set('b', page(100));
    expect(cache.stats).toEqual({ entries: 2, bytes: 400 });
  });

  it('pages expire after the content cache age', () => {
    let now = 0;
    const cache = new PageCache({ ...options, now: () => now });
    cache.set('a', page(10));
    now = 59_999;
    expect(cache.get('a')).toBeDefined();
    now = 60_000;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.stats).toEqual({ entries: 0, bytes: 0 });
  });

  it('clear empties it, and a render begun before the clear is not stored', () => {
    const cache = new PageCache(options);
    cache.set('a', page(10));
    const before = cache.generation;
    expect(cache.clear()).toBe(1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.set('a', page(10), before)).toBe(false);
    expect(cache.set('a', page(10), cache.generation)).toBe(true);
  });
});

/**
 * A stand-in for Remix and entry.server.tsx, counting renders: a page with the nonce placeholder
 * in its policy and scripts when rendered for reuse, else with a fresh nonce of its own. `reused`
 * records which requests were rendered for reuse.
 */
function fakeRemix(answer: (request: Request) => Response = () => htmlPage('<p>Hello</p>')) {
  const reused: boolean[] = [];
  const handle = vi.fn<RequestHandler>(async (request, context) => {
    const reuse = (context as Record<symbol, unknown> | undefined)?.[RENDER_FOR_REUSE] === true;
    reused.push(reuse);
    const response = answer(request);
    if (reuse) return response;
    const fresh = withFreshNonce({ status: response.status, headers: response.headers });
    return new Response(fresh.fill(await response.text()), { status: response.status, headers: fresh.headers });
  });
  return Object.assign(handle, { reused });
}

function htmlPage(content: string, init: { status?: number; headers?: Record<string, string> } = {}) {
  const html = `<!DOCTYPE html><html><head><script nonce="${NONCE_PLACEHOLDER}">1</script></head><body>${content}<script nonce="${NONCE_PLACEHOLDER}">2</script></body></html>`;
  return new Response(html, {
    status: init.status ?? 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'public, max-age=0, s-maxage=60',
      'Content-Security-Policy': `script-src 'nonce-${NONCE_PLACEHOLDER}' 'strict-dynamic'`,
      ...init.headers,
    },
  });
}

async function nonceOf(response: Response) {
  const body = await response.text();
  const policy = response.headers.get('Content-Security-Policy') ?? '';
  const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
  const inBody = [...body.matchAll(/nonce="([^"]*)"/g)].map((m) => m[1]);
  return { body, nonce, inBody };
}

describe('withPageCache', () => {
  const cache = () => new PageCache({ maxEntries: 10, maxBytes: 1e6, maxEntryBytes: 1e5, maxAgeMs: 60_000 });

  it('renders a page once; every answer has its own nonce, in the policy and every script, never the placeholder', async () => {
    const remix = fakeRemix();
    const handle = withPageCache(remix, cache());
    const first = await handle(get('/about'));
    const second = await handle(get('/about'));
    expect(first.headers.get('X-Page-Cache')).toBe('miss');
    expect(second.headers.get('X-Page-Cache')).toBe('hit');
    expect(remix).toHaveBeenCalledTimes(1);
    const a = await nonceOf(first);
    const b = await nonceOf(second);
    for (const { body, nonce, inBody } of [a, b]) {
      expect(nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(inBody).toEqual([nonce, nonce]);
      expect(body).not.toContain(NONCE_PLACEHOLDER);
    }
    expect(a.nonce).not.toBe(b.nonce);
    expect(a.body.split(a.nonce!).join('N')).toBe(b.body.split(b.nonce!).join('N'));
  });

  it('HEAD is answered from a kept page without a body', async () => {
    const remix = fakeRemix();
    const handle = withPageCache(remix, cache());
    await (await handle(get('/about'))).text();
    const head = await handle(get('/about', {}, 'HEAD'));
    expect(head.headers.get('X-Page-Cache')).toBe('hit');
    expect(await head.text()).toBe('');
    expect(remix).toHaveBeenCalledTimes(1);
  });

  it('never reads or fills it for posts, previews and signed-in clients, and still swaps the nonce', async () => {
    const remix = fakeRemix();
    const pages = cache();
    const handle = withPageCache(remix, pages);
    for (const request of [
      get('/faq', {}, 'POST'),
      get('/faq', { Cookie: '__preview=1' }),
      get('/faq', { Cookie: '__client=1' }),
    ]) {
      const response = await handle(request);
      expect(response.headers.get('X-Page-Cache')).toBe('bypass');
      const { body, nonce, inBody } = await nonceOf(response);
      expect(inBody).toEqual([nonce, nonce]);
      expect(body).not.toContain(NONCE_PLACEHOLDER);
    }
    expect(pages.stats.entries).toBe(0);
    // Only a page that may be kept is rendered with the placeholder left in.
    expect(remix.reused).toEqual([false, false, false]);
    // A preview render is not served to a visitor afterwards either.
    expect((await handle(get('/faq'))).headers.get('X-Page-Cache')).toBe('miss');
    expect(remix).toHaveBeenCalledTimes(4);
    expect(remix.reused).toEqual([false, false, false, true]);
  });

  it('marks a passed-on answer whose headers cannot change (a redirect, a fetched response) on a copy', async () => {
    const handle = withPageCache(async () => Response.redirect('http://localhost/ar', 302), null);
    const response = await handle(get('/x'));
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('http://localhost/ar');
    expect(response.headers.get('X-Page-Cache')).toBe('bypass');
  });

  it('does not keep errors, cookies or private answers', async () => {
    const answers = [
      htmlPage('missing', { status: 404 }),
      htmlPage('cookie', { headers: { 'Set-Cookie': 'a=b' } }),
      htmlPage('private', { headers: { 'Cache-Control': 'private, no-store' } }),
    ];
    let n = 0;
    const remix = fakeRemix(() => answers[n++ % answers.length]!);
    const pages = cache();
    const handle = withPageCache(remix, pages);
    for (let i = 0; i < 3; i++) {
      const response = await handle(get('/x'));
      expect(response.headers.get('X-Page-Cache')).toBe('bypass');
      expect(await response.text()).not.toContain(NONCE_PLACEHOLDER);
    }
    expect(pages.stats.entries).toBe(0);
  });

  it('a clear (content changed) makes the next request render the new content', async () => {
    let content = 'old';
    const remix = fakeRemix(() => htmlPage(content));
    const pages = cache();
    const handle = withPageCache(remix, pages);
    expect(await (await handle(get('/blog'))).text()).toContain('old');
    content = 'new';
    expect(await (await handle(get('/blog'))).text()).toContain('old');
    pages.clear();
    const after = await handle(get('/blog'));
    expect(after.headers.get('X-Page-Cache')).toBe('miss');
    expect(await after.text()).toContain('new');
  });

  it('off (no cache): every request renders, the nonce is still fresh', async () => {
    const remix = fakeRemix();
    const handle = withPageCache(remix, null);
    const a = await handle(get('/about'));
    const b = await handle(get('/about'));
    expect([a.headers.get('X-Page-Cache'), b.headers.get('X-Page-Cache')]).toEqual(['bypass', 'bypass']);
    expect((await nonceOf(a)).nonce).not.toBe((await nonceOf(b)).nonce);
    expect(remix).toHaveBeenCalledTimes(2);
  });

  it('a browser that takes gzip gets the kept page gzipped, compressed once, each with its own nonce', async () => {
    const remix = fakeRemix(() => htmlPage('<p>مرحبا</p>'.repeat(200)));
    const pages = cache();
    const handle = withPageCache(remix, pages);
    const gzip = { 'Accept-Encoding': 'gzip, deflate, br' };
    const answers = [await handle(get('/ar', gzip)), await handle(get('/ar', gzip)), await handle(get('/ar'))];
    expect(answers.map((r) => r.headers.get('X-Page-Cache'))).toEqual(['miss', 'hit', 'hit']);
    expect(answers.map((r) => r.headers.get('Content-Encoding'))).toEqual(['gzip', 'gzip', null]);
    for (const r of answers) expect(r.headers.get('Vary')).toMatch(/Accept-Encoding/);
    const [a, b, plain] = await Promise.all(
      answers.map(async (r) => {
        const raw = Buffer.from(await r.arrayBuffer());
        expect(r.headers.get('Content-Length')).toBe(String(raw.length));
        const body = r.headers.get('Content-Encoding') ? gunzipSync(raw).toString() : raw.toString();
        const nonce = /'nonce-([^']+)'/.exec(r.headers.get('Content-Security-Policy') ?? '')?.[1];
        expect([...body.matchAll(/nonce="([^"]*)"/g)].map((m) => m[1])).toEqual([nonce, nonce]);
        expect(body).not.toContain(NONCE_PLACEHOLDER);
        return { body, nonce: nonce!, raw };
      }),
    );
    expect(new Set([a!.nonce, b!.nonce, plain!.nonce]).size).toBe(3);
    expect(a!.raw.length).toBeLessThan(plain!.raw.length / 4);
    expect(b!.body.split(b!.nonce).join('N')).toBe(plain!.body.split(plain!.nonce).join('N'));
    expect(remix).toHaveBeenCalledTimes(1);
    // The byte bound counts the compressed copy too.
    expect(pages.stats.bytes).toBeGreaterThan(plain!.raw.length);
  });

  it('leaves other answers as they are', async () => {
    const remix = fakeRemix(() => new Response('{"a":1}', { headers: { 'Content-Type': 'application/json' } }));
    const response = await withPageCache(remix, cache())(get('/api/newsletter', {}, 'POST'));
    expect(await response.text()).toBe('{"a":1}');
  });
});

describe('followContent: what empties the page cache', () => {
  it("the server's own private writes keep the pages; a content reload empties them", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'page-cache-content-'));
    const client = new EmbeddedContentClient({
      datasetFile: path.resolve('studio/dataset/production.ndjson'),
      dataDir,
    });
    try {
      await client.whenReady();
      const cache = new PageCache({ maxEntries: 3, maxBytes: 1000, maxEntryBytes: 600, maxAgeMs: 60_000 });
      const stop = followContent(cache, client);
      cache.set('/about', { headers: [], body: Buffer.from('<p>about</p>') });
      // Private writes of the server itself (ids with a period), made while visitors browse.
      await client.create({ _id: 'test.private.t1', _type: 'test.private' });
      await client.createIfNotExists({ _id: 'test.private.a1', _type: 'test.private' });
      await client.mutate([{ createOrReplace: { _id: 'test.private.m1', _type: 'test.private' } }]);
      expect(cache.get('/about')).toBeDefined();
      // The content itself changed (what a webhook or the file watcher does).
      expect(await client.reload()).toBe(true);
      expect(cache.get('/about')).toBeUndefined();
      stop();
    } finally {
      client.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
