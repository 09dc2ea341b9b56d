/**
 * The list of public URLs of the site, built from the route table (static pages) and the
 * CMS (slugs of posts, categories, tags and case studies). Pure: it feeds the sitemap and
 * the SEO diagnostics page, which fetch the content and pass it in.
 */
import { localizePath, locales, type Locale } from '~/i18n';
import { routeTable as declaredRoutes } from '~/route-table';
import type { SeoSource, SitePages } from '~/sanity/queries/site';

export type RouteEntry = {
  id: string;
  path?: string;
  index?: boolean;
  file: string;
  private?: boolean;
  noindex?: boolean;
};

/**
 * A route whose pages belong in the sitemap, read from the route table's flags: a page (not a
 * redirect or resource), neither of the portal (`private`: personal, noindex, often a redirect to
 * sign-in) nor asking not to be indexed (`noindex`: diagnostics, a booking's confirmation).
 */
export const isIndexableRoute = (route: RouteEntry) =>
  route.file.startsWith('pages/') && !route.private && !route.noindex;

/** Dynamic routes and the CMS list whose slugs fill their one parameter. */
const DYNAMIC_SOURCES = {
  'case-study': 'caseStudies',
  'blog-post': 'posts',
  'blog-category': 'categories',
  'blog-tag': 'tags',
} as const satisfies Record<string, keyof SitePages>;

/** Static routes backed by a landing page document (landingPage.key). */
const LANDING_KEYS: Record<string, string> = {
  services: 'services',
  pricing: 'pricing',
  faq: 'faq',
  blog: 'blog',
  'case-studies': 'caseStudies',
};
const LEGAL_IDS = new Set(['privacy-policy', 'terms-of-service', 'cookies-policy']);

export type SitePage = {
  /** The route table id, e.g. "blog-post". */
  routeId: string;
  /** Path without the language prefix, e.g. "/blog/uae-vat-registration-guide". */
  path: string;
  /** The slug for dynamic routes. */
  slug?: string;
  /** Last modification (ISO date or datetime) where the CMS knows it. */
  lastmod: string | null;
};

/** The CMS document whose SEO fields (and date) stand for a page, if any. */
export function seoSourceFor(page: Pick<SitePage, 'routeId' | 'slug'>, data: SitePages): SeoSource | null {
  const { routeId, slug } = page;
  if (routeId === 'home') return data.home;
  if (routeId === 'about') return data.about;
  if (LANDING_KEYS[routeId]) return data.landings.find((l) => l.key === LANDING_KEYS[routeId]) ?? null;
  if (LEGAL_IDS.has(routeId)) return data.legal.find((l) => l.slug === routeId) ?? null;
  const list = DYNAMIC_SOURCES[routeId as keyof typeof DYNAMIC_SOURCES];
  if (list && slug) return data[list].find((d) => d.slug === slug) ?? null;
  return null;
}

/** A sitemap-valid date: the CMS's ISO date or datetime, or null when it is not a date. */
export function normalizeLastmod(value: string | null | undefined): string | null {
  if (!value) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

const isSafeSlug = (slug: string) => /^[\p{L}\p{N}_-]+$/u.test(slug);

/** Every indexable public page (one entry per path, language-neutral), in route-table order. */
export function publicPages(data: SitePages, routes: readonly RouteEntry[] = declaredRoutes): SitePage[] {
  const pages: SitePage[] = [];
  const seen = new Set<string>();
  const add = (page: Omit<SitePage, 'lastmod'>) => {
    if (seen.has(page.path)) return;
    seen.add(page.path);
    pages.push({ ...page, lastmod: normalizeLastmod(seoSourceFor(page, data)?.lastmod) });
  };
  for (const route of routes) {
    if (!isIndexableRoute(route)) continue;
    if (route.index) {
      add({ routeId: route.id, path: '/' });
      continue;
    }
    const path = route.path ?? '';
    if (!path.includes(':')) {
      add({ routeId: route.id, path: `/${path}` });
      continue;
    }
    // A dynamic route is public only for the slugs the CMS has; others are 404s.
    const list = DYNAMIC_SOURCES[route.id as keyof typeof DYNAMIC_SOURCES];
    if (!list) continue;
    for (const item of data[list] as { slug: string; postCount?: number }[]) {
      const { slug } = item;
      // A category or tag without articles is a noindex page (blog issue): not in the sitemap.
      if (!isSafeSlug(slug) || item.postCount === 0) continue;
      add({ routeId: route.id, path: `/${path.replace(/:[A-Za-z]+\??/, encodeURIComponent(slug))}`, slug });
    }
  }
  return pages;
}

export type Alternates = Record<Locale | 'x-default', string>;

/** Absolute URLs of a page in each language, plus x-default (English). */
export function alternatesFor(path: string, siteUrl: string): Alternates {
  const base = siteUrl.replace(/\/$/, '');
  const en = base + localizePath(path, 'en');
  return { en, ar: base + localizePath(path, 'ar'), 'x-default': en };
}

export type SiteUrl = SitePage & { locale: Locale; loc: string; alternates: Alternates };

/** Every public URL: each page twice, English then Arabic. */
export function siteUrls(pages: readonly SitePage[], siteUrl: string): SiteUrl[] {
  return pages.flatMap((page) => {
    const alternates = alternatesFor(page.path, siteUrl);
    return locales.map((locale) => ({ ...page, locale, loc: alternates[locale], alternates }));
  });
}

const escapeXml = (value: string) =>
  value.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** sitemap.xml: every URL with its hreflang alternates (en, ar, x-default) and lastmod where known. */
export function sitemapXml(urls: readonly SiteUrl[]): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
  ];
  for (const url of urls) {
    lines.push('  <url>', `    <loc>${escapeXml(url.loc)}</loc>`);
    if (url.lastmod) lines.push(`    <lastmod>${escapeXml(url.lastmod)}</lastmod>`);
    for (const [hreflang, href] of Object.entries(url.alternates)) {
      lines.push(`    <xhtml:link rel="alternate" hreflang="${hreflang}" href="${escapeXml(href)}"/>`);
    }
    lines.push('  </url>');
  }
  lines.push('</urlset>', '');
  return lines.join('\n');
}
