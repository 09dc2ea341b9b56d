/**
 * useT on the server (no document): a plain string is resolved by i18next once per process and
 * language, then answered from memory; calls with options still go to i18next every time, and
 * the two languages never see each other's strings.
 */
import { createRemixStub } from '@remix-run/testing';
import { renderToString } from 'react-dom/server';
import { I18nextProvider, Trans } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '~/i18n';
import { i18nFor } from '~/i18next.server';
import { useT } from './locale';

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
    <I18nextProvider i18n={i18nFor(locale)}>
      <Stub initialEntries={[locale === 'ar' ? `/ar${path === '/' ? '' : path}` : path]} />
    </I18nextProvider>,
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

  it('asks i18next for a plain string once, for a string with options every time', () => {
    render('en'); // the plain strings are now known
    // i18next's Translator resolves every t() call; it is not in i18next's public types.
    const { translator } = i18nFor('en') as unknown as { translator: { translate: (key: string) => string } };
    const translate = vi.spyOn(translator, 'translate');
    render('en');
    render('en');
    const keys = translate.mock.calls.map(([key]) => key);
    expect(keys).toEqual(['nav.homeLink', 'nav.homeLink']);
  });

  it('gives <Trans> the namespace it was asked for', () => {
    expect(render('en', '/trans')).toContain('<h1>Tag: <bdi>Tax</bdi></h1>');
    expect(render('ar', '/trans')).not.toContain('blog.tagTitle');
    expect(render('ar', '/trans')).toContain('<bdi>Tax</bdi>');
  });
});
