import { request as httpRequest } from 'node:http';
import { rmSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { kill, startOwnServer, type OwnServer } from './own-server';

// One URL per page (a trailing slash redirects to the bare path), a sitemap of indexable pages
// only, and the site's own address when SITE_URL is not set (issue 30, points 3 to 5).

const SITE = 'https://www.bawaba-advisory.com';

/** A GET of exactly this request target (no client normalises `//evil.example/` on the way). */
function rawGet(base: string, target: string): Promise<{ status: number; headers: Record<string, string> }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path: target, method: 'GET', timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)])),
        }),
      );
    });
    req.on('timeout', () => req.destroy(new Error(`timeout: ${target}`)));
    req.on('error', reject);
    req.end();
  });
}

/** The canonical, hreflang alternates and robots meta of a page's HTML. */
function headLinks(html: string) {
  const attr = (tag: string, name: string) =>
    new RegExp(`\\b${name}="([^"]*)"`, 'i').exec(tag)?.[1]?.replace(/&amp;/g, '&') ?? null;
  const links = [...html.matchAll(/<link\b[^>]*>/gi)].map((m) => m[0]);
  const canonical = links.filter((l) => attr(l, 'rel') === 'canonical').map((l) => attr(l, 'href'));
  const alternates = Object.fromEntries(
    links
      .filter((l) => attr(l, 'rel') === 'alternate' && attr(l, 'hreflang'))
      .map((l) => [attr(l, 'hreflang'), attr(l, 'href')]),
  );
  const robots = [...html.matchAll(/<meta\b[^>]*>/gi)]
    .map((m) => m[0])
    .filter((m) => attr(m, 'name') === 'robots')
    .map((m) => attr(m, 'content'));
  return { canonical, alternates, robots };
}

const locsOf = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1].replace(/&amp;/g, '&'));

test.describe('one URL per page', () => {
  const cases: [string, string][] = [
    ['/about/', '/about'],
    ['/ar/about/', '/ar/about'],
    ['/pricing/?plan=business&utm_source=mail', '/pricing?plan=business&utm_source=mail'],
    ['/ar/pricing/?plan=business', '/ar/pricing?plan=business'],
    ['/blog/uae-vat-registration-guide/', '/blog/uae-vat-registration-guide'],
    ['/ar/blog/uae-vat-registration-guide/?ref=x', '/ar/blog/uae-vat-registration-guide?ref=x'],
    ['/ar/', '/ar'],
    ['/ar/?utm_campaign=launch', '/ar?utm_campaign=launch'],
    ['/book/', '/book'],
  ];
  for (const [from, to] of cases) {
    test(`${from} -> 301 ${to}, which answers itself`, async ({ request }) => {
      const res = await rawGet(baseURL, from);
      expect(res.status).toBe(301);
      expect(res.headers['location']).toBe(to);
      // The cache policy of the public pages, not a redirect cached for ever by default.
      expect(res.headers['cache-control']).toMatch(/^public, /);
      const page = await request.get(to, { maxRedirects: 0 });
      expect(page.status(), to).toBe(200);
      const { canonical } = headLinks(await page.text());
      expect(canonical).toEqual([SITE + to.split('?')[0]]);
    });
  }

  for (const [from, to] of [
    ['/account/', '/account'],
    ['/ar/account/', '/ar/account'],
    ['/ar/account/subscription/?tab=invoices', '/ar/account/subscription?tab=invoices'],
    ['/account/verify/', '/account/verify'],
  ]) {
    test(`portal ${from} -> 301 ${to}, private like the rest of the portal`, async () => {
      const res = await rawGet(baseURL, from);
      expect(res.status).toBe(301);
      expect(res.headers['location']).toBe(to);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers['vary']).toMatch(/cookie/i);
      expect(res.headers['x-robots-tag']).toMatch(/noindex/);
    });
  }

  test('a slash path of another host stays on this site', async () => {
    for (const target of ['//evil.example/', '//evil.example/?next=/', '/\\evil.example/', '///evil.example/x/']) {
      const res = await rawGet(baseURL, target);
      expect(res.status, target).toBe(301);
      const location = res.headers['location'];
      expect(new URL(location, baseURL).origin, `${target} -> ${location}`).toBe(baseURL);
      expect(location, target).toMatch(/^\/[^/\\]/);
    }
  });

  test('what the spec names with a slash: /booking-confirmation/ answers, /contact/ goes straight home', async ({
    request,
  }) => {
    for (const path of ['/booking-confirmation/', '/ar/booking-confirmation/?booking_id=AB12']) {
      expect((await request.get(path, { maxRedirects: 0 })).status(), path).toBe(200);
    }
    for (const [from, to] of [
      ['/contact/', '/'],
      ['/ar/contact/?x=1', '/ar?x=1'],
    ]) {
      const res = await rawGet(baseURL, from);
      expect(res.status, from).toBe(301);
      expect(res.headers['location'], from).toBe(to);
    }
  });

  test('a post to a slash path is not redirected (a 301 would turn it into a GET)', async ({ request }) => {
    const res = await request.post('/about/', { form: { x: '1' }, maxRedirects: 0 });
    expect(res.status()).not.toBe(301);
  });

  test('a browser lands on the bare path, in Arabic, with the query', async ({ page }) => {
    await page.goto('/ar/about/?ref=newsletter');
    await expect(page).toHaveURL(`${baseURL}/ar/about?ref=newsletter`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  });
});

test.describe('the sitemap', () => {
  test('lists only indexable pages, each answering 200 with itself as canonical', async ({ request }) => {
    test.setTimeout(120_000);
    const locs = locsOf(await (await request.get('/sitemap.xml')).text());
    expect(locs.length).toBeGreaterThan(20);
    expect(locs.length).toBeLessThan(400);
    const paths = locs.map((loc) => {
      expect(loc.startsWith(`${SITE}/`), loc).toBe(true);
      return loc.slice(SITE.length);
    });
    // Nothing of the portal (noindex, some answer 302 to sign-in), nothing the table marks noindex.
    expect(
      paths.filter((p) => /^(\/ar)?\/(account|checkout|booking-confirmation|seo-diagnostics)(\/|$)/.test(p)),
    ).toEqual([]);
    expect(paths).toEqual(expect.arrayContaining(['/book', '/ar/book', '/', '/ar']));
    // Every listed URL, at most four at a time.
    const failures: string[] = [];
    const queue = [...paths];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
          const res = await request.get(path, { maxRedirects: 0, timeout: 15_000 });
          const problems: string[] = [];
          if (res.status() !== 200) problems.push(`status ${res.status()}`);
          if (/noindex/i.test(res.headers()['x-robots-tag'] ?? '')) problems.push('X-Robots-Tag noindex');
          const { canonical, robots } = headLinks(await res.text());
          if (canonical.length !== 1 || canonical[0] !== SITE + path) problems.push(`canonical ${canonical.join(' ')}`);
          if (robots.some((r) => /noindex/i.test(r ?? ''))) problems.push('robots noindex');
          if (problems.length) failures.push(`${path}: ${problems.join(', ')}`);
        }
      }),
    );
    expect(failures).toEqual([]);
  });

  test('the pages it leaves out for being noindex do say noindex', async ({ request }) => {
    for (const path of ['/seo-diagnostics', '/ar/booking-confirmation', '/account', '/ar/account/verify']) {
      const res = await request.get(path, { maxRedirects: 0 });
      // A 404 (diagnostics outside a preview) or a redirect to sign-in says it too.
      const html = await res.text();
      const said =
        /noindex/i.test(res.headers()['x-robots-tag'] ?? '') ||
        headLinks(html).robots.some((r) => /noindex/i.test(r ?? ''));
      expect(said, path).toBe(true);
    }
  });
});

test.describe('without SITE_URL', () => {
  test.describe.configure({ mode: 'serial' });
  // A port of this spec's own (E2E_PORT + 580), not 3000: the links must follow it.
  const port = Number(process.env.E2E_PORT ?? 3210) + 580;
  const dataDir = `.cache/e2e/urls-${port}`;
  const own = `http://127.0.0.1:${port}`;
  let server: OwnServer;

  test.beforeAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    server = await startOwnServer(port, dataDir, { SITE_URL: '', NODE_ENV: 'production' });
  });
  test.afterAll(async () => {
    if (server) await kill(server);
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('canonical, hreflang and the sitemap point at the port the server listens on', async ({ request }) => {
    for (const [path, en, ar] of [
      ['/about', '/about', '/ar/about'],
      ['/ar/pricing', '/pricing', '/ar/pricing'],
    ]) {
      const { canonical, alternates } = headLinks(await (await request.get(`${own}${path}`)).text());
      expect(canonical, path).toEqual([own + path]);
      expect(alternates, path).toEqual({ en: own + en, ar: own + ar, 'x-default': own + en });
    }
    const xml = await (await request.get(`${own}/sitemap.xml`)).text();
    const locs = locsOf(xml);
    expect(locs).toContain(`${own}/about`);
    expect(locs).toContain(`${own}/ar`);
    expect(locs.every((loc) => loc.startsWith(`${own}/`))).toBe(true);
    expect(xml).not.toContain(':3000');
    const robots = await (await request.get(`${own}/robots.txt`)).text();
    expect(robots).toContain(`Sitemap: ${own}/sitemap.xml`);
  });
});
