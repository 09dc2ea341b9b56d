/** A legal page's content rendered on the server (ADR 0035): sections, table of contents, language marks. */
import { describe, expect, it } from 'vitest';
import type { PortableTextValue } from '~/sanity/groq';
import { renderLegalPage } from './legal-page.server';

const block = (text: string, style = 'normal', extra: object = {}) => ({
  _type: 'block',
  _key: text,
  style,
  markDefs: [],
  children: [{ _type: 'span', _key: `${text}-s`, text, marks: [] }],
  ...extra,
});
const body = (...blocks: object[]) => blocks as unknown as PortableTextValue;

describe('renderLegalPage', () => {
  const page = {
    title: 'Terms',
    updatedAt: '2026-03-01',
    body: body(block('Lead.'), block('Scope', 'h2'), block('Scope text.'), block('Liability', 'h2'), block('Text.')),
  };

  it('splits the body at its h2 headings into sections with anchors, listed in the table of contents', () => {
    const html = renderLegalPage(page, 'terms-of-service', 'en', []);
    expect(html).toContain('<h1 class="text-3xl font-bold text-navy-900 md:text-5xl">Terms</h1>');
    expect(html).toContain('Last updated<!-- -->: <time dateTime="2026-03-01">1 March 2026</time>');
    expect(html).toContain('<a href="#section-1" class="');
    expect(html).toContain('<a href="#section-2" class="');
    expect(html).toContain('<div><p class="my-4 leading-8">Lead.</p></div><section aria-labelledby="section-1">');
    expect(html).toContain(
      '<h2 id="section-2" class="mt-10 mb-3 scroll-mt-4 text-2xl font-bold text-navy-900">Liability</h2>',
    );
    expect(html).not.toContain('lang="en"');
  });

  it('in Arabic: the date in Arabic, the policy table after the sections, English stand-ins marked', () => {
    const html = renderLegalPage(page, 'privacy-policy', 'ar', []);
    expect(html).toMatch(/<time dateTime="2026-03-01">[^<]*مارس[^<]*<\/time>/);
    expect(html).toContain('<a href="#section-3" class="');
    expect(html).toContain('data-testid="retention-table"');
    expect(html).not.toContain('lang="en"');
    const fallback = renderLegalPage(
      { ...page, body: body(...page.body.map((b) => ({ ...b, _lang: 'en' }))) },
      'terms-of-service',
      'ar',
      ['Terms'],
    );
    expect(fallback).toContain(
      '<h1 class="text-3xl font-bold text-navy-900 md:text-5xl" lang="en" dir="ltr">Terms</h1>',
    );
    expect(fallback).toContain('<article class="text-navy-800" lang="en" dir="ltr" data-testid="legal-body">');
    expect(fallback.match(/<p class="mt-4 rounded-xl bg-sand-100/g)).toHaveLength(1);
  });
});
