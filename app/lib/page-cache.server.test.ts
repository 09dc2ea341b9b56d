import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { localeCookieValue } from '~/i18n';
import { contentSecurityPolicy, inlineScriptHashes } from './csp.server';
import { EmbeddedContentClient } from '~/sanity/embedded.server';
import {
  cacheVerdict,
  followContent,
  isStorable,
  PageCache,
  preparedAnswer,
  preparePage,
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
    // The language choice and analytics cookies do not change a page: the page is rendered without them.
    expect(cacheVerdict(get('/blog', { Cookie: 'lng=ar; _ga=GA1.1.1; _ga_ABC123=GS1; _gid=x; _gcl_au=1' }))).toEqual({
      key: 'en /blog',
      render: { url: `${SITE}/blog`, cookie: 'lng=ar' },
    });
    expect(cacheVerdict(get('/blog', { Cookie: 'lng=ar' }))).toEqual({ key: 'en /blog' });
  });

  // Issue 40, item 4: 2,000 requests of `/?utm_x=<random>` were 2,000 renders and emptied the cache.
  it('leaves tracking parameters out of the key, and renders the page without them', () => {
    expect(cacheVerdict(get('/?utm_x=8f3a'))).toEqual({ key: 'en /', render: { url: `${SITE}/`, cookie: null } });
    expect(cacheVerdict(get('/?utm_x=1'))).toMatchObject({ key: 'en /' });
    expect(cacheVerdict(get('/?utm_x=2'))).toMatchObject({ key: 'en /' });
    expect(cacheVerdict(get('/blog?utm_source=mail&page=2&gclid=abc&fbclid=x&msclkid=y&UTM_Campaign=z'))).toEqual({
      key: 'en /blog?page=2',
      render: { url: `${SITE}/blog?page=2`, cookie: null },
    });
    expect(cacheVerdict(get('/ar/faq.data?_routes=routes%2Ffaq&utm_medium=x'))).toMatchObject({
      key: 'ar /ar/faq.data?_routes=routes%2Ffaq',
    });
    // Any other parameter still makes its own page (a page may read it).
    expect(cacheVerdict(get('/about?x=1'))).toEqual({ key: 'en /about?x=1' });
  });

  // Issue 40, item 4: any unknown cookie skipped the cache.
  it('ignores the cookies that change no page: they neither skip the cache nor reach the render', () => {
    for (const cookie of ['session=abc', '_fbp=fb.1.2; _hjid=x', 'cf_clearance=x; OptanonConsent=y', 'signed_in=1'])
      expect(cacheVerdict(get('/pricing', { Cookie: cookie })), cookie).toEqual({
        key: 'en /pricing',
        render: { url: `${SITE}/pricing`, cookie: null },
      });
    expect(cacheVerdict(get('/pricing', { Cookie: 'a=1; lng=en; b=2' }))).toEqual({
      key: 'en /pricing',
      render: { url: `${SITE}/pricing`, cookie: 'lng=en' },
    });
  });

  it.each([
    ['POST', get('/faq', {}, 'POST'), 'method'],
    ['PUT', get('/faq', {}, 'PUT'), 'method'],
    ['a preview session', get('/blog', { Cookie: '__preview=abc' }), 'cookie'],
    ['a signed-in client', get('/pricing', { Cookie: 'lng=en; __client=abc' }), 'cookie'],
    ['the sign-in step', get('/', { Cookie: '__signin=abc' }), 'cookie'],
    ['a signed-in client over HTTPS', get('/', { Cookie: '_ga=1; __Host-client=abc' }), 'cookie'],
    ["an editor's sign-in step", get('/', { Cookie: '__Host-lake_signin=abc' }), 'cookie'],
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
  /** A kept page whose forms weigh `bytes` together (the plain one; an empty compressed one). */
  const page = (bytes: number) => {
    const form = (body: Buffer, etag: string) => ({ headers: [] as [string, string][], body, etag });
    return {
      forms: { identity: form(Buffer.alloc(bytes, 'a'), '"a"'), gzip: form(Buffer.alloc(0), '"a-gzip"') },
      etags: new Set<string>(),
    };
  };
  const options = { maxEntries: 3, maxBytes: 1000, maxEntryBytes: 600, maxAgeMs: 60_000 };

  it('drops the least recently used page beyond the count', () => {
    const cache = new PageCache(options);
    for (const key of ['a', 'b', 'c']) cache.set(key, page(10));
    cache.get('a');
    cache.set('d', page(10));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.stats).toMatchObject({ entries: 3, bytes: 30 });
  });

  it('drops pages beyond the bytes and never keeps one page larger than its limit', () => {
    const cache = new PageCache(options);
    cache.set('a', page(500));
    cache.set('b', page(400));
    cache.set('c', page(300));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.stats).toMatchObject({ entries: 2, bytes: 700 });
    expect(cache.set('big', page(601))).toBe(false);
    expect(cache.get('big')).toBeUndefined();
    // Replacing a page counts its bytes once.
    cache.set('b', page(100));
    expect(cache.stats).toMatchObject({ entries: 2, bytes: 400 });
  });

  it('pages expire after the content cache age', () => {
    let now = 0;
    const cache = new PageCache({ ...options, now: () => now });
    cache.set('a', page(10));
    now = 59_999;
    expect(cache.get('a')).toBeDefined();
    now = 60_000;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.stats).toMatchObject({ entries: 0, bytes: 0 });
  });

  // Issue 40, item 4: a storm of one-off URLs evicted all 8 popular pages.
  it('a storm of pages asked for once never pushes out the pages asked for again, and holds only its share', () => {
    const cache = new PageCache({ ...options, maxEntries: 100, maxBytes: 100_000, probationShare: 0.2 });
    const popular = Array.from({ length: 8 }, (_, i) => `popular-${i}`);
    for (const key of popular) cache.set(key, page(500));
    for (const key of popular) expect(cache.get(key)).toBeDefined();
    expect(cache.stats.protected).toBe(8);
    for (let i = 0; i < 2000; i++) {
      cache.set(`storm-${i}`, page(400));
      if (i % 100 === 0) for (const key of popular) expect(cache.get(key), `${key} during the storm`).toBeDefined();
    }
    for (const key of popular) expect(cache.get(key)).toBeDefined();
    // Probation holds at most its share: 20 pages here (and 20% of the bytes).
    expect(cache.stats.entries).toBe(8 + 20);
    expect(cache.stats.bytes).toBe(8 * 500 + 20 * 400);
    // A page asked for again joins the protected ones.
    expect(cache.get('storm-1999')).toBeDefined();
    expect(cache.stats.protected).toBe(9);
  });

  it('protected pages beyond their share go back on probation, least recently used first', () => {
    const cache = new PageCache({ ...options, maxEntries: 10, maxBytes: 100_000 });
    for (let i = 0; i < 9; i++) {
      cache.set(`p${i}`, page(10));
      cache.get(`p${i}`);
    }
    // 8 of 10 may be protected: p0, asked for longest ago, is on probation again, and goes first.
    expect(cache.stats.protected).toBe(8);
    cache.set('x', page(10));
    cache.set('y', page(10));
    expect(cache.peek('p0')).toBeUndefined();
    expect(cache.peek('p1')).toBeDefined();
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
 * A stand-in for Remix and entry.server.tsx, counting renders: the page's policy is made from
 * its finished HTML, as the entry makes it (inlineScriptHashes), for every request alike.
 */
function fakeRemix(answer: (request: Request) => Response = () => htmlPage('<p>Hello</p>')) {
  return vi.fn<RequestHandler>(async (request) => answer(request));
}

function htmlPage(content: string, init: { status?: number; headers?: Record<string, string> } = {}) {
  const html = `<!DOCTYPE html><html><head><script>window.a = 1</script></head><body>${content}<script type="module">import("/build/x.js")</script></body></html>`;
  return new Response(html, {
    status: init.status ?? 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'public, max-age=0, s-maxage=60',
      'Content-Security-Policy': policyOf(html),
      ...init.headers,
    },
  });
}

const policyOf = (html: string) =>
  contentSecurityPolicy({
    scriptHashes: inlineScriptHashes(html),
    tagManager: false,
    frameAncestors: ["'self'"],
    frameSources: [],
  });

/** Headers that say what a response is, without the cache's state and the per-form ones. */
const headersOf = (response: Response) =>
  [...response.headers].filter(([name]) => !['x-page-cache', 'date'].includes(name));

describe('withPageCache', () => {
  const cache = () => new PageCache({ maxEntries: 10, maxBytes: 1e6, maxEntryBytes: 1e5, maxAgeMs: 60_000 });

  it('renders a page once; every visitor gets the same bytes and headers, the policy a fresh render of those bytes gets', async () => {
    const remix = fakeRemix();
    const handle = withPageCache(remix, cache());
    const first = await handle(get('/about'));
    const second = await handle(get('/about'));
    expect(first.headers.get('X-Page-Cache')).toBe('miss');
    expect(second.headers.get('X-Page-Cache')).toBe('hit');
    expect(remix).toHaveBeenCalledTimes(1);
    const [a, b] = [await first.text(), await second.text()];
    expect(b).toBe(a);
    expect(headersOf(second)).toEqual(headersOf(first));
    // The kept page's policy is the one a render of the same bytes gets, with the scripts' hashes.
    const policy = second.headers.get('Content-Security-Policy')!;
    expect(policy).toBe(policyOf(a));
    const fresh = await withPageCache(fakeRemix(), null)(get('/about'));
    expect(fresh.headers.get('Content-Security-Policy')).toBe(policy);
    expect(await fresh.text()).toBe(a);
    expect(policy).toMatch(/script-src 'sha256-[^']+' 'sha256-[^']+' 'strict-dynamic'/);
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

  it('never reads or fills it for posts, previews and signed-in clients', async () => {
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
    }
    expect(pages.stats.entries).toBe(0);
    // A preview render is not served to a visitor afterwards either.
    expect((await handle(get('/faq'))).headers.get('X-Page-Cache')).toBe('miss');
    expect(remix).toHaveBeenCalledTimes(4);
    // Nor is the kept page given to them.
    for (const cookie of ['__preview=1', '__client=1'])
      expect((await handle(get('/faq', { Cookie: cookie }))).headers.get('X-Page-Cache')).toBe('bypass');
    expect(
      preparedAnswer(pages, 'GET', new URL(`${SITE}/faq`), (name) => (name === 'cookie' ? '__client=1' : null)),
    ).toBeNull();
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

  it('off (no cache): every request renders', async () => {
    const remix = fakeRemix();
    const handle = withPageCache(remix, null);
    const a = await handle(get('/about'));
    const b = await handle(get('/about'));
    expect([a.headers.get('X-Page-Cache'), b.headers.get('X-Page-Cache')]).toEqual(['bypass', 'bypass']);
    expect(remix).toHaveBeenCalledTimes(2);
  });

  it('keeps the page plain, gzipped and (once made) in brotli; each browser gets the form it takes, prepared once', async () => {
    const remix = fakeRemix(() => htmlPage('<p>مرحبا بكم في بوابة</p>'.repeat(200)));
    const pages = cache();
    const handle = withPageCache(remix, pages);
    const plainText = await (await handle(get('/ar'))).text();
    // Brotli is made off the request path, once a page is asked for again: wait until it is kept.
    expect(pages.peek('ar /ar')?.forms.br).toBeUndefined();
    await (await handle(get('/ar'))).arrayBuffer();
    await vi.waitFor(() => expect(pages.peek('ar /ar')?.forms.br).toBeDefined());
    const asked = ['gzip, deflate, br', 'gzip, deflate', 'br;q=0, gzip', 'identity', 'gzip;q=0, br;q=0', '*'];
    const answers = await Promise.all(asked.map((accept) => handle(get('/ar', { 'Accept-Encoding': accept }))));
    expect(answers.map((r) => r.headers.get('Content-Encoding'))).toEqual(['br', 'gzip', 'gzip', null, null, 'br']);
    const tags = new Set<string>();
    for (const r of answers) {
      expect(r.headers.get('X-Page-Cache')).toBe('hit');
      expect(r.headers.get('Vary')).toMatch(/Accept-Encoding/);
      const raw = Buffer.from(await r.arrayBuffer());
      expect(r.headers.get('Content-Length')).toBe(String(raw.length));
      const coding = r.headers.get('Content-Encoding');
      const text = (coding === 'br' ? brotliDecompressSync(raw) : coding === 'gzip' ? gunzipSync(raw) : raw).toString();
      expect(text).toBe(plainText);
      if (coding) expect(raw.length).toBeLessThan(Buffer.byteLength(plainText) / 4);
      tags.add(r.headers.get('ETag')!);
    }
    // One strong tag per form.
    expect(tags.size).toBe(3);
    expect(remix).toHaveBeenCalledTimes(1);
    // The byte bound counts the compressed forms too.
    expect(pages.stats.bytes).toBeGreaterThan(Buffer.byteLength(plainText));
    // The warm path of server.mjs gets the same answer, without a Request or Response.
    const hit = preparedAnswer(pages, 'GET', new URL(`${SITE}/ar`), (name) =>
      name === 'accept-encoding' ? 'gzip' : null,
    )!;
    expect(gunzipSync(hit.body!).toString()).toBe(plainText);
    expect(Object.fromEntries(hit.headers)['x-page-cache']).toBe('hit');
  });

  it('answers a revalidation with 304 and no body when its tag names the page; a changed page gets 200', async () => {
    let content = 'one';
    const pages = cache();
    const handle = withPageCache(
      fakeRemix(() => htmlPage(content)),
      pages,
    );
    const first = await handle(get('/faq', { 'Accept-Encoding': 'gzip' }));
    const tag = first.headers.get('ETag')!;
    expect(tag).toMatch(/^"[^"]+"$/);
    const again = await handle(get('/faq', { 'Accept-Encoding': 'gzip', 'If-None-Match': `"other", W/${tag}` }));
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('ETag')).toBe(tag);
    expect(again.headers.get('Cache-Control')).toMatch(/public/);
    expect(again.headers.get('Content-Length')).toBeNull();
    content = 'two';
    pages.clear();
    const changed = await handle(get('/faq', { 'Accept-Encoding': 'gzip', 'If-None-Match': tag }));
    expect(changed.status).toBe(200);
    expect(changed.headers.get('ETag')).not.toBe(tag);
  });

  it('answers every tracking-tagged or cookie-carrying address of a page from one render of the page itself', async () => {
    const seen: { url: string; cookie: string | null }[] = [];
    const remix = fakeRemix((request) => {
      seen.push({ url: request.url, cookie: request.headers.get('Cookie') });
      return htmlPage(`<a href="${new URL(request.url).search}">x</a>`);
    });
    const pages = cache();
    const handle = withPageCache(remix, pages);
    const first = await handle(get('/about?utm_source=mail&utm_x=8f3a', { Cookie: 'session=abc; lng=en' }));
    expect(first.headers.get('X-Page-Cache')).toBe('miss');
    expect(seen).toEqual([{ url: `${SITE}/about`, cookie: 'lng=en' }]);
    const plain = await first.text();
    for (const path of ['/about', '/about?utm_x=2', '/about?gclid=1&fbclid=2']) {
      const again = await handle(get(path, { Cookie: '_fbp=1' }));
      expect(again.headers.get('X-Page-Cache'), path).toBe('hit');
      expect(await again.text()).toBe(plain);
    }
    expect(remix).toHaveBeenCalledTimes(1);
    // The warm path of server.mjs reads the same key.
    expect(preparedAnswer(pages, 'GET', new URL(`${SITE}/about?utm_x=3`), () => null)?.status).toBe(200);
  });

  it("a redirect is made for the request itself, so its target keeps the visitor's parameters", async () => {
    const remix = fakeRemix((request) => {
      const url = new URL(request.url);
      return new Response(null, { status: 301, headers: { Location: `/${url.search}` } });
    });
    const response = await withPageCache(remix, cache())(get('/contact?utm_source=mail'));
    expect(response.status).toBe(301);
    expect(response.headers.get('Location')).toBe('/?utm_source=mail');
    expect(response.headers.get('X-Page-Cache')).toBe('bypass');
  });

  it('leaves other answers as they are', async () => {
    const remix = fakeRemix(() => new Response('{"a":1}', { headers: { 'Content-Type': 'application/json' } }));
    const response = await withPageCache(remix, cache())(get('/api/newsletter', {}, 'POST'));
    expect(await response.text()).toBe('{"a":1}');
  });
});

describe('preparePage', () => {
  it("adds Accept-Encoding to the page's own Vary once, and drops a length the forms set themselves", () => {
    const page = preparePage(
      [
        ['vary', 'Cookie'],
        ['content-length', '3'],
      ],
      Buffer.from('abc'),
    );
    const headers = Object.fromEntries(page.forms.gzip.headers);
    expect(headers.vary).toBe('Cookie, Accept-Encoding');
    expect(headers['content-length']).toBe(String(page.forms.gzip.body.length));
    expect(headers['content-encoding']).toBe('gzip');
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
      cache.set('/about', preparePage([], Buffer.from('<p>about</p>')));
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
