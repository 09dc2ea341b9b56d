import { RemixBrowser } from '@remix-run/react';
import { localeFromPath, startKeyFiles, TranslationsContext } from '~/kit';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
async function start() {
  if (!document.documentElement || !document.body) throw new Error('Root element not found');
  const locale = localeFromPath(window.location.pathname);
  // Versioned by a hash of the key files, so browsers may cache them for good.
  const version = document.querySelector<HTMLMetaElement>('meta[name="i18n-version"]')?.content ?? 'dev';
  // Only the page's language is fetched, before hydration: both languages have every key
  // (app/locales.test.ts), so an Arabic page does not also download the English strings. The
  // other language is loaded when the visitor switches (the locale layout's clientLoader).
  const keyFiles = startKeyFiles(version);
  await keyFiles.load(locale);

  startTransition(() => {
    hydrateRoot(
      document,
      <TranslationsContext.Provider value={keyFiles.translation}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </TranslationsContext.Provider>,
    );
  });
}

start().catch((error) => console.error(error));
