import { stegaClean, stegaEncodeSourceMap, type ContentSourceMap } from '@sanity/client/stega';
import { describe, expect, it } from 'vitest';
import { stegaFilter } from './stega.server';

/**
 * The filter runs inside @sanity/client's real encoder here, over a hand-written Content
 * Source Map of the shape the Content Lake returns (a result path -> a document and a path in it).
 */
type Field = { result: string; source: string; value: string };

function encode(fields: Field[]) {
  const result: Record<string, string> = {};
  const paths: string[] = [];
  const mappings: ContentSourceMap['mappings'] = {};
  for (const f of fields) {
    result[f.result] = f.value;
    paths.push(f.source);
    mappings[`$['${f.result}']`] = {
      type: 'value',
      source: { type: 'documentValue', document: 0, path: paths.length - 1 },
    };
  }
  const csm: ContentSourceMap = {
    documents: [{ _id: 'drafts.service-market-entry', _type: 'service' }],
    paths,
    mappings,
  };
  const encoded = stegaEncodeSourceMap(result, csm, {
    enabled: true,
    studioUrl: 'https://bawaba.sanity.studio',
    filter: stegaFilter,
  });
  return Object.fromEntries(
    Object.entries(encoded).map(([k, v]) => [k, { encoded: v !== stegaClean(v), clean: stegaClean(v) }]),
  );
}

describe('stega filter', () => {
  it('encodes localized display text (the en/ar fields of localeString and localeText)', () => {
    const out = encode([
      { result: 'title', source: "$['title']['en']", value: 'Market Entry' },
      { result: 'titleAr', source: "$['title']['ar']", value: 'دخول السوق' },
      { result: 'summary', source: "$['summary']['en']", value: 'Set up in the UAE.\n\nSecond paragraph.' },
      { result: 'label', source: "$['headerNavigation'][?(@._key=='k1')]['label']['en']", value: 'Services' },
      { result: 'alt', source: "$['coverImage']['alt']['en']", value: 'Dubai skyline' },
    ]);
    for (const [name, v] of Object.entries(out)) expect(v.encoded, name).toBe(true);
    expect(out.title.clean).toBe('Market Entry');
    expect(out.titleAr.clean).toBe('دخول السوق');
  });

  it('never encodes identifiers: slugs, keys, anchors, ids, enums, hrefs, phone numbers, dates', () => {
    const out = encode([
      { result: 'slug', source: "$['slug']['current']", value: 'market-entry' },
      { result: 'key', source: "$['key']", value: 'services' },
      { result: 'anchor', source: "$['anchor']", value: 'market-entry' },
      { result: 'icon', source: "$['headerNavigation'][?(@._key=='k1')]['icon']", value: 'briefcase' },
      { result: 'color', source: "$['color']", value: 'gold' },
      { result: 'trend', source: "$['trend']", value: 'rising' },
      { result: 'href', source: "$['headerNavigation'][?(@._key=='k1')]['href']", value: '/services' },
      { result: 'phone', source: "$['contactPhone']", value: '+971 4 000 0000' },
      { result: 'publishedAt', source: "$['publishedAt']", value: '2025-03-01T09:00:00Z' },
      {
        result: 'span',
        source: "$['body']['en'][?(@._key=='b1')]['children'][?(@._key=='s1')]['text']",
        value: 'Heading text',
      },
    ]);
    for (const [name, v] of Object.entries(out)) expect(v.encoded, name).toBe(false);
  });

  it('leaves localized text alone where the site compares it or builds a URL from it, and in SEO fields', () => {
    const out = encode([
      { result: 'highlight', source: "$['hero']['highlight']['en']", value: 'UAE' },
      { result: 'businessesLaunched', source: "$['businessesLaunched']['en']", value: '500+ businesses launched' },
      { result: 'claim', source: "$['claims'][?(@._key=='c1')]['en']", value: '500+ businesses launched' },
      { result: 'brandName', source: "$['brandName']['en']", value: 'Bawaba Advisory' },
      { result: 'whatsappMessage', source: "$['whatsappMessage']['en']", value: 'Hello, I would like advice' },
      { result: 'bookingWhatsappMessage', source: "$['bookingWhatsappMessage']['ar']", value: 'مرحبا' },
      { result: 'city', source: "$['city']['en']", value: 'Singapore' },
      { result: 'country', source: "$['country']['en']", value: 'Singapore' },
      { result: 'seoTitle', source: "$['seo']['title']['en']", value: 'Market entry in the UAE' },
    ]);
    for (const [name, v] of Object.entries(out)) expect(v.encoded, name).toBe(false);
  });

  it('keeps blank text blank and leaves localized values that look like URLs or dates to the default filter', () => {
    const out = encode([
      { result: 'emptyAr', source: "$['title']['ar']", value: '' },
      { result: 'blankAr', source: "$['summary']['ar']", value: '   ' },
      { result: 'url', source: "$['linkText']['en']", value: 'https://example.com/report' },
      { result: 'date', source: "$['hours']['en']", value: '2025-01-01' },
    ]);
    for (const [name, v] of Object.entries(out)) expect(v.encoded, name).toBe(false);
    expect(out.emptyAr.clean).toBe('');
  });

  it('decides from the source path alone, without calling the default filter for non-localized fields', () => {
    const filterDefault = () => true;
    const call = (sourcePath: (string | number)[], value = 'Text') =>
      stegaFilter({
        sourcePath,
        resultPath: ['x'],
        value,
        sourceDocument: { _id: 'a', _type: 'service' },
        filterDefault,
      });
    expect(call(['title', 'en'])).toBe(true);
    expect(call(['values', 0, 'text', 'ar'])).toBe(true);
    expect(call(['title'])).toBe(false);
    expect(call(['en', 'slug'])).toBe(false);
    expect(call(['title', 'fr'])).toBe(false);
    expect(call(['hero', 'highlight', 'en'])).toBe(false);
  });
});
