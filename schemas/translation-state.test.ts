import { describe, expect, it } from 'vitest';
import { findMissingArabic, isLocaleValueEmpty, missingArabicPaths } from './translation-state';

const ls = (en?: string, ar?: string) => ({ _type: 'localeString', en, ar });
const lt = (en?: string, ar?: string) => ({ _type: 'localeText', en, ar });
const block = (text: string) => ({
  _type: 'block',
  _key: text || 'empty',
  style: 'normal',
  markDefs: [],
  children: [{ _type: 'span', _key: 's', text, marks: [] }],
});

describe('isLocaleValueEmpty', () => {
  it('treats missing, blank and whitespace strings as empty', () => {
    expect(isLocaleValueEmpty(undefined)).toBe(true);
    expect(isLocaleValueEmpty(null)).toBe(true);
    expect(isLocaleValueEmpty('')).toBe(true);
    expect(isLocaleValueEmpty('  \n')).toBe(true);
    expect(isLocaleValueEmpty('نص')).toBe(false);
  });

  it('treats Portable Text without any text or embedded object as empty', () => {
    expect(isLocaleValueEmpty([])).toBe(true);
    expect(isLocaleValueEmpty([block(''), block('   ')])).toBe(true);
    expect(isLocaleValueEmpty([block(''), block('مرحبا')])).toBe(false);
    expect(isLocaleValueEmpty([{ _type: 'image', _key: 'i', asset: { _ref: 'image-a-1x1-png' } }])).toBe(false);
  });
});

describe('findMissingArabic', () => {
  const document = {
    _id: 'service-market-entry',
    _type: 'service',
    key: 'marketEntry',
    title: ls('Market entry', 'دخول السوق'),
    summary: lt('Enter the UAE.', ''),
    hero: { subtitle: lt('Sub', undefined), headline: ls('Head', 'عنوان') },
    features: [
      { _key: 'a1', ...ls('One', 'واحد') },
      { _key: 'b2', ...ls('Two', 'اثنان') },
      { _key: 'c3', ...ls('Three', '   ') },
    ],
    values: [{ _key: 'v', _type: 'aboutValue', title: ls('Clarity', 'الوضوح'), text: lt('Straight answers', '') }],
    untyped: ['plain', 3, null],
    body: { _type: 'localeBlockContent', en: [block('Hello')], ar: [block('')] },
    both: ls('', ''),
    notLocale: { en: 'looks similar but has no locale _type' },
    seo: { _type: 'seo', title: ls('SEO', undefined) },
  };

  it('returns readable paths of fields with English but no Arabic', () => {
    expect(missingArabicPaths(document)).toEqual([
      'summary',
      'hero.subtitle',
      'features[2]',
      'values[0].text',
      'body',
      'seo.title',
    ]);
  });

  it('gives Sanity paths (array items by _key) and the locale type', () => {
    const found = findMissingArabic(document);
    expect(found.find((entry) => entry.path === 'features[2]')).toEqual({
      path: 'features[2]',
      sanityPath: ['features', { _key: 'c3' }],
      type: 'localeString',
    });
    expect(found.find((entry) => entry.path === 'body')?.type).toBe('localeBlockContent');
    expect(found.find((entry) => entry.path === 'values[0].text')?.sanityPath).toEqual([
      'values',
      { _key: 'v' },
      'text',
    ]);
  });

  it('does not look inside the languages (image alts inside rich text are part of the field)', () => {
    const withImage = {
      body: {
        _type: 'localeBlockContent',
        en: [{ _type: 'image', _key: 'i', alt: ls('Map', undefined) }],
        ar: [{ _type: 'image', _key: 'i', alt: ls('Map', undefined) }],
      },
    };
    expect(missingArabicPaths(withImage)).toEqual([]);
  });

  it('returns nothing for a fully translated document, and uses indexes for unkeyed arrays', () => {
    expect(missingArabicPaths({ title: ls('A', 'أ'), list: [ls('x', 'س')] })).toEqual([]);
    expect(findMissingArabic({ list: [ls('x', '')] })).toEqual([
      { path: 'list[0]', sanityPath: ['list', 0], type: 'localeString' },
    ]);
  });

  it('accepts anything without throwing', () => {
    expect(missingArabicPaths(null)).toEqual([]);
    expect(missingArabicPaths('text')).toEqual([]);
    expect(missingArabicPaths(ls('Top', ''))).toEqual(['']);
  });
});
