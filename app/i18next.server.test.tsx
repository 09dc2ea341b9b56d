import { PassThrough } from 'node:stream';
import { Suspense } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { fixedT, i18nFor } from './i18next.server';
import type { Locale } from './i18n';

const EN_TITLE = 'Page not found';
const AR_TITLE = 'الصفحة غير موجودة';

describe('server i18next instances', () => {
  it('gives each language one instance, ready at start and reused', () => {
    expect(i18nFor('en')).toBe(i18nFor('en'));
    expect(i18nFor('ar')).toBe(i18nFor('ar'));
    expect(i18nFor('en')).not.toBe(i18nFor('ar'));
    expect(i18nFor('en').isInitialized).toBe(true);
    expect(i18nFor('en').language).toBe('en');
    expect(i18nFor('ar').language).toBe('ar');
  });

  it('translates loaders and meta text in the asked language', () => {
    expect(fixedT('en')('notFound.title')).toBe(EN_TITLE);
    expect(fixedT('ar')('notFound.title')).toBe(AR_TITLE);
    expect(fixedT('ar', 'common')('notFound.title')).toBe(AR_TITLE);
  });

  it('keeps concurrent English and Arabic renders apart', async () => {
    // Each render suspends on a timer before its text, so the renders interleave.
    type Wait = { done: boolean; promise: Promise<void> };
    function Title({ wait }: { wait: Wait }) {
      // React 18's way to suspend: throw the promise until it settles.
      if (!wait.done) throw wait.promise;
      const { t } = useTranslation('common');
      return <h1>{t('notFound.title')}</h1>;
    }
    const render = (locale: Locale, delay: number) =>
      new Promise<string>((resolve, reject) => {
        const wait: Wait = { done: false, promise: Promise.resolve() };
        wait.promise = new Promise<void>((r) => setTimeout(r, delay)).then(() => void (wait.done = true));
        const out = new PassThrough();
        let html = '';
        out.on('data', (chunk) => (html += chunk));
        out.on('end', () => resolve(html));
        const { pipe } = renderToPipeableStream(
          <I18nextProvider i18n={i18nFor(locale)}>
            <Suspense fallback={null}>
              <Title wait={wait} />
            </Suspense>
          </I18nextProvider>,
          { onAllReady: () => pipe(out), onError: reject },
        );
      });
    const locales: Locale[] = Array.from({ length: 12 }, (_, i) => (i % 2 ? 'ar' : 'en'));
    const pages = await Promise.all(locales.map((locale, i) => render(locale, (i * 7) % 5)));
    pages.forEach((html, i) => {
      expect(html).toContain(locales[i] === 'ar' ? AR_TITLE : EN_TITLE);
      expect(html).not.toContain(locales[i] === 'ar' ? EN_TITLE : AR_TITLE);
    });
    // Rendering left the shared instances in their own language.
    expect(i18nFor('en').language).toBe('en');
    expect(i18nFor('ar').language).toBe('ar');
  });
});
