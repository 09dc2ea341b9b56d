/** The Presentation tool's location map (studio/presentation-locations.ts) against the site's routes. */
import { describe, expect, it } from 'vitest';
import { routeTable } from '../app/route-table.js';
import {
  LANDING_PAGE_PATHS,
  locationResolvers,
  localizedPath,
  mainDocumentResolvers,
  resolveLocations,
  TYPE_LOCATIONS,
  type LocationFields,
} from '../studio/presentation-locations';
import { documentTypeNames, LANDING_PAGE_KEYS, LEGAL_PAGE_SLUGS, SERVICE_ANCHOR_BY_KEY } from './index';

/** English route patterns of the site's pages, as regular expressions (":param" one segment, "?" optional). */
const pagePatterns = routeTable
  .filter((route) => !route.file.startsWith('resources/'))
  .map((route) => {
    if (route.index) return /^$/;
    const source = (route.path ?? '')
      .split('/')
      .map((segment, index) => {
        const prefix = index === 0 ? '' : '/';
        if (segment.startsWith(':')) return segment.endsWith('?') ? `(?:${prefix}[^/]+)?` : `${prefix}[^/]+`;
        return `${prefix}${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
      })
      .join('');
    return new RegExp(`^${source}$`);
  });

/** True when an href (English or /ar, with or without #anchor) is a page of the route table. */
function isSitePage(href: string): boolean {
  const [pathname] = href.split('#');
  const english = pathname === '/ar' ? '/' : pathname.startsWith('/ar/') ? pathname.slice(3) : pathname;
  const relative = english.replace(/^\//, '');
  return pagePatterns.some((pattern) => pattern.test(relative));
}

const sample: Record<string, LocationFields> = {
  legalPage: { titleEn: 'Privacy policy', titleAr: 'سياسة الخصوصية', slug: 'privacy-policy' },
  landingPage: { titleEn: 'Pricing', titleAr: 'الأسعار', key: 'pricing' },
  service: { titleEn: 'Market entry', titleAr: 'دخول السوق', anchor: 'market-entry' },
  caseStudy: { titleEn: 'Tech startup', titleAr: 'شركة ناشئة', slug: 'tech-startup-dubai' },
  blogPost: { titleEn: 'Free zones', titleAr: 'المناطق الحرة', slug: 'free-zones-explained' },
  blogCategory: { titleEn: 'Finance', titleAr: 'المالية', slug: 'finance' },
  blogTag: { titleEn: 'Dubai', titleAr: 'دبي', slug: 'dubai' },
};
const fieldsFor = (type: string): LocationFields => sample[type] ?? { titleEn: 'Title', titleAr: 'العنوان' };

describe('localizedPath', () => {
  it('puts Arabic under /ar and keeps anchors', () => {
    expect(localizedPath('/blog/x', 'en')).toBe('/blog/x');
    expect(localizedPath('/blog/x', 'ar')).toBe('/ar/blog/x');
    expect(localizedPath('/', 'ar')).toBe('/ar');
    expect(localizedPath('/services#market-entry', 'ar')).toBe('/ar/services#market-entry');
  });
});

describe('document locations', () => {
  const siteTypes = documentTypeNames;

  it('covers every document type on the site', () => {
    expect(Object.keys(TYPE_LOCATIONS).sort()).toEqual([...siteTypes].sort());
    expect(Object.keys(locationResolvers()).sort()).toEqual([...siteTypes].sort());
  });

  it.each(documentTypeNames)('%s: both languages, every href a page of the site', (type) => {
    const state = resolveLocations(type, fieldsFor(type));
    const hrefs = state?.locations?.map((location) => location.href) ?? [];
    expect(hrefs.length).toBeGreaterThanOrEqual(2);
    for (const href of hrefs) expect(isSitePage(href), href).toBe(true);
    const english = hrefs.filter((href) => !href.startsWith('/ar'));
    const arabic = hrefs.filter((href) => href.startsWith('/ar'));
    expect(arabic).toEqual(english.map((href) => localizedPath(href, 'ar')));
  });

  it('gives the documented URLs', () => {
    const hrefs = (type: string, fields: LocationFields = fieldsFor(type)) =>
      resolveLocations(type, fields)?.locations?.map((location) => location.href);
    expect(hrefs('blogPost')).toEqual([
      '/blog/free-zones-explained',
      '/ar/blog/free-zones-explained',
      '/blog',
      '/ar/blog',
    ]);
    expect(hrefs('service')?.slice(0, 2)).toEqual(['/services#market-entry', '/ar/services#market-entry']);
    expect(hrefs('caseStudy')?.slice(0, 2)).toEqual([
      '/case-studies/tech-startup-dubai',
      '/ar/case-studies/tech-startup-dubai',
    ]);
    expect(hrefs('blogCategory')).toEqual(['/blog/category/finance', '/ar/blog/category/finance']);
    expect(hrefs('blogTag')).toEqual(['/blog/tag/dubai', '/ar/blog/tag/dubai']);
    expect(hrefs('legalPage')).toEqual(['/privacy-policy', '/ar/privacy-policy']);
    expect(hrefs('aboutPage')).toEqual(['/about', '/ar/about']);
    expect(hrefs('packagePlan')).toEqual(['/pricing', '/ar/pricing']);
    expect(hrefs('faqItem')).toEqual(['/faq', '/ar/faq']);
    expect(hrefs('faqCategory')).toEqual(['/faq', '/ar/faq']);
    expect(hrefs('companySetupOption')).toEqual(['/services', '/ar/services']);
    for (const type of ['homePage', 'testimonial', 'statistic', 'indicator', 'siteSettings', 'office']) {
      expect(hrefs(type), type).toEqual(['/', '/ar']);
    }
  });

  it('maps every landing page key and every service anchor', () => {
    expect(Object.keys(LANDING_PAGE_PATHS).sort()).toEqual(LANDING_PAGE_KEYS.map((option) => option.value).sort());
    expect(
      resolveLocations('landingPage', { titleEn: 'FAQ', key: 'caseStudies' })?.locations?.map((l) => l.href),
    ).toEqual(['/case-studies', '/ar/case-studies']);
    expect(resolveLocations('landingPage', { titleEn: 'x', key: 'bookingConfirmation' })?.locations?.[0].href).toBe(
      '/booking-confirmation',
    );
    for (const anchor of Object.values(SERVICE_ANCHOR_BY_KEY)) {
      expect(isSitePage(resolveLocations('service', { anchor })?.locations?.[0].href ?? '')).toBe(true);
    }
  });

  it('titles each location in its language, falling back to English', () => {
    const locations = resolveLocations('blogTag', { titleEn: 'Dubai', titleAr: null, slug: 'dubai' })?.locations;
    expect(locations?.map((location) => location.title)).toEqual(['Dubai (English)', 'Dubai (العربية)']);
    expect(resolveLocations('blogTag', fieldsFor('blogTag'))?.locations?.[1].title).toBe('دبي (العربية)');
  });

  it('says so when a document has no URL yet (no slug or key), and ignores unknown types', () => {
    expect(resolveLocations('blogPost', { titleEn: 'Draft' })).toMatchObject({
      tone: 'caution',
      message: expect.any(String),
    });
    expect(resolveLocations('landingPage', { titleEn: 'x', key: 'nope' })?.locations).toBeUndefined();
    expect(resolveLocations('faqQuestion', { titleEn: 'x' })).toBeNull();
    expect(resolveLocations('blogPost', null)).toBeNull();
  });

  it('marks site-wide documents as used on every page', () => {
    expect(resolveLocations('siteSettings', fieldsFor('siteSettings'))?.message).toMatch(/every page/);
    expect(resolveLocations('office', fieldsFor('office'))?.message).toMatch(/every page/);
  });

  it('selects the title in both languages plus the fields the URL needs', () => {
    const resolvers = locationResolvers() as Record<
      string,
      { select: Record<string, string>; resolve: (value: unknown) => unknown }
    >;
    expect(resolvers.blogPost.select).toEqual({ titleEn: 'title.en', titleAr: 'title.ar', slug: 'slug.current' });
    expect(resolvers.service.select).toEqual({ titleEn: 'title.en', titleAr: 'title.ar', anchor: 'anchor' });
    expect(resolvers.landingPage.select).toEqual({ titleEn: 'title.en', titleAr: 'title.ar', key: 'key' });
    expect(resolvers.homePage.select.titleEn).toBe('hero.headline.en');
    expect(resolvers.legalPage.resolve({ titleEn: 'T', slug: 'cookies-policy' })).toMatchObject({
      locations: [{ href: '/cookies-policy' }, { href: '/ar/cookies-policy' }],
    });
  });
});

describe('main documents', () => {
  const resolvers = mainDocumentResolvers();
  const routes = resolvers.flatMap((resolver) => (Array.isArray(resolver.route) ? resolver.route : [resolver.route]));

  it('lists each page route in both languages', () => {
    const english = routes.filter((route) => !route.startsWith('/ar'));
    expect(routes.filter((route) => route.startsWith('/ar')).sort()).toEqual(
      english.map((route) => localizedPath(route, 'ar')).sort(),
    );
    for (const route of routes) expect(isSitePage(route.replace(/:[a-zA-Z]+/g, 'x')), route).toBe(true);
  });

  it('covers the pages that are about one document', () => {
    for (const path of [
      '/',
      '/about',
      '/blog/:slug',
      '/case-studies/:slug',
      '/blog/category/:slug',
      '/blog/tag/:slug',
    ]) {
      expect(routes).toContain(path);
    }
    for (const { value } of LEGAL_PAGE_SLUGS) expect(routes).toContain(`/${value}`);
    for (const path of Object.values(LANDING_PAGE_PATHS)) expect(routes).toContain(path);
  });

  it('filters by type and slug/key', () => {
    const find = (route: string) =>
      resolvers.find((resolver) => (resolver.route as string[]).includes(route)) as { filter: string };
    expect(find('/ar/blog/:slug').filter).toBe('_type == "blogPost" && slug.current == $slug');
    expect(find('/pricing').filter).toBe('_type == "landingPage" && key == "pricing"');
    expect(find('/ar').filter).toBe('_id == "homePage"');
  });
});
