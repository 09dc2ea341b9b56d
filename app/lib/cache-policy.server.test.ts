import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { routeTable } from '~/route-table.js';
import {
  isPortalPath,
  PAGE_CHANGING_COOKIE,
  PRIVATE_CACHE,
  privateCacheHeaders,
  privatePrefixes,
  PUBLIC_CACHE,
  routePath,
  setCacheHeaders,
  withoutTracking,
} from './cache-policy.server';

/** A concrete language-neutral path of a route of the table (any value for its parameters). */
const pathOf = (route: (typeof routeTable)[number]) =>
  route.index ? '/' : `/${route.path!.replace(/:(\w+)\??/g, (_, name: string) => `some-${name.toLowerCase()}`)}`;

/** The URLs one route answers at: both languages, as a document and as single-fetch data. */
function urlsOf(path: string): string[] {
  const ar = path === '/' ? '/ar' : `/ar${path}`;
  const data = (p: string) => (p === '/' ? '/_root.data' : `${p}.data`);
  return [path, data(path), ar, data(ar)];
}

describe('isPortalPath, from the route table', () => {
  it('the table marks the portal routes private', () => {
    expect(routeTable.filter((r) => r.private).map((r) => r.id)).toEqual([
      'account',
      'account-verify',
      'account-subscription',
      'account-billing-details',
      'account-invoice',
      'account-invoice-pdf',
      'account-invoice-xml',
      'account-credit-note',
      'account-credit-note-pdf',
      'account-credit-note-xml',
      'account-personal-data',
      'checkout',
      'newsletter-confirm',
      'newsletter-unsubscribe',
      'studio-sign-in',
    ]);
  });

  for (const route of routeTable) {
    const path = pathOf(route);
    it(`${route.id} (${path}) is ${route.private ? 'private' : 'not private'} in both languages, page and data`, () => {
      for (const url of urlsOf(path)) expect(isPortalPath(url), url).toBe(route.private === true);
    });
  }

  it('sees the path as the router matches it: any case, percent-encoded, repeated slashes, a trailing slash', () => {
    for (const url of [
      '/ACCOUNT.data',
      '/Ar/Account',
      '/%61ccount.data',
      '/ar/%61ccount/subscription',
      '/account/',
      '/account/.data',
      '/ar//account',
      '/CHECKOUT/cs_1.data',
      '/account/no-such-page',
    ])
      expect(isPortalPath(url), url).toBe(true);
    for (const url of ['/accounts', '/blog/account', '/account-help', '/ar/blog.data', '/_root.data', '/%E0%A4%A'])
      expect(isPortalPath(url), url).toBe(false);
  });

  it('a private route added to the table is private at once, with everything under its fixed part', () => {
    const prefixes = privatePrefixes([
      ...routeTable,
      { path: 'billing/:accountId/statements', private: true },
      { path: 'blog/:slug' },
    ]);
    expect(prefixes).toContain('/billing');
    expect(prefixes).not.toContain('/blog');
    expect(privatePrefixes(routeTable)).toEqual(expect.arrayContaining(['/account', '/checkout']));
  });

  it('routePath: the page a URL path stands for', () => {
    expect(routePath('/ar/account.data')).toBe('/account');
    expect(routePath('/_root.data')).toBe('/');
    expect(routePath('/ar.data')).toBe('/');
    expect(routePath('/ar')).toBe('/');
    expect(routePath('/Blog/Tag/X')).toBe('/blog/tag/x');
  });
});

describe('privateCacheHeaders (the last step in server.mjs)', () => {
  const facts = (over: Partial<Parameters<typeof privateCacheHeaders>[0]> = {}) => ({
    method: 'GET',
    pathname: '/about',
    setsCookie: false,
    ...over,
  });

  it('a portal answer: private, varies by cookie (kept with what it varied by), noindex', () => {
    expect(privateCacheHeaders(facts({ pathname: '/ar/account.data' }))).toEqual({
      'Cache-Control': PRIVATE_CACHE,
      Vary: 'Cookie',
      'X-Robots-Tag': 'noindex',
    });
    expect(privateCacheHeaders(facts({ pathname: '/account', vary: 'Accept-Encoding' }))?.Vary).toBe(
      'Accept-Encoding, Cookie',
    );
    expect(privateCacheHeaders(facts({ pathname: '/account', vary: 'Cookie, Accept-Encoding' }))?.Vary).toBe(
      'Cookie, Accept-Encoding',
    );
    expect(privateCacheHeaders(facts({ pathname: '/account', robots: 'noindex, nofollow' }))?.['X-Robots-Tag']).toBe(
      'noindex, nofollow',
    );
  });

  it('any answer that sets a cookie, and any answer to a post, is private wherever it is', () => {
    expect(privateCacheHeaders(facts({ pathname: '/api/preview', setsCookie: true }))).toEqual({
      'Cache-Control': PRIVATE_CACHE,
    });
    expect(privateCacheHeaders(facts({ method: 'POST', pathname: '/pricing' }))).toEqual({
      'Cache-Control': PRIVATE_CACHE,
    });
    expect(privateCacheHeaders(facts({ method: 'POST', pathname: '/api/newsletter' }))).toEqual({
      'Cache-Control': PRIVATE_CACHE,
    });
  });

  it('leaves everything else to the route (GET and HEAD of public pages, static files, images)', () => {
    expect(privateCacheHeaders(facts())).toBeNull();
    expect(privateCacheHeaders(facts({ method: 'HEAD', pathname: '/ar/blog.data' }))).toBeNull();
    expect(privateCacheHeaders(facts({ pathname: '/build/entry.client-X.js' }))).toBeNull();
    expect(privateCacheHeaders(facts({ pathname: '/api/form-token' }))).toBeNull();
  });
});

describe('setCacheHeaders (the entry: pages and single-fetch data)', () => {
  const decide = (
    url: string,
    { method = 'GET', status = 200, headers = {}, preview = false } = {} as {
      method?: string;
      status?: number;
      headers?: Record<string, string>;
      preview?: boolean;
    },
  ) => {
    const out = new Headers(headers);
    setCacheHeaders({ method, url: `http://site${url}` }, status, out, preview);
    return Object.fromEntries(out);
  };

  it("the reported leak: a portal page's data is private, in every form Remix asks for it", () => {
    for (const url of [
      '/account.data',
      '/ar/account.data',
      '/account?_data=en%2Faccount',
      '/account.data?_routes=root',
    ])
      expect(decide(url), url).toMatchObject({
        'cache-control': PRIVATE_CACHE,
        vary: 'Cookie',
        'x-robots-tag': 'noindex',
      });
  });

  it('a portal answer is private even when the route set something else', () => {
    expect(decide('/checkout/cs_1', { headers: { 'Cache-Control': 'public, max-age=60' } })['cache-control']).toBe(
      PRIVATE_CACHE,
    );
  });

  it('a cookie or a post makes any answer private, over what the route set (Subscribe said only no-store)', () => {
    const subscribe = decide('/pricing', {
      method: 'POST',
      status: 302,
      headers: { 'Cache-Control': 'no-store', Location: '/checkout/cs_1' },
    });
    expect(subscribe['cache-control']).toBe(PRIVATE_CACHE);
    expect(decide('/', { headers: { 'Set-Cookie': 'lang=ar' } })['cache-control']).toBe(PRIVATE_CACHE);
    expect(decide('/faq.data', { method: 'POST', status: 400 })['cache-control']).toBe(PRIVATE_CACHE);
  });

  it('otherwise as before: public pages, a preview, routes with their own value, server errors', () => {
    expect(decide('/about')['cache-control']).toBe(PUBLIC_CACHE);
    expect(decide('/ar/blog.data', { method: 'HEAD' })['cache-control']).toBe(PUBLIC_CACHE);
    expect(decide('/no-such-page', { status: 404 })['cache-control']).toBe(PUBLIC_CACHE);
    expect(decide('/about', { preview: true })).toMatchObject({
      'cache-control': PRIVATE_CACHE,
      'x-robots-tag': 'noindex',
    });
    expect(decide('/booking-confirmation/1', { headers: { 'Cache-Control': 'private, no-store' } })).toMatchObject({
      'cache-control': 'private, no-store',
    });
    expect(decide('/seo-diagnostics', { headers: { 'Cache-Control': 'no-store' } })['cache-control']).toBe('no-store');
    expect(decide('/about', { status: 503 })['cache-control']).toBe('no-store');
    expect(decide('/about', { status: 503, headers: { 'Cache-Control': 'public, max-age=5' } })['cache-control']).toBe(
      'public, max-age=5',
    );
  });
});

describe("the page cache's reading of cookies and query strings", () => {
  it('drops tracking parameters only, keeping the rest as written and in order', () => {
    expect(withoutTracking('')).toBe('');
    expect(withoutTracking('?utm_x=8f3a')).toBe('');
    expect(withoutTracking('?page=2&utm_source=mail&gclid=1&fbclid=2&msclkid=3')).toBe('?page=2');
    expect(withoutTracking('?utm_medium=x&_routes=routes%2Fblog&index')).toBe('?_routes=routes%2Fblog&index');
    expect(withoutTracking('?%75tm_source=x&q=a%20b')).toBe('?q=a%20b');
    expect(withoutTracking('?x=1&utmost=2')).toBe('?x=1&utmost=2');
  });

  /**
   * Every cookie the site sets, from its source: one that changes a public page must match
   * PAGE_CHANGING_COOKIE (else its holders would be served, and would fill the cache with, the
   * anonymous page); the others are listed here with why they do not.
   */
  it('classifies every cookie the site sets: a new one fails here until it is classified', () => {
    const root = path.resolve('app');
    const calls: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
          for (const m of readFileSync(file, 'utf8').matchAll(/createCookie\(\s*([^,)]+)/g)) calls.push(m[1]!.trim());
      }
    };
    walk(root);
    // The one sign-in names its pending cookie by audience (app/portal/signin.server.ts, AUDIENCES):
    // the client's `__signin` and the editor's `__lake_signin`.
    const changesPages = new Map([
      ["'__preview'", ['__preview']],
      ["portalCookieName('client'", ['__client']],
      ['portalCookieName(AUDIENCES[audience].cookie', ['__signin', '__lake_signin']],
    ]);
    // The language choice changes the English home only, which the page cache reads apart.
    const changesNothing = new Set(['LOCALE_COOKIE']);
    expect(calls.filter((call) => !changesPages.has(call) && !changesNothing.has(call))).toEqual([]);
    for (const [call, names] of changesPages) {
      expect(calls, call).toContain(call);
      for (const name of names) {
        expect(PAGE_CHANGING_COOKIE.test(name), name).toBe(true);
        expect(PAGE_CHANGING_COOKIE.test(name.replace(/^__/, '__Host-')), name).toBe(true);
      }
    }
    // Set without createCookie: the signed-in hint, read by the browser only (Header.tsx, after hydration).
    expect(PAGE_CHANGING_COOKIE.test('signed_in')).toBe(false);
    for (const other of ['lng', '_ga', 'session', '__cf_bm', '__stripe_mid'])
      expect(PAGE_CHANGING_COOKIE.test(other)).toBe(false);
  });
});
