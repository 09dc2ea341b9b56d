import { PassThrough } from 'node:stream';
import type { EntryContext, HandleDocumentRequestFunction } from '@remix-run/node';
import { createReadableStreamFromReadable } from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { createInstance } from 'i18next';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { defaultLocale, defaultNS, localeFromPath, locales, namespaces } from './i18n';
import { serverResources } from './i18next.server';
import { env } from './lib/env.server';
import { contentClient } from './sanity/client.server';

// Validate the environment and say which content world runs, once, at start.
env();
contentClient();

export const streamTimeout = 5_000;

const securityHeaders: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'SAMEORIGIN',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
};

const handleRequest: HandleDocumentRequestFunction = async (request, responseStatusCode, responseHeaders, remixContext: EntryContext) => {
  const locale = localeFromPath(new URL(request.url).pathname);
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    resources: serverResources(),
    lng: locale,
    ns: [...namespaces],
    defaultNS,
    fallbackLng: defaultLocale,
    supportedLngs: [...locales],
    interpolation: { escapeValue: false },
  });

  // Crawlers get the whole document at once; people get the shell as soon as it is ready.
  const readyEvent = isbot(request.headers.get('user-agent') ?? '') || remixContext.isSpaMode ? 'onAllReady' : 'onShellReady';

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <I18nextProvider i18n={i18n}>
        <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} />
      </I18nextProvider>,
      {
        [readyEvent]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          for (const [name, value] of Object.entries(securityHeaders)) if (!responseHeaders.has(name)) responseHeaders.set(name, value);
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
};

export default handleRequest;

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  console.error(error);
}
