/**
 * The SEO diagnostics table: for every public URL (both languages) the title, description,
 * canonical and alternates that the page's meta would carry, and the untranslated fields.
 * Titles and descriptions follow pageMeta's rule over the CMS sources (seo fields, then the
 * document's title / intro, then the site default), through the same seoMeta builder.
 */
import { locales, type Locale } from '~/i18n';
import { seoMeta } from '~/lib/seo';
import type { SitePages } from '~/sanity/queries/site';
import { missingArabicByPage, type ContentDocument, type MissingField } from './missing-arabic';
import { seoSourceFor, type SitePage } from './site-urls.server';

export { DESCRIPTION_MAX, TITLE_MAX } from './limits';

export type DiagnosticsEntry = {
  locale: Locale;
  url: string;
  title: string;
  description: string | null;
  /** True when the page has no description of its own and the site default is used. */
  defaultDescription: boolean;
  canonical: string;
  alternates: { hreflang: string; href: string }[];
};
export type DiagnosticsRow = {
  path: string;
  routeId: string;
  entries: DiagnosticsEntry[];
  missingArabic: MissingField[];
};
export type Diagnostics = { rows: DiagnosticsRow[]; other: MissingField[] };

type Meta = Record<string, unknown>;

export function buildDiagnostics(input: {
  pages: readonly SitePage[];
  content: Record<Locale, SitePages>;
  documents: readonly ContentDocument[];
  siteUrl: string;
}): Diagnostics {
  const { pages, content, documents, siteUrl } = input;
  const missing = missingArabicByPage(
    documents,
    pages.map((p) => p.path),
  );
  const rows = pages.map((page) => ({
    path: page.path,
    routeId: page.routeId,
    missingArabic: missing.byPath.get(page.path) ?? [],
    entries: locales.map((locale): DiagnosticsEntry => {
      const data = content[locale];
      const source = seoSourceFor(page, data);
      const brandName = data.site.brandName;
      const meta = seoMeta({
        title: source?.title || data.site.title || brandName,
        description: source?.description ?? data.site.description,
        path: page.path,
        locale,
        siteUrl,
        brandName,
      }) as Meta[];
      const link = (rel: string) => meta.filter((m) => m.tagName === 'link' && m.rel === rel);
      return {
        locale,
        url: String(link('canonical')[0]?.href ?? ''),
        title: String(meta.find((m) => 'title' in m)?.title ?? ''),
        description: (meta.find((m) => m.name === 'description')?.content as string | undefined) ?? null,
        defaultDescription: !source?.description,
        canonical: String(link('canonical')[0]?.href ?? ''),
        alternates: link('alternate').map((m) => ({ hreflang: String(m.hrefLang), href: String(m.href) })),
      };
    }),
  }));
  return { rows, other: missing.other };
}
