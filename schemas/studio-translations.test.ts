/**
 * Translation state in the Studio: the document badge, the Translations tool's grouping and
 * query (run with groq-js against the bundled dataset), and the tool's rendered report
 * (server-rendered with a stub router; the live Studio is not started here).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ThemeProvider, studioTheme } from '@sanity/ui';
import { evaluate, parse } from 'groq-js';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { route, RouterProvider } from 'sanity/router';
import { describe, expect, it } from 'vitest';
import { TranslationsReport, type ReportState } from '../studio/TranslationsTool';
import { createSchema } from 'sanity';
import {
  englishTitle,
  fieldTitle,
  groupUntranslated,
  hasEnglishText,
  missingLabel,
  overlayDrafts,
  TRANSLATABLE_TYPES,
  TRANSLATIONS_QUERY,
  translationBadge,
  type StudioDocument,
  type TitledSchemaType,
} from '../studio/translations';
import { schemaTypes, typesWithLocaleFields } from './index';

const ls = (en?: string, ar?: string) => ({ _type: 'localeString', en, ar });
const lt = (en?: string, ar?: string) => ({ _type: 'localeText', en, ar });

const service = (id: string, title: [string, string], summary: [string, string]): StudioDocument => ({
  _id: id,
  _type: 'service',
  key: 'marketEntry',
  title: ls(...title),
  summary: lt(...summary),
  features: [{ _key: 'f1', ...ls('One', '') }],
});

describe('translation badge', () => {
  it('counts the missing Arabic fields of the draft when there is one', () => {
    const published = service('service-a', ['Market entry', 'دخول السوق'], ['Enter', 'ادخل']);
    const draft = service('drafts.service-a', ['Market entry', ''], ['Enter', '']);
    expect(translationBadge(draft, published)).toMatchObject({ label: 'Arabic missing: 3 fields', color: 'warning' });
    expect(translationBadge(draft, published)?.title).toBe('No Arabic yet: title, summary, features[0]');
  });

  it('falls back to the published document, and says "1 field" in the singular', () => {
    const published = { ...service('service-a', ['Market entry', 'دخول السوق'], ['Enter', 'ادخل']), features: [] };
    expect(translationBadge(null, published)).toMatchObject({ label: 'Arabic complete', color: 'success' });
    expect(translationBadge(undefined, { ...published, title: ls('Market entry', ' ') })?.label).toBe(
      'Arabic missing: 1 field',
    );
  });

  it('shows nothing without a document or before any English is written', () => {
    expect(translationBadge(null, null)).toBeNull();
    expect(translationBadge({ _id: 'drafts.x', _type: 'service', title: ls('', '') }, null)).toBeNull();
    expect(hasEnglishText({ seo: { title: ls('SEO', '') } })).toBe(true);
    expect(hasEnglishText({ key: 'x', title: ls(undefined, 'عربي') })).toBe(false);
  });

  it('is offered on exactly the types with localized fields', () => {
    expect(TRANSLATABLE_TYPES).toEqual(typesWithLocaleFields());
    expect(TRANSLATABLE_TYPES).toContain('blogPost');
    expect(TRANSLATABLE_TYPES).not.toContain('faqQuestion');
    expect(missingLabel(2)).toBe('Arabic missing: 2 fields');
  });
});

describe('grouping for the Translations tool', () => {
  it('lays drafts over published documents whatever the order', () => {
    const published = service('service-a', ['A', 'أ'], ['S', 'س']);
    const draft = service('drafts.service-a', ['A2', ''], ['S', 'س']);
    for (const documents of [
      [published, draft],
      [draft, published],
    ]) {
      const [only, ...rest] = overlayDrafts(documents);
      expect(rest).toEqual([]);
      expect(only).toMatchObject({ _id: 'service-a', hasDraft: true, title: { en: 'A2' } });
    }
  });

  it('groups by type in menu order, sorted by English title, with readable and Sanity paths', () => {
    const groups = groupUntranslated([
      service('service-b', ['Operations', ''], ['x', 'س']),
      { _id: 'blogPost-x', _type: 'blogPost', title: ls('Free zones', ''), slug: { _type: 'slug', current: 'x' } },
      service('service-a', ['Business setup', 'تأسيس'], ['x', 'س']),
      { _id: 'siteSettings', _type: 'siteSettings', brandName: ls('Bawaba', 'بوابة'), tagline: lt('We help', '') },
      { _id: 'faqItem-1', _type: 'faqItem', question: ls('Why?', 'لماذا؟'), answer: lt('Because', 'لأن') },
    ]);
    expect(groups.map((group) => [group.type, group.title])).toEqual([
      ['siteSettings', 'Site settings'],
      ['service', 'Services'],
      ['blogPost', 'Blog posts'],
    ]);
    expect(groups[1].documents.map((document) => document.title)).toEqual(['Business setup', 'Operations']);
    expect(groups[1].documents[0].missing.map((entry) => entry.path)).toEqual(['features[0]']);
    expect(groups[1].documents[0].missing[0].sanityPath).toEqual(['features', { _key: 'f1' }]);
    expect(groups[0].documents[0]).toMatchObject({ id: 'siteSettings', title: 'Bawaba', hasDraft: false });
  });

  it('names documents by their English title field, or their id', () => {
    expect(englishTitle({ _id: 'package-starter', _type: 'packagePlan', name: ls('Starter', '') })).toBe('Starter');
    expect(englishTitle({ _id: 'homePage', _type: 'homePage', hero: { headline: ls('Your gateway', '') } })).toBe(
      'Your gateway',
    );
    expect(englishTitle({ _id: 'faqItem-1', _type: 'faqItem', question: ls('Why?', '') })).toBe('Why?');
    expect(englishTitle({ _id: 'office-dubai', _type: 'office' })).toBe('office-dubai');
  });
});

describe('the Translations query', () => {
  const documents: StudioDocument[] = [
    service('service-a', ['A', 'أ'], ['S', 'س']),
    service('drafts.service-a', ['A', ''], ['S', 'س']),
    { _id: 'submission.faqQuestion.1', _type: 'faqQuestion', question: 'private' },
    { _id: 'versions.r1.service-a', _type: 'service', title: ls('Release', '') },
    { _id: 'blogPost-x', _type: 'blogPost', title: ls('Post', '') },
    { _id: 'sanity.imageAsset', _type: 'sanity.imageAsset' },
  ];

  const run = async (dataset: unknown[]) => {
    const params = { types: TRANSLATABLE_TYPES };
    return (await (
      await evaluate(parse(TRANSLATIONS_QUERY, { params }), { dataset, params })
    ).get()) as StudioDocument[];
  };

  it('returns published documents and their drafts, never private ids or release versions', async () => {
    expect((await run(documents)).map((document) => document._id)).toEqual([
      'blogPost-x',
      'drafts.service-a',
      'service-a',
    ]);
  });

  it('runs over the bundled dataset; its published documents have no missing Arabic', async () => {
    const file = path.resolve(import.meta.dirname, '../studio/dataset/production.ndjson');
    const dataset = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as StudioDocument);
    const result = await run(dataset);
    expect(result.length).toBeGreaterThan(20);
    expect(
      result.every(
        (document) => TRANSLATABLE_TYPES.includes(document._type) && !/\./.test(document._id.replace(/^drafts\./, '')),
      ),
    ).toBe(true);
    // Drafts may deliberately lack Arabic (preview demos); the published content is complete.
    const published = result.filter((document) => !document._id.startsWith('drafts.'));
    expect(
      groupUntranslated(published).flatMap((group) =>
        group.documents.map((document) => `${document.id}: ${document.missing.map((m) => m.path)}`),
      ),
    ).toEqual([]);
  });
});

describe('fieldTitle (a missing field named as the Studio titles it)', () => {
  const schema = createSchema({ name: 'default', types: schemaTypes });
  const type = (name: string) => schema.get(name) as TitledSchemaType | undefined;

  it('reads the schema’s titles along the path, items by their number', () => {
    expect(fieldTitle(type('faqItem'), 'question')).toBe('Question');
    expect(fieldTitle(type('service'), 'description')).toBe('Description');
    expect(fieldTitle(type('blogPost'), 'seo.description')).toBe('Search & sharing › Search description');
    expect(fieldTitle(type('service'), 'features[2]')).toBe('What is included › item 3');
  });

  it('keeps the raw name where the schema has no such field', () => {
    expect(fieldTitle(type('faqItem'), 'gone.deeper')).toBe('gone › deeper');
    expect(fieldTitle(undefined, 'question')).toBe('question');
  });
});

describe('TranslationsReport (rendered)', () => {
  const router = route.create('/', [route.intents('/intent')]);
  const render = (state: ReportState, fieldLabel?: (type: string, path: string) => string): string =>
    renderToStaticMarkup(
      createElement(
        ThemeProvider,
        { theme: studioTheme },
        createElement(RouterProvider, {
          router,
          state: {},
          onNavigate: () => undefined,
          children: createElement(TranslationsReport, { state, fieldLabel }),
        }),
      ),
    );

  it('lists each document under its type with a link per missing field that opens the document there', () => {
    const groups = groupUntranslated([
      {
        _id: 'drafts.service-a',
        _type: 'service',
        title: ls('Market entry', ''),
        features: [{ _key: 'f1', ...ls('One', '') }],
      },
      { _id: 'blogPost-x', _type: 'blogPost', title: ls('Free zones', ''), excerpt: lt('Short', 'قصير') },
    ]);
    const html = render({ status: 'ready', groups, checked: 2 });
    expect(html).toContain('<h1');
    expect(html).toMatch(
      /<section aria-labelledby="translations-service">.*?<h2[^>]*id="translations-service"[^>]*><span>Services \(1\)<\/span><\/h2>/,
    );
    expect(html).toMatch(/<h2[^>]*><span>Blog posts \(1\)<\/span><\/h2>/);
    expect(html.indexOf('Services (1)')).toBeLessThan(html.indexOf('Blog posts (1)'));
    expect(html).toContain('<span lang="en">Market entry</span>');
    expect(html).toContain('Arabic missing: 2 fields');
    expect(html).toContain('Draft');
    expect(html).toContain('3 fields in 2 documents need');
    // one link per field: intent "edit" with the published id, the type and the Sanity path string
    const links = [...html.matchAll(/<a [^>]*>/g)].map(([tag]) => [
      decodeURIComponent(/href="([^"]+)"/.exec(tag)?.[1] ?? ''),
      /aria-label="([^"]+)"/.exec(tag)?.[1] ?? '',
    ]);
    expect(links).toHaveLength(3);
    expect(links[0][0]).toMatch(/^\/intent\/edit\/.*id=service-a/);
    expect(links[0][0]).toContain('type=service');
    expect(links[1][0]).toContain('path=features[_key=="f1"]');
    expect(links[1][1]).toBe('Open Market entry at features[0]');
    expect(links[2][0]).toContain('id=blogPost-x');
    // In the Studio each field is named by its titles in the schema.
    const titled = render({ status: 'ready', groups, checked: 2 }, (type, path) => `${type}: ${path.toUpperCase()}`);
    expect(titled).toMatch(
      /<a [^>]*aria-label="Open Market entry at service: FEATURES\[0\]"[^>]*>service: FEATURES\[0\]<\/a>/,
    );
  });

  it('announces loading, errors and the all-translated state in a live region', () => {
    expect(render({ status: 'loading' })).toMatch(/role="status"[^>]*>.*Checking every document/s);
    expect(render({ status: 'error', message: 'Network down' })).toContain(
      'Could not load the documents: Network down',
    );
    expect(render({ status: 'ready', groups: [], checked: 40 })).toContain(
      'Everything is translated: 40 documents checked',
    );
  });
});
