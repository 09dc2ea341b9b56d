import { describe, expect, it } from 'vitest';
import type { SitePages } from '~/sanity/queries/site';
import { buildDiagnostics } from './diagnostics.server';

const content = (lang: 'en' | 'ar'): SitePages => ({
  site: {
    brandName: lang === 'en' ? 'Brand' : 'العلامة',
    title: lang === 'en' ? 'Brand | Default' : 'العلامة | افتراضي',
    description: lang === 'en' ? 'Default' : 'افتراضي',
  },
  home: { title: null, description: null, lastmod: null },
  about: {
    title: lang === 'en' ? 'About us' : 'من نحن',
    description: lang === 'en' ? 'Who we are' : 'من نحن وصف',
    lastmod: null,
  },
  landings: [],
  legal: [],
  posts: [],
  categories: [],
  tags: [],
  caseStudies: [],
});

describe('buildDiagnostics', () => {
  it('gives each page its title, description, canonical and alternates in both languages, and its missing Arabic', () => {
    const result = buildDiagnostics({
      pages: [
        { routeId: 'home', path: '/', lastmod: null },
        { routeId: 'about', path: '/about', lastmod: null },
      ],
      content: { en: content('en'), ar: content('ar') },
      documents: [
        { _id: 'aboutPage', _type: 'aboutPage', intro: { _type: 'localeText', en: 'Hi', ar: '' } },
        { _id: 'siteSettings', _type: 'siteSettings', tagline: { _type: 'localeText', en: 'Hi', ar: '' } },
      ],
      siteUrl: 'https://x.test',
    });
    const [home, about] = result.rows;
    expect(home.entries[0]).toMatchObject({
      locale: 'en',
      title: 'Brand | Default',
      description: 'Default',
      defaultDescription: true,
      canonical: 'https://x.test/',
    });
    expect(home.entries[1]).toMatchObject({ locale: 'ar', title: 'العلامة | افتراضي', canonical: 'https://x.test/ar' });
    expect(about.entries[0]).toMatchObject({
      title: 'About us | Brand',
      description: 'Who we are',
      defaultDescription: false,
      canonical: 'https://x.test/about',
    });
    expect(about.entries[1].alternates).toEqual([
      { hreflang: 'en', href: 'https://x.test/about' },
      { hreflang: 'ar', href: 'https://x.test/ar/about' },
      { hreflang: 'x-default', href: 'https://x.test/about' },
    ]);
    expect(about.missingArabic).toEqual([{ documentId: 'aboutPage', documentType: 'aboutPage', field: 'intro' }]);
    expect(home.missingArabic).toEqual([]);
    expect(result.other).toEqual([{ documentId: 'siteSettings', documentType: 'siteSettings', field: 'tagline' }]);
  });
});
