/**
 * useT on the server (no document): a string is resolved by i18next once per process, language
 * and plain option values, then answered from memory; calls with other options still go to
 * i18next every time, and the two languages never see each other's strings.
 */
import { createRemixStub } from '@remix-run/testing';
import { renderToString } from 'react-dom/server';
import { Trans } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '~/i18n';
import { i18nFor } from '~/i18next.server';
import { TranslationsContext, useLocale, useT } from './locale';
import { serverTranslations } from './translations.server';

function Probe() {
  const { t } = useT();
  return (
    <p>
      {t('nav.getStarted')}|{t('nav.getStarted')}|{t('language.label')}|{t('nav.homeLink', { brand: 'Bawaba' })}
    </p>
  );
}

/** <Trans t={t}> finds its key in the namespace of the t it is given, not in the default one. */
function TransProbe() {
  const { t } = useT('insights');
  return (
    <h1>
      <Trans t={t} i18nKey="blog.tagTitle" values={{ tag: 'Tax' }} components={{ bdi: <bdi /> }} />
    </h1>
  );
}

const Stub = createRemixStub([
  { path: '/', Component: Probe },
  { path: '/ar', Component: Probe },
  { path: '/trans', Component: TransProbe },
  { path: '/ar/trans', Component: TransProbe },
]);

const render = (locale: Locale, path = '/') =>
  renderToString(
    <TranslationsContext.Provider value={serverTranslations}>
      <Stub initialEntries={[locale === 'ar' ? `/ar${path === '/' ? '' : path}` : path]} />
    </TranslationsContext.Provider>,
  );

// The in-memory router's layout effects do nothing on the server, which React says each time.
beforeEach(() => {
  const error = console.error;
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).includes('useLayoutEffect does nothing on the server')) error(...args);
  });
});
afterEach(() => vi.restoreAllMocks());

describe('useT on the server', () => {
  it("gives i18next's own strings, in the page's language", () => {
    for (const locale of ['en', 'ar'] as const) {
      const t = i18nFor(locale).getFixedT(locale, 'common');
      const expected = [
        t('nav.getStarted'),
        t('nav.getStarted'),
        t('language.label'),
        t('nav.homeLink', { brand: 'Bawaba' }),
      ];
      expect(render(locale)).toContain(`<p>${expected.join('<!-- -->|<!-- -->')}</p>`);
    }
    expect(render('ar')).toContain('ابدأ');
    expect(render('en')).toContain('Get Started');
  });

  it('asks i18next for a string once per set of plain option values', () => {
    render('en'); // the strings are now known
    // i18next's Translator resolves every t() call; it is not in i18next's public types.
    const { translator } = i18nFor('en') as unknown as { translator: { translate: (key: string) => string } };
    const translate = vi.spyOn(translator, 'translate');
    render('en');
    render('en');
    expect(translate).not.toHaveBeenCalled();
  });

  it('keeps a string per count and per language (Arabic plural forms), and never one asked for with objects', () => {
    const results: Record<string, string[]> = {};
    function Counts() {
      const { t } = useT('insights');
      const shown = [1, 2, 11, 2, 1].map((count) => t('blog.readTime', { count }));
      results[useLocale()] = shown;
      // An option that is an object (here a Date) is never kept: its value is not part of the key.
      return <p>{shown.join('|') + t('blog.readTime', { count: 3, when: new Date(0) } as never)}</p>;
    }
    const CountStub = createRemixStub([
      { path: '/', Component: Counts },
      { path: '/ar', Component: Counts },
    ]);
    for (const locale of ['en', 'ar'] as const) {
      const fixed = i18nFor(locale).getFixedT(locale, 'insights');
      const expected = [1, 2, 11, 2, 1].map((count) => fixed('blog.readTime', { count }));
      const { translator } = i18nFor(locale) as unknown as { translator: { translate: (key: string) => string } };
      for (let i = 0; i < 2; i++) {
        const translate = vi.spyOn(translator, 'translate');
        renderToString(
          <TranslationsContext.Provider value={serverTranslations}>
            <CountStub initialEntries={[locale === 'ar' ? '/ar' : '/']} />
          </TranslationsContext.Provider>,
        );
        expect(results[locale]).toEqual(expected);
        // The second time only the call with a Date reached i18next.
        if (i === 1) expect(translate.mock.calls.map(([key]) => key)).toEqual(['blog.readTime']);
        translate.mockRestore();
      }
    }
    // Arabic has a form for one, for two and for eleven: all three were kept apart.
    expect(new Set(results.ar).size).toBe(3);
    expect(results.en).not.toEqual(results.ar);
  });

  it('gives <Trans> the namespace it was asked for', () => {
    expect(render('en', '/trans')).toContain('<h1>Tag: <bdi>Tax</bdi></h1>');
    expect(render('ar', '/trans')).not.toContain('blog.tagTitle');
    expect(render('ar', '/trans')).toContain('<bdi>Tax</bdi>');
  });
});
