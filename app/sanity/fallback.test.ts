import { evaluate, parse } from 'groq-js';
import { describe, expect, it } from 'vitest';
import { FALLBACK_MARK, stripFallbackMarks } from './fallback';
import { loc, portableText } from './groq';

describe('stripFallbackMarks', () => {
  it('unmarks fallback texts wherever they are and lists them', () => {
    const input = {
      title: `${FALLBACK_MARK}Company formation`,
      summary: 'تأسيس الشركات',
      items: [
        { _key: 'a', text: `${FALLBACK_MARK}Bank account` },
        { _key: 'b', text: 'حساب' },
      ],
      count: 3,
      empty: null,
    };
    const { value, fallbacks } = stripFallbackMarks(input);
    expect(value).toEqual({
      title: 'Company formation',
      summary: 'تأسيس الشركات',
      items: [
        { _key: 'a', text: 'Bank account' },
        { _key: 'b', text: 'حساب' },
      ],
      count: 3,
      empty: null,
    });
    expect(fallbacks).toEqual(['Company formation', 'Bank account']);
  });

  it('never mutates its input (cached results are shared between requests)', () => {
    const input = { page: { title: `${FALLBACK_MARK}About us` }, other: { title: 'من نحن' } };
    const { value } = stripFallbackMarks(input);
    expect(input.page.title).toBe(`${FALLBACK_MARK}About us`);
    // Untouched branches are shared, changed ones are copies.
    expect(value.other).toBe(input.other);
    expect(value.page).not.toBe(input.page);
  });

  it('leaves a result without marks as it is', () => {
    const input = [{ title: 'خدماتنا' }];
    const { value, fallbacks } = stripFallbackMarks(input);
    expect(value).toBe(input);
    expect(fallbacks).toEqual([]);
  });
});

describe('loc() and portableText() mark English that stands in for Arabic', () => {
  const dataset = [
    {
      _id: 'post-a',
      _type: 'blogPost',
      title: { en: 'Opening a bank account', ar: 'فتح حساب مصرفي' },
      excerpt: { en: 'What banks ask for.' },
      body: { en: [{ _type: 'block', _key: 'b1', children: [{ _type: 'span', _key: 's1', text: 'Start early.' }] }] },
    },
  ];
  const query = `*[_id == "post-a"][0]{ "title": ${loc('title')}, "excerpt": ${loc('excerpt')}, "missing": ${loc('nothing')}, "body": ${portableText('body')} }`;
  const run = async (lang: 'en' | 'ar') => {
    const tree = parse(query, { params: { lang } });
    return (await (await evaluate(tree, { dataset, params: { lang } })).get()) as Record<string, unknown>;
  };

  it('in Arabic: the translated field is as it is, the untranslated one is marked English', async () => {
    const { value, fallbacks } = stripFallbackMarks(await run('ar'));
    expect(value.title).toBe('فتح حساب مصرفي');
    expect(value.excerpt).toBe('What banks ask for.');
    expect(value.missing).toBeNull();
    expect(fallbacks).toEqual(['What banks ask for.']);
    expect((value.body as { _lang?: string }[])[0]._lang).toBe('en');
  });

  it('in English nothing is marked', async () => {
    const raw = await run('en');
    const { fallbacks } = stripFallbackMarks(raw);
    expect(fallbacks).toEqual([]);
    expect(raw.excerpt).toBe('What banks ask for.');
    expect((raw.body as { _lang?: string }[])[0]._lang).toBeUndefined();
  });
});
