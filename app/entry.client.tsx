import { RemixBrowser } from '@remix-run/react';
import { i18next, i18nextOptions, keyFilesBackend, localeFromPath } from '~/kit';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { I18nextProvider, initReactI18next } from 'react-i18next';
async function start() {
  if (!document.documentElement || !document.body) throw new Error('Root element not found');
  const locale = localeFromPath(window.location.pathname);
  // Versioned by a hash of the key files, so browsers may cache them for good.
  const version = document.querySelector<HTMLMetaElement>('meta[name="i18n-version"]')?.content ?? 'dev';

  await i18next
    .use(initReactI18next)
    .use(keyFilesBackend(version))
    .init({
      ...i18nextOptions(locale),
      // Only the page's language is fetched: both languages have every key (app/locales.test.ts),
      // so an Arabic page does not also download the English files as a fallback.
      fallbackLng: false,
      // The page's language is loaded before hydration; the other one when the visitor switches.
      maxRetries: 5,
      retryTimeout: 350,
      maxParallelReads: 10,
    });
  i18next.on('failedLoading', (lng, ns, message) =>
    console.warn(`Could not load translations ${lng}/${ns}: ${message}`),
  );

  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

start().catch((error) => console.error(error));
