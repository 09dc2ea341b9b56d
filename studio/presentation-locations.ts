/**
 * Where each document type appears on the site, for the Presentation tool (sanity.config.ts):
 * `resolve.locations` (document -> pages, both languages) and `resolve.mainDocuments`
 * (page -> the document it is about). Pure data and functions, no Sanity runtime imports, so
 * schemas/presentation-locations.test.ts checks every href against app/route-table.js.
 *
 * URLs: English at the path, Arabic at /ar + the same path (see app/route-table.js).
 * hrefs are site paths; the Presentation tool resolves them against its preview origin.
 */
import { landingPagePaths } from '../app/route-table.js';
import { LEGAL_PAGE_SLUGS } from '../schemas/constants';
import type {
  DocumentLocation,
  DocumentLocationResolvers,
  DocumentLocationsState,
  DocumentResolver,
} from 'sanity/presentation';

/** Site path of a page in a language: "/blog" -> "/ar/blog"; "/" -> "/ar". */
export function localizedPath(path: string, language: 'en' | 'ar'): string {
  if (language === 'en') return path;
  if (path === '/') return '/ar';
  if (path.startsWith('/#')) return `/ar${path.slice(1)}`;
  return `/ar${path}`;
}

/** What a resolver sees: the selected fields (always these names, whatever the type). */
export interface LocationFields {
  titleEn?: string | null;
  titleAr?: string | null;
  slug?: string | null;
  key?: string | null;
  anchor?: string | null;
}

/** A page of the site: its English path and what to call it in the list. */
export interface SitePage {
  path: string;
  /** Shown after the document title, e.g. "Blog list". Omitted: the document's own page. */
  label?: string;
}

/** landingPage.key -> its page, from `landingKey` in app/route-table.js. */
export const LANDING_PAGE_PATHS: Readonly<Record<string, string>> = landingPagePaths;

const HOME: SitePage = { path: '/', label: 'Home page' };

/**
 * For each document type on the site: which fields to select and which pages show it (the
 * document's own page first). `null` pages: the document is not complete enough to have a URL yet.
 */
interface TypeLocations {
  /** Field that holds the English/Arabic title (a locale object). */
  title: string;
  /** Extra fields to select, by LocationFields name. */
  select?: Partial<Record<'slug' | 'key' | 'anchor', string>>;
  pages: (fields: LocationFields) => SitePage[] | null;
  /** Shown above the list, e.g. for documents used on every page. */
  message?: string;
}

const slugPage = (prefix: string, list?: SitePage) => (fields: LocationFields) =>
  fields.slug ? [{ path: `${prefix}${fields.slug}` }, ...(list ? [list] : [])] : null;

export const TYPE_LOCATIONS: Record<string, TypeLocations> = {
  siteSettings: {
    title: 'brandName',
    pages: () => [HOME],
    message: 'Site settings are used on every page (header, footer, chat and booking buttons).',
  },
  office: { title: 'city', pages: () => [HOME], message: 'Offices are shown in the footer of every page.' },
  homePage: { title: 'hero.headline', pages: () => [{ path: '/' }] },
  aboutPage: { title: 'title', pages: () => [{ path: '/about' }] },
  landingPage: {
    title: 'title',
    select: { key: 'key' },
    pages: ({ key }) => (key && LANDING_PAGE_PATHS[key] ? [{ path: LANDING_PAGE_PATHS[key] }] : null),
  },
  legalPage: { title: 'title', select: { slug: 'slug.current' }, pages: slugPage('/') },
  service: {
    title: 'title',
    select: { anchor: 'anchor' },
    pages: ({ anchor }) => [
      { path: anchor ? `/services#${anchor}` : '/services' },
      { ...HOME, label: 'Home page (service cards)' },
    ],
  },
  companySetupOption: { title: 'title', pages: () => [{ path: '/services', label: 'Services page (company setup)' }] },
  packagePlan: { title: 'name', pages: () => [{ path: '/pricing' }] },
  caseStudy: {
    title: 'title',
    select: { slug: 'slug.current' },
    pages: slugPage('/case-studies/', { path: '/case-studies', label: 'Case studies list' }),
  },
  blogPost: {
    title: 'title',
    select: { slug: 'slug.current' },
    pages: slugPage('/blog/', { path: '/blog', label: 'Blog list' }),
  },
  blogCategory: { title: 'title', select: { slug: 'slug.current' }, pages: slugPage('/blog/category/') },
  blogTag: { title: 'title', select: { slug: 'slug.current' }, pages: slugPage('/blog/tag/') },
  faqCategory: { title: 'title', pages: () => [{ path: '/faq' }] },
  faqItem: { title: 'question', pages: () => [{ path: '/faq' }] },
  testimonial: { title: 'author', pages: () => [HOME] },
  statistic: { title: 'label', pages: () => [HOME] },
  indicator: { title: 'metric', pages: () => [HOME] },
};

/**
 * The locations of one document: every page that shows it, English then Arabic. Pure: the
 * Presentation tool calls it with the fields selected by `select`.
 */
export function resolveLocations(type: string, fields: LocationFields | null): DocumentLocationsState | null {
  const config = TYPE_LOCATIONS[type];
  if (!config || !fields) return null;
  const pages = config.pages(fields);
  if (!pages)
    return { message: 'Add the slug or key first: this document has no page on the site yet.', tone: 'caution' };
  const titleEn = fields.titleEn || 'Untitled';
  const titleAr = fields.titleAr || titleEn;
  const locations: DocumentLocation[] = pages.flatMap((page) => [
    { title: page.label ? `${page.label} (English)` : `${titleEn} (English)`, href: localizedPath(page.path, 'en') },
    { title: page.label ? `${page.label} (العربية)` : `${titleAr} (العربية)`, href: localizedPath(page.path, 'ar') },
  ]);
  return config.message ? { locations, message: config.message, tone: 'positive' } : { locations };
}

/** The `resolve.locations` option: one select/resolve pair per document type. */
export function locationResolvers(): DocumentLocationResolvers {
  return Object.fromEntries(
    Object.entries(TYPE_LOCATIONS).map(([type, config]) => [
      type,
      {
        select: { titleEn: `${config.title}.en`, titleAr: `${config.title}.ar`, ...config.select },
        resolve: (value: Record<string, unknown> | null) => resolveLocations(type, value as LocationFields | null),
      },
    ]),
  );
}

/**
 * The `resolve.mainDocuments` option: when the preview shows a page, the document it is about
 * opens beside it. Routes are listed for both languages; the first matching entry wins.
 */
export function mainDocumentResolvers(): DocumentResolver[] {
  const pages: { route: string[]; filter: string }[] = [
    { route: ['/'], filter: `_id == "homePage"` },
    { route: ['/about'], filter: `_id == "aboutPage"` },
    ...Object.entries(LANDING_PAGE_PATHS).map(([key, path]) => ({
      route: key === 'bookingConfirmation' ? [path, `${path}/:bookingId`] : [path],
      filter: `_type == "landingPage" && key == "${key}"`,
    })),
    ...LEGAL_PAGE_SLUGS.map(({ value }) => ({
      route: [`/${value}`],
      filter: `_type == "legalPage" && slug.current == "${value}"`,
    })),
    { route: ['/blog/category/:slug'], filter: `_type == "blogCategory" && slug.current == $slug` },
    { route: ['/blog/tag/:slug'], filter: `_type == "blogTag" && slug.current == $slug` },
    { route: ['/blog/:slug'], filter: `_type == "blogPost" && slug.current == $slug` },
    { route: ['/case-studies/:slug'], filter: `_type == "caseStudy" && slug.current == $slug` },
  ];
  return pages.map(({ route, filter }) => ({
    route: route.flatMap((path) => [path, localizedPath(path, 'ar')]),
    filter,
  }));
}
