import { RemixBrowser } from '@remix-run/react';
import { localeFromPath, startKeyFiles, TranslationsContext } from '~/kit';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';

/**
 * Lets Remix decode the page's data before React hydrates (docs/decisions/0034-hydration-in-pieces.md,
 * "A key pressed as hydration starts").
 *
 * With single fetch the loaders' data is a stream in the HTML that `RemixBrowser` decodes on its
 * first render, and until it has, that render suspends (it throws the decoding promise). In the
 * shell, outside any Suspense boundary, React 18 allows that only in a concurrent render. But a key
 * or tap on the page between `hydrateRoot()` and that first render makes React hydrate the root
 * synchronously (selective hydration), and a synchronous render that suspends in the shell throws
 * "Root did not complete" (#345): the page stays server-rendered (React 19 lifts this, 18 does not).
 * Calling it once here starts the decoding as its first render would (it throws before any hook
 * while the stream is undecoded), so by `hydrateRoot()` nothing in the shell suspends any more.
 */
async function remixDataDecoded() {
  const context = (window as { __remixContext?: { future?: { v3_singleFetch?: boolean }; stream?: unknown } })
    .__remixContext;
  if (!context?.future?.v3_singleFetch || !context.stream) return;
  try {
    RemixBrowser({});
  } catch (thrown) {
    // Suspense's protocol: a promise thrown is "render again once it settles". Anything else is
    // thrown again by the real first render, where React reports it.
    if (thrown instanceof Promise) await thrown.catch(() => {});
  }
}

async function start() {
  if (!document.documentElement || !document.body) throw new Error('Root element not found');
  const locale = localeFromPath(window.location.pathname);
  // Versioned by a hash of the key files, so browsers may cache them for good.
  const version = document.querySelector<HTMLMetaElement>('meta[name="i18n-version"]')?.content ?? 'dev';
  // Only the page's language is fetched, before hydration: both languages have every key
  // (app/locales.test.ts), so an Arabic page does not also download the English strings. The
  // other language is loaded when the visitor switches (the locale layout's clientLoader).
  const keyFiles = startKeyFiles(version);
  await Promise.all([keyFiles.load(locale), remixDataDecoded()]);

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
