/** The Studio configuration in studio/: menu coverage, language filter, singleton rules. */
import { describe, expect, it } from 'vitest';
import { DESK_GROUPS } from '../studio/desk';
import { filterLocaleField, languageFilterOptions } from '../studio/language';
import { documentTypeNames, singletonTypes } from './index';

describe('desk structure', () => {
  const listed = DESK_GROUPS.flatMap((group) => group.items.map((item) => item.type));

  it('lists every document type exactly once', () => {
    expect([...listed].sort()).toEqual([...documentTypeNames].sort());
  });

  it('has the groups marketing staff expect, in order', () => {
    expect(DESK_GROUPS.map((group) => group.title)).toEqual([
      'Site & pages',
      'Services & packages',
      'Insights',
      'Case studies',
      'FAQ',
      'Home blocks',
    ]);
  });

  it("opens singletons directly, and has no submissions (they live in the firm's database, not the CMS)", () => {
    const items = DESK_GROUPS.flatMap((group) => group.items.map((item) => ({ ...item, group: group.id })));
    expect(
      items
        .filter((item) => item.singleton)
        .map((item) => item.type)
        .sort(),
    ).toEqual([...singletonTypes].sort());
    expect(items.map((item) => item.type)).not.toContain('faqQuestion');
    expect(items.map((item) => item.type)).not.toContain('newsletterSignup');
    expect(DESK_GROUPS.map((group) => group.id)).not.toContain('inbox');
  });
});

describe('language filter', () => {
  const member = (name: string) => ({ name }) as never;
  const type = (name: string, parent?: { name: string }) => ({ name, type: parent }) as never;

  it('offers English and Arabic (in Arabic script), with neither pinned', () => {
    expect(languageFilterOptions.supportedLanguages).toEqual([
      { id: 'en', title: 'English' },
      { id: 'ar', title: 'العربية' },
    ]);
    expect(languageFilterOptions.defaultLanguages).toEqual([]);
  });

  it('is enabled on every document type with localized fields', () => {
    expect(languageFilterOptions.documentTypes).toContain('homePage');
  });

  it('hides only the unselected language of locale objects', () => {
    for (const localeType of ['localeString', 'localeText', 'localeBlockContent']) {
      expect(filterLocaleField(type(localeType), member('ar'), ['en'], undefined)).toBe(false);
      expect(filterLocaleField(type(localeType), member('en'), ['en'], undefined)).toBe(true);
      expect(filterLocaleField(type(localeType), member('en'), ['ar'], undefined)).toBe(false);
      expect(filterLocaleField(type(localeType), member('ar'), ['en', 'ar'], undefined)).toBe(true);
    }
    // a field whose type derives from a locale type (field types are subtypes of the named type)
    expect(filterLocaleField(type('title', { name: 'localeString' }), member('ar'), ['en'], undefined)).toBe(false);
  });

  it('never hides other fields (image alt, asset, nested objects)', () => {
    expect(filterLocaleField(type('image'), member('alt'), [], undefined)).toBe(true);
    expect(filterLocaleField(type('localizedImage'), member('alt'), ['en'], undefined)).toBe(true);
    expect(filterLocaleField(type('siteSettings'), member('en'), [], undefined)).toBe(true);
  });
});

describe("the Presentation tool's preview origin", () => {
  it('is the site that serves the Studio, whatever its address; else the build-time origin; else the local default', async () => {
    const { previewOriginFor, DEFAULT_PREVIEW_ORIGIN } = await import('../studio/env');
    expect(previewOriginFor({ origin: 'https://www.example.com', servedBySite: true }, 'http://localhost:3000')).toBe(
      'https://www.example.com',
    );
    expect(previewOriginFor({ origin: 'http://127.0.0.1:5610', servedBySite: true }, undefined)).toBe(
      'http://127.0.0.1:5610',
    );
    // A Studio deployed on its own (no site wrote its lake config) previews the configured site.
    expect(previewOriginFor({ origin: 'https://x.sanity.studio', servedBySite: false }, 'https://site.example')).toBe(
      'https://site.example',
    );
    expect(previewOriginFor(undefined, undefined)).toBe(DEFAULT_PREVIEW_ORIGIN);
  });
});
