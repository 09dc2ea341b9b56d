import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { routeTable } from '~/route-table';
import { EmbeddedContentClient } from '~/sanity/embedded.server';
import { SITE_PAGES_QUERY, type SitePages } from '~/sanity/queries/site';
import {
  alternatesFor,
  normalizeLastmod,
  publicPages,
  sitemapXml,
  siteUrls,
  type RouteEntry,
} from './site-urls.server';

const src = (title: string, lastmod: string | null = null) => ({ title, description: null, lastmod });
const data: SitePages = {
  site: { brandName: 'Brand', title: 'Default', description: 'Default description' },
  home: src('Home', '2026-10-01T08:00:00Z'),
  about: src('About'),
  landings: [{ key: 'faq', ...src('FAQ', '2026-09-09T00:00:00Z') }],
  legal: [{ slug: 'privacy-policy', ...src('Privacy', '2026-11-01') }],
  posts: [
    { slug: 'first-post', ...src('First', '2026-05-01T06:00:00.000Z') },
    { slug: 'bad slug/../x', ...src('Bad') },
  ],
  categories: [
    { slug: 'market_insights', postCount: 2, ...src('Market') },
    { slug: 'empty', postCount: 0, ...src('Empty') },
  ],
  tags: [
    { slug: 'uae', postCount: 1, ...src('UAE') },
    { slug: 'nothing', postCount: 0, ...src('Nothing') },
  ],
  caseStudies: [{ slug: 'fintech-launch-uae', ...src('Fintech', 'not a date') }],
};

const routes: RouteEntry[] = [
  { id: 'home', index: true, file: 'pages/home.tsx' },
  { id: 'about', path: 'about', file: 'pages/about.tsx' },
  { id: 'faq', path: 'faq', file: 'pages/faq.tsx' },
  { id: 'case-study', path: 'case-studies/:slug', file: 'pages/case-study.tsx' },
  { id: 'blog-category', path: 'blog/category/:categorySlug', file: 'pages/blog-category.tsx' },
  { id: 'blog-tag', path: 'blog/tag/:tagSlug', file: 'pages/blog-tag.tsx' },
  { id: 'blog-post', path: 'blog/:slug', file: 'pages/blog-post.tsx' },
  { id: 'privacy-policy', path: 'privacy-policy', file: 'pages/legal.tsx' },
  {
    id: 'booking-confirmation',
    path: 'booking-confirmation/:bookingId?',
    file: 'pages/booking-confirmation.tsx',
    noindex: true,
  },
  { id: 'seo-diagnostics', path: 'seo-diagnostics', file: 'pages/seo-diagnostics.tsx', noindex: true },
  { id: 'account', path: 'account', file: 'pages/account.tsx', private: true },
  { id: 'account-subscription', path: 'account/subscription', file: 'pages/account-subscription.tsx', private: true },
  { id: 'contact', path: 'contact', file: 'resources/redirects.ts' },
  { id: 'unknown-dynamic', path: 'things/:id', file: 'pages/things.tsx' },
];

describe('public pages', () => {
  it('lists static pages and one page per CMS slug, without noindex or portal pages, redirects, unknown dynamic routes or empty categories and tags', () => {
    const pages = publicPages(data, routes);
    expect(pages.map((p) => p.path)).toEqual([
      '/',
      '/about',
      '/faq',
      '/case-studies/fintech-launch-uae',
      '/blog/category/market_insights',
      '/blog/tag/uae',
      '/blog/first-post',
      '/privacy-policy',
    ]);
  });

  it('dates pages from their CMS document where known', () => {
    const byPath = Object.fromEntries(publicPages(data, routes).map((p) => [p.path, p.lastmod]));
    expect(byPath['/']).toBe('2026-10-01T08:00:00.000Z');
    expect(byPath['/faq']).toBe('2026-09-09T00:00:00.000Z');
    expect(byPath['/privacy-policy']).toBe('2026-11-01');
    expect(byPath['/blog/first-post']).toBe('2026-05-01T06:00:00.000Z');
    expect(byPath['/about']).toBeNull();
    expect(byPath['/case-studies/fintech-launch-uae']).toBeNull();
  });

  it('uses the real route table by default', () => {
    const paths = publicPages(data).map((p) => p.path);
    expect(paths).toContain('/terms-of-service');
    expect(paths).toContain('/cookies-policy');
    expect(paths).toContain('/case-studies');
    expect(paths).not.toContain('/seo-diagnostics');
    expect(paths.some((p) => p.startsWith('/booking-confirmation'))).toBe(false);
    expect(paths.some((p) => p.includes(':'))).toBe(false);
    expect(paths).not.toContain('/contact');
    // The portal (private) is noindex and partly behind sign-in: none of it is listed.
    expect(paths.filter((p) => /^\/(account|checkout)(\/|$)/.test(p))).toEqual([]);
    expect(paths).toContain('/book');
    expect(
      routeTable.filter((r) => r.file.startsWith('pages/') && !r.path?.includes(':') && !r.private && !r.noindex)
        .length,
    ).toBe(paths.filter((p) => !/^\/(blog|case-studies)\/./.test(p)).length);
  });

  it('normalizes dates', () => {
    expect(normalizeLastmod('2026-11-01')).toBe('2026-11-01');
    expect(normalizeLastmod('2026-11-01T10:00:00+04:00')).toBe('2026-11-01T06:00:00.000Z');
    expect(normalizeLastmod('garbage')).toBeNull();
    expect(normalizeLastmod(null)).toBeNull();
  });
});

describe('site URLs and sitemap', () => {
  it('gives every page in both languages with en, ar and x-default alternates', () => {
    expect(alternatesFor('/', 'https://x.test/')).toEqual({
      en: 'https://x.test/',
      ar: 'https://x.test/ar',
      'x-default': 'https://x.test/',
    });
    const urls = siteUrls(publicPages(data, routes), 'https://x.test');
    expect(urls).toHaveLength(16);
    expect(urls.slice(0, 4).map((u) => [u.locale, u.loc])).toEqual([
      ['en', 'https://x.test/'],
      ['ar', 'https://x.test/ar'],
      ['en', 'https://x.test/about'],
      ['ar', 'https://x.test/ar/about'],
    ]);
    expect(urls[3].alternates).toEqual({
      en: 'https://x.test/about',
      ar: 'https://x.test/ar/about',
      'x-default': 'https://x.test/about',
    });
  });

  it('writes sitemap XML with escaped URLs, alternates and lastmod', () => {
    const xml = sitemapXml(siteUrls(publicPages(data, routes), 'https://x.test'));
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
      ),
    ).toBe(true);
    expect(xml.match(/<url>/g)).toHaveLength(16);
    expect(xml).toContain(
      '<loc>https://x.test/ar/blog/first-post</loc>\n    <lastmod>2026-05-01T06:00:00.000Z</lastmod>',
    );
    expect(xml).toContain('<xhtml:link rel="alternate" hreflang="x-default" href="https://x.test/blog/tag/uae"/>');
    expect(xml.match(/hreflang="ar"/g)).toHaveLength(16);
    const odd = sitemapXml([
      {
        routeId: 'x',
        path: '/a&b',
        lastmod: null,
        locale: 'en',
        loc: 'https://x.test/a&b',
        alternates: { en: 'https://x.test/a&b', ar: 'https://x.test/ar/a&b', 'x-default': 'https://x.test/a&b' },
      },
    ]);
    expect(odd).toContain('<loc>https://x.test/a&amp;b</loc>');
    expect(odd).not.toContain('<lastmod>');
  });
});

describe('against the bundled dataset', () => {
  const client = new EmbeddedContentClient({
    datasetFile: path.resolve('studio/dataset/production.ndjson'),
    dataDir: path.resolve('test-results/site-urls-unit'),
  });
  afterAll(() => client.close());

  it('lists every published post, category, tag and case study, and no drafts', async () => {
    const live = SITE_PAGES_QUERY.schema.parse(
      await client.fetch(SITE_PAGES_QUERY.query, { lang: 'en' }, { perspective: 'published' }),
    );
    const paths = publicPages(live).map((p) => p.path);
    expect(paths.filter((p) => p.startsWith('/blog/category/'))).toHaveLength(6);
    expect(paths.filter((p) => p.startsWith('/blog/tag/'))).toHaveLength(11);
    expect(paths.filter((p) => /^\/case-studies\/./.test(p))).toHaveLength(4);
    expect(paths).toContain('/blog/uae-vat-registration-guide');
    expect(paths).not.toContain('/blog/first-90-days-after-your-uae-licence');
    expect(new Set(paths).size).toBe(paths.length);
    const privacy = publicPages(live).find((p) => p.path === '/privacy-policy');
    expect(privacy?.lastmod).toMatch(/^\d{4}-\d{2}-\d{2}/);
  });
});
