import { PassThrough, pipeline, Transform } from 'node:stream';
import type { EntryContext, HandleDocumentRequestFunction } from '@remix-run/node';
import { createReadableStreamFromReadable } from '@remix-run/node';
import { isRouteErrorResponse, RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { requestLocale } from './i18n';
import { i18nFor } from './i18next.server';
import {
  baseSecurityHeaders,
  contentSecurityPolicy,
  modulePreloadNonces,
  NONCE_PLACEHOLDER,
  RENDER_FOR_REUSE,
  SANITY_IMAGE_CDN,
  schedulingFrameSources,
  withFreshNonce,
} from './lib/csp.server';
import { env } from './lib/env.server';
import { NonceContext } from './lib/nonce';
import { pageCache, withPageCache as wrapWithPageCache, type RequestHandler } from './lib/page-cache.server';
import { frameAncestorSources, framingHeaders, isPreview } from './lib/preview.server';
import { contentClient } from './sanity/client.server';
import { isPortalPath, startPortal } from './portal/start.server';

// Validate the environment and say which content world runs, once, at start; then start the
// client portal's periodic jobs (renewals, reminders, emails) and, in the embedded world, make
// sure the demo clients exist.
env();
contentClient();
startPortal();

export const streamTimeout = 5_000;
/**
 * How long a page may wait for its shell. Rendering the shell is CPU work on data the loaders
 * already fetched, so it only takes long when the server is queued behind other requests (a
 * burst of form posts on two cores, say). Giving up then would answer 500 to a request whose
 * action already ran, e.g. a question we stored, so the bound is generous and separate from
 * `streamTimeout`, which bounds the deferred data streamed after the shell.
 */
export const shellTimeout = 30_000;

/**
 * React 18.3's Node stream writer can leave a NUL byte at the edge of its 2 KB buffer
 * (facebook/react#31134, fixed in React 19), which browsers show as "�" inside Arabic
 * words. NUL never occurs in valid UTF-8 HTML, so dropping it is lossless.
 *
 * React writes a page in 2 KB pieces and calls flush() when a batch is written (the shell,
 * then each streamed boundary): the pieces of a batch go on as one chunk, so the steps after
 * this one and the socket handle a few chunks a page instead of dozens.
 */
export function withoutNulBytes() {
  let batch: Uint8Array[] = [];
  const passOn = (stream: Transform) => {
    if (batch.length) stream.push(batch.length === 1 ? batch[0] : Buffer.concat(batch));
    batch = [];
  };
  const stream: Transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      batch.push(chunk.includes(0) ? chunk.filter((byte) => byte !== 0) : chunk);
      callback();
    },
    flush(callback) {
      passOn(this);
      callback();
    },
  });
  return Object.assign(stream, { flush: () => passOn(stream) });
}

const securityHeaders = (): Record<string, string> => ({
  ...baseSecurityHeaders(env().behindHttps),
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
});

/**
 * The headers every response gets (pages, data, resource routes, static files): server.mjs
 * adds them to whatever does not set them itself. Not named in the Remix entry API: only
 * server.mjs calls it.
 */
export function responseSecurityHeaders(): Record<string, string> {
  return baseSecurityHeaders(env().behindHttps);
}

/**
 * Published pages may be kept by a CDN for a minute and served stale while it refreshes
 * (or while the content API is down); preview sessions, personal responses and errors never.
 */
export const PUBLIC_CACHE = 'public, max-age=0, s-maxage=60, stale-while-revalidate=600, stale-if-error=86400';

async function setCacheHeaders(request: Request, status: number, headers: Headers) {
  // The client portal is personal: never stored by a browser or a CDN, never indexed.
  if (isPortalPath(new URL(request.url).pathname)) {
    headers.set('Cache-Control', 'private, no-store');
    headers.set('X-Robots-Tag', 'noindex');
    return;
  }
  if (await isPreview(request)) {
    headers.set('Cache-Control', 'private, no-store');
    headers.set('X-Robots-Tag', 'noindex');
    return;
  }
  if (headers.has('Cache-Control')) return;
  if (request.method !== 'GET' || headers.has('Set-Cookie') || status >= 500) headers.set('Cache-Control', 'no-store');
  else headers.set('Cache-Control', PUBLIC_CACHE);
}

/** Remix's handler wrapped by the rendered-page cache (ADR 0010); server.mjs serves through it. */
export function withPageCache(handle: RequestHandler): RequestHandler {
  return wrapWithPageCache(handle, pageCache());
}

export async function handleDataRequest(response: Response, { request }: { request: Request }) {
  await setCacheHeaders(request, response.status, response.headers);
  return response;
}

const handleRequest: HandleDocumentRequestFunction = async (
  request,
  responseStatusCode,
  responseHeaders,
  remixContext: EntryContext,
  loadContext,
) => {
  const locale = requestLocale(request);
  await setCacheHeaders(request, responseStatusCode, responseHeaders);
  const preview = await isPreview(request);
  const { content, gtmId, behindHttps, billing } = env();
  for (const [name, value] of Object.entries(framingHeaders(preview, content))) responseHeaders.set(name, value);
  // The page is rendered with NONCE_PLACEHOLDER; withFreshNonce below gives each response its
  // own nonce (ADR 0009). frame-ancestors is part of this one policy.
  responseHeaders.set(
    'Content-Security-Policy',
    contentSecurityPolicy({
      nonce: NONCE_PLACEHOLDER,
      tagManager: Boolean(gtmId),
      frameAncestors: frameAncestorSources(preview, content),
      frameSources: schedulingFrameSources(remixContext.staticHandlerContext.loaderData, behindHttps),
      paymentOrigins: billing.kind === 'stripe' && billing.apiBase ? [new URL(billing.apiBase).origin] : [],
      // Hosted content's images are served by Sanity's CDN (@sanity/image-url's default address).
      imageOrigins: content.world === 'hosted' ? [SANITY_IMAGE_CDN] : [],
    }),
  );
  // A page opened from another site shares no window with it; except a hosted preview, which
  // the Studio's Presentation tool may open as its own window.
  if (!(preview && content.world === 'hosted')) responseHeaders.set('Cross-Origin-Opener-Policy', 'same-origin');
  // Remix's own build files: the page's module preloads get the nonce too (see modulePreloadNonces).
  const entryModule = remixContext.manifest.entry.module;
  const publicPath = entryModule.slice(0, entryModule.lastIndexOf('/') + 1);
  // The language's shared instance, created at start (app/i18next.server.ts).
  const i18n = i18nFor(locale);

  // Crawlers get the whole document at once; people get the shell as soon as it is ready.
  const readyEvent =
    isbot(request.headers.get('user-agent') ?? '') || remixContext.isSpaMode ? 'onAllReady' : 'onShellReady';

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    let timer = setTimeout(() => abort(), shellTimeout);
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={NONCE_PLACEHOLDER}>
        <I18nextProvider i18n={i18n}>
          <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={NONCE_PLACEHOLDER} />
        </I18nextProvider>
      </NonceContext.Provider>,
      {
        // React's own streaming scripts (Suspense boundaries) carry it too.
        nonce: NONCE_PLACEHOLDER,
        [readyEvent]() {
          shellRendered = true;
          clearTimeout(timer);
          timer = setTimeout(() => abort(), streamTimeout + 1000);
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          for (const [name, value] of Object.entries(securityHeaders()))
            if (!responseHeaders.has(name)) responseHeaders.set(name, value);
          // The rendered page (what a page cache would keep): the HTML with the placeholder...
          const rendered = withoutNulBytes();
          // ...and the response step: a fresh nonce in the headers and the body; under the page
          // cache's handler (server.mjs) that step is the handler's, which may keep the page.
          const reuse = Boolean((loadContext as Record<symbol, unknown> | undefined)?.[RENDER_FOR_REUSE]);
          const fresh = reuse
            ? { headers: responseHeaders, body: new PassThrough() }
            : withFreshNonce({ status: responseStatusCode, headers: responseHeaders });
          const body = pipeline(rendered, modulePreloadNonces(publicPath, NONCE_PLACEHOLDER), fresh.body, (error) => {
            if (error && !request.signal.aborted) console.error(error);
          });
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: fresh.headers,
              status: responseStatusCode,
            }),
          );
          pipe(rendered);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
};

export default handleRequest;

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  // An expected refusal (a 4xx answer: not found, wrong method, a refused form) is not a fault.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  console.error(error);
}
