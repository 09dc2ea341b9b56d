import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedContentClient } from '~/sanity/embedded.server';
import { CONTENT_DOCUMENTS_QUERY, CONTENT_TYPES } from '~/sanity/queries/site';
import { landingPagePaths, routeTable } from '~/route-table.js';
import { LANDING_PAGE_KEYS } from '../../../schemas/constants';
import { landingPage } from '../../../schemas/documents/site';
import { LANDING_PAGE_PATHS } from '../../../studio/presentation-locations';
import { missingArabicByPage, pagePathOf } from './missing-arabic';

const ls = (en: string, ar: string) => ({ _type: 'localeString', en, ar });

describe('landing pages: one key -> path table, from app/route-table.js', () => {
  it('gives every landing key a page of the route table, and the report, Studio preview and Presentation agree', () => {
    const keys = LANDING_PAGE_KEYS.map((option) => option.value);
    expect(Object.keys(landingPagePaths).sort()).toEqual([...keys].sort());
    const prepare = landingPage.preview?.prepare as (value: { title?: string; key?: string }) => { subtitle?: string };
    for (const key of keys) {
      const route = routeTable.find((r) => r.landingKey === key);
      const path = landingPagePaths[key];
      // The route's path without its optional parameter: booking-confirmation/:bookingId? -> /booking-confirmation.
      expect(`/${route?.path}`.startsWith(path), key).toBe(true);
      expect(path, key).not.toContain(':');
      expect(pagePathOf({ _id: `landingPage-${key}`, _type: 'landingPage', key }), key).toBe(path);
      expect(LANDING_PAGE_PATHS[key], key).toBe(path);
      expect(prepare({ title: 'x', key }).subtitle, key).toBe(path);
    }
    expect(landingPagePaths.bookingConfirmation).toBe('/booking-confirmation');
  });
});

describe('pagePathOf', () => {
  it('maps each document type to the page that shows it', () => {
    expect(pagePathOf({ _id: 'homePage', _type: 'homePage' })).toBe('/');
    expect(pagePathOf({ _id: 'statistic-x', _type: 'statistic' })).toBe('/');
    expect(pagePathOf({ _id: 'aboutPage', _type: 'aboutPage' })).toBe('/about');
    expect(pagePathOf({ _id: 'landingPage-caseStudies', _type: 'landingPage', key: 'caseStudies' })).toBe(
      '/case-studies',
    );
    expect(pagePathOf({ _id: 'service-operations', _type: 'service' })).toBe('/services');
    expect(pagePathOf({ _id: 'package-starter', _type: 'packagePlan' })).toBe('/pricing');
    expect(pagePathOf({ _id: 'faqItem-x', _type: 'faqItem' })).toBe('/faq');
    expect(
      pagePathOf({
        _id: 'legalPage-privacy-policy',
        _type: 'legalPage',
        slug: { _type: 'slug', current: 'privacy-policy' },
      }),
    ).toBe('/privacy-policy');
    expect(pagePathOf({ _id: 'blogPost-a', _type: 'blogPost', slug: 'a' })).toBe('/blog/a');
    expect(pagePathOf({ _id: 'blogTag-uae', _type: 'blogTag', slug: 'uae' })).toBe('/blog/tag/uae');
    expect(pagePathOf({ _id: 'blogCategory-legal', _type: 'blogCategory', slug: 'legal' })).toBe(
      '/blog/category/legal',
    );
    expect(pagePathOf({ _id: 'caseStudy-a', _type: 'caseStudy', slug: 'a' })).toBe('/case-studies/a');
    expect(pagePathOf({ _id: 'siteSettings', _type: 'siteSettings' })).toBeNull();
    expect(pagePathOf({ _id: 'office-dubai', _type: 'office' })).toBeNull();
    expect(pagePathOf({ _id: 'blogPost-b', _type: 'blogPost' })).toBeNull();
  });
});

describe('missingArabicByPage', () => {
  const docs = [
    {
      _id: 'homePage',
      _type: 'homePage',
      hero: {
        headline: ls('Grow in the UAE', ''),
        reasons: [
          { _key: 'k1', ...ls('Tax', 'ضريبة') },
          { _key: 'k2', ...ls('Hub', '  ') },
        ],
      },
    },
    {
      _id: 'faqItem-a',
      _type: 'faqItem',
      question: ls('Q?', 'س؟'),
      answer: { _type: 'localeText', en: 'A.', ar: 'ج.' },
    },
    { _id: 'faqItem-b', _type: 'faqItem', question: ls('Q2?', ''), answer: { _type: 'localeText', en: 'A2.' } },
    { _id: 'siteSettings', _type: 'siteSettings', tagline: { _type: 'localeText', en: 'We help', ar: null } },
    {
      _id: 'landingPage-bookingConfirmation',
      _type: 'landingPage',
      key: 'bookingConfirmation',
      title: ls('Booked', ''),
    },
    {
      _id: 'legalPage-terms-of-service',
      _type: 'legalPage',
      slug: 'terms-of-service',
      body: {
        _type: 'localeBlockContent',
        en: [{ _type: 'block', _key: 'b', children: [{ _type: 'span', text: 'Terms' }] }],
        ar: [{ _type: 'block', _key: 'c', children: [{ _type: 'span', text: '' }] }],
      },
      title: ls('', ''),
    },
  ];

  it('groups the untranslated fields by public page, and the rest as other', () => {
    const report = missingArabicByPage(docs, ['/', '/faq', '/terms-of-service']);
    expect(report.byPath.get('/')).toEqual([
      { documentId: 'homePage', documentType: 'homePage', field: 'hero.headline' },
      { documentId: 'homePage', documentType: 'homePage', field: 'hero.reasons[1]' },
    ]);
    expect(report.byPath.get('/faq')).toEqual([
      { documentId: 'faqItem-b', documentType: 'faqItem', field: 'question' },
      { documentId: 'faqItem-b', documentType: 'faqItem', field: 'answer' },
    ]);
    // Empty in both languages is not a missing translation; Portable Text with blank spans is empty.
    expect(report.byPath.get('/terms-of-service')).toEqual([
      { documentId: 'legalPage-terms-of-service', documentType: 'legalPage', field: 'body' },
    ]);
    expect(report.other).toEqual([
      { documentId: 'siteSettings', documentType: 'siteSettings', field: 'tagline' },
      { documentId: 'landingPage-bookingConfirmation', documentType: 'landingPage', field: 'title' },
    ]);
  });

  it('reports nothing for a fully translated set', () => {
    const report = missingArabicByPage([docs[1]], ['/faq']);
    expect(report.byPath.size).toBe(0);
    expect(report.other).toEqual([]);
  });
});

describe('against the bundled dataset', () => {
  const client = new EmbeddedContentClient({
    datasetFile: path.resolve('studio/dataset/production.ndjson'),
    dataDir: path.resolve('test-results/missing-arabic-unit'),
  });
  afterAll(() => client.close());

  it('reads every content document, and the bundled content is fully translated', async () => {
    const docs = CONTENT_DOCUMENTS_QUERY.schema.parse(
      await client.fetch(
        CONTENT_DOCUMENTS_QUERY.query,
        { lang: 'en', types: [...CONTENT_TYPES] },
        { perspective: 'published' },
      ),
    );
    expect(docs.length).toBeGreaterThan(80);
    expect(docs.some((d) => d._id.startsWith('drafts.'))).toBe(false);
    const report = missingArabicByPage(
      docs,
      docs.map(pagePathOf).filter((p): p is string => p !== null),
    );
    expect([...report.byPath.values()].flat()).toEqual([]);
  });
});
