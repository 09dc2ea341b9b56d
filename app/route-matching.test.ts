// The server's route matching runs on a patched @remix-run/router (patches/, applied by
// `npm ci` through patch-package; ADR 0011): a route tree's ranked branches, what each pathname
// matched in it, and each path pattern's regular expression are computed once instead of on
// every request. A link target that starts with "/" is resolved once, too.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AgnosticRouteObject } from '@remix-run/router';
import { describe, expect, it } from 'vitest';
import { layoutRouteIds, pageRouteId, routeTable } from './route-table.js';

// The CommonJS build, which is the copy the server loads (the browser bundle uses dist/router.js).
const require = createRequire(import.meta.url);
const routerPath = require.resolve('@remix-run/router');
const router = require('@remix-run/router') as typeof import('@remix-run/router');

type Route = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: Route[] };

/** The site's tree as remix.config.js mounts it: English at /, Arabic at /ar, one page module for both. */
function siteTree(): Route[] {
  const pages = (locale: 'en' | 'ar') =>
    routeTable.map((r) => ({ id: pageRouteId(locale, r.id), path: r.path, index: r.index }));
  return [
    {
      id: 'root',
      path: '',
      children: [
        { id: layoutRouteIds.ar, path: 'ar', children: pages('ar') },
        { id: layoutRouteIds.en, path: '', children: pages('en') },
      ],
    },
  ];
}

// Plain objects shaped as Remix builds them (an index route never has children here).
const match = (routes: Route[], url: string) => router.matchRoutes(routes as AgnosticRouteObject[], url);
const leaf = (routes: Route[], url: string) => match(routes, url)?.at(-1)?.route.id ?? null;

describe('route matching on the patched router', () => {
  it('the server loads the patched copy (a reinstall without the patch fails here)', () => {
    const source = readFileSync(routerPath, 'utf8');
    expect(routerPath).toMatch(/router\.cjs\.js$/);
    expect(source).toContain('rankedBranchesOf(routes)');
    expect(source).toContain('compilePathUncached');
    expect(source).toContain('copyMatches(tree.matched.get(key))');
    expect(source).toContain('resolvedAbsolute.get(toArg)');
    // The render's route tree, made once per build manifest and converted once (same ADR).
    expect(readFileSync(require.resolve('@remix-run/react/dist/server.js'), 'utf8')).toContain('serverRoutesOf(');
    expect(readFileSync(require.resolve('react-router-dom/server.js'), 'utf8')).toContain(
      'staticDataRoutes.get(routes)',
    );
  });

  it("a static router made again from the same routes reuses their conversion, with each request's own matches", async () => {
    const { createStaticHandler, createStaticRouter } =
      require('react-router-dom/server.js') as typeof import('react-router-dom/server');
    const routes = [
      {
        id: 'root',
        path: '/',
        children: [
          { id: 'a', path: 'a' },
          { id: 'b', path: 'b/:x' },
        ],
      },
    ];
    const handler = createStaticHandler(routes);
    const contextA = await handler.query(new Request('http://x/a'));
    const contextB = await handler.query(new Request('http://x/b/7'));
    if (contextA instanceof Response || contextB instanceof Response) throw new Error('unexpected response');
    const first = createStaticRouter(routes, contextA);
    const second = createStaticRouter(routes, contextB);
    expect(second.routes).toBe(first.routes);
    expect(first.state.matches.map((m) => m.route.id)).toEqual(['root', 'a']);
    expect(second.state.matches.map((m) => m.route.id)).toEqual(['root', 'b']);
    expect(second.state.matches[1].params).toEqual({ x: '7' });
    // The matches point into the converted tree the render uses.
    expect(second.state.matches[1].route).toBe(second.routes[0].children![1]);
  });

  it('a pathname matched before gives the same answer, in a copy the caller may change', () => {
    const routes = siteTree();
    const first = match(routes, '/ar/blog/tag/uae')!;
    expect(first.at(-1)!.params).toEqual({ tagSlug: 'uae' });
    // A caller that changes its matches (or their params) changes nothing for the next one.
    (first.at(-1)!.params as Record<string, string>).tagSlug = 'changed';
    first.pop();
    const second = match(routes, '/ar/blog/tag/uae')!;
    expect(second).toHaveLength(3);
    expect(second.at(-1)!.params).toEqual({ tagSlug: 'uae' });
    expect(second.at(-1)!.route).toBe(routes[0].children![0].children!.find((r) => r.id === 'ar/blog-tag'));
    // Another slug on the same pattern is its own answer.
    expect(match(routes, '/ar/blog/tag/tax')!.at(-1)!.params).toEqual({ tagSlug: 'tax' });
  });

  it('answers every pathname rightly past the 1,000 it keeps per tree (then empties)', () => {
    const routes = siteTree();
    for (let i = 0; i < 2_500; i++) expect(leaf(routes, `/blog/post-${i}`)).toBe('en/blog-post');
    expect(match(routes, '/blog/post-7')!.at(-1)!.params).toEqual({ slug: 'post-7' });
    expect(leaf(routes, '/no/such/page')).toBeNull();
    expect(leaf(routes, '/no/such/page')).toBeNull();
  });

  it('matches each language and page as before, on the first and on repeated calls', () => {
    const routes = siteTree();
    const cases: [string, string | null][] = [
      ['/', 'en/home'],
      ['/ar', 'ar/home'],
      ['/blog', 'en/blog'],
      ['/ar/blog/tag/uae', 'ar/blog-tag'],
      ['/blog/category/finance', 'en/blog-category'],
      ['/blog/some-post', 'en/blog-post'],
      ['/case-studies/acme', 'en/case-study'],
      ['/book', 'en/book'],
      ['/ar/book', 'ar/book'],
      ['/booking-confirmation', 'en/booking-confirmation'],
      ['/ar/booking-confirmation/abc', 'ar/booking-confirmation'],
      ['/account/invoices/in_1/pdf', 'en/account-invoice-pdf'],
      ['/no/such/page', null],
    ];
    for (let round = 0; round < 3; round++)
      for (const [url, id] of cases) expect(leaf(routes, url), `${url} (call ${round + 1})`).toBe(id);
  });

  it('a new route tree is matched on its own routes, never on a tree seen before', () => {
    const first = siteTree();
    expect(leaf(first, '/blog')).toBe('en/blog');
    const second: Route[] = [{ id: 'only', path: 'blog', children: [{ id: 'only-index', index: true }] }];
    expect(leaf(second, '/blog')).toBe('only-index');
    expect(leaf(second, '/about')).toBeNull();
    expect(match(second, '/blog')?.[0].route).toBe(second[0]);
  });

  it('a pattern compiled once keeps its case sensitivity and end', () => {
    expect(router.matchPath({ path: '/Blog', caseSensitive: true }, '/blog')).toBeNull();
    expect(router.matchPath({ path: '/Blog', caseSensitive: false }, '/blog')?.pathname).toBe('/blog');
    expect(router.matchPath({ path: '/Blog', caseSensitive: true }, '/Blog')?.pathname).toBe('/Blog');
    expect(router.matchPath({ path: '/blog', end: false }, '/blog/x')?.pathnameBase).toBe('/blog');
    expect(router.matchPath({ path: '/blog', end: true }, '/blog/x')).toBeNull();
    expect(router.matchPath('/blog/:slug', '/blog/post-1')?.params).toEqual({ slug: 'post-1' });
  });

  it('a link target starting with "/" resolves as before from any route and location, in a copy the caller may change', () => {
    const resolve = (to: string, routes: string[], location: string) => router.resolveTo(to, routes, location, false);
    const cases: [string, { pathname: string; search: string; hash: string }][] = [
      ['/ar/services', { pathname: '/ar/services', search: '', hash: '' }],
      ['/ar/services/', { pathname: '/ar/services/', search: '', hash: '' }],
      ['/blog?page=2#list', { pathname: '/blog', search: '?page=2', hash: '#list' }],
      ['/ar/blog/../faq', { pathname: '/ar/faq', search: '', hash: '' }],
      ['/', { pathname: '/', search: '', hash: '' }],
    ];
    const places: [string[], string][] = [
      [['/'], '/'],
      [['/', '/ar'], '/ar/blog/'],
      [['/', '/ar', '/ar/blog/tag/uae'], '/ar/blog/tag/uae'],
    ];
    for (const [routes, location] of places)
      for (const [to, expected] of cases)
        expect(resolve(to, routes, location), `${to} from ${location}`).toEqual(expected);
    const first = resolve('/ar/services', ['/'], '/');
    first.pathname = '/changed';
    expect(resolve('/ar/services', ['/'], '/').pathname).toBe('/ar/services');
    // Past the 1,000 it keeps, still right.
    for (let i = 0; i < 2_500; i++) expect(resolve(`/blog/post-${i}`, ['/'], '/').pathname).toBe(`/blog/post-${i}`);
  });

  it('a relative link target still resolves against its route and location', () => {
    expect(router.resolveTo('..', ['/', '/ar', '/ar/blog'], '/ar/blog', false).pathname).toBe('/ar');
    expect(router.resolveTo('tag/uae', ['/', '/ar/blog'], '/ar/blog', false).pathname).toBe('/ar/blog/tag/uae');
    expect(router.resolveTo('.', ['/', '/ar'], '/ar/', false).pathname).toBe('/ar/');
    expect(router.resolveTo('?page=2', ['/', '/blog'], '/blog', false)).toEqual({
      pathname: '/blog',
      search: '?page=2',
      hash: '',
    });
    expect(() => router.resolveTo({ pathname: '/blog?page=2' }, ['/'], '/', false)).toThrow(/Cannot include a '\?'/);
  });
});
