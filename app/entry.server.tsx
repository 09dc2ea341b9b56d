import type { EntryContext, HandleDocumentRequestFunction } from '@remix-run/node';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { isRouteErrorResponse, RemixServer } from '@remix-run/react';
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { requestLocale } from './i18n';
import { i18nFor } from './i18next.server';
import {
  baseSecurityHeaders,
  contentSecurityPolicy,
  inlineScriptHashes,
  SANITY_IMAGE_CDN,
  schedulingFrameSources,
} from './lib/csp.server';
import { PRIVATE_CACHE, privateCacheHeaders, setCacheHeaders, type ResponseFacts } from './lib/cache-policy.server';
import { allDeferredLoaded } from './lib/deferred';
import { env } from './lib/env.server';
import {
  pageCache,
  preparedAnswer,
  withPageCache as wrapWithPageCache,
  type PreparedAnswer,
  type RequestHandler,
} from './lib/page-cache.server';
import { frameAncestorSources, framingHeaders, isPreview } from './lib/preview.server';
import { startDatabase } from './db/client.server';
import { startContentSync } from './lib/content-sync.server';
import { contentClient } from './sanity/client.server';
import { startPortal } from './portal/start.server';
import { studioSignInFormOrigins } from './lake/editors.server';
import { LAKE_SITE_PATH, lakeOnSite, lakePort, startLake, type StartedLake } from './lake/start.server';

// Validate the environment and say which content world runs, once, at start; take the embedded
// data folder (a second server on it exits here, before it listens) and open the database; then
// start the client portal's periodic jobs (renewals, reminders, emails) and, in the embedded
// world, make sure the demo clients exist; listen for content changes other server copies
// report through the database (a webhook reaches one copy), to clear this copy's caches too.
env();
startDatabase();
contentClient();
startPortal();
startContentSync();

/**
 * server.mjs starts the local Content Lake in the embedded world (ADR 0025) and serves the built
 * Studio at /studio pointed at it; null in the hosted world (or with LAKE=off): nothing changes.
 * On a public HTTPS site the lake's API is answered by the site's own server under /studio/api
 * (`handle`, `sitePath`), behind the site's TLS front; otherwise on its loopback TLS port.
 * The lake starts in the background (the site listens without waiting for it); a lake that cannot
 * start is logged and the site runs on.
 */
export function startLocalLake(): {
  apiHost: string;
  /** The path under which the site's own server answers the lake's API, or null (its own port). */
  sitePath: string | null;
  handle: (req: IncomingMessage, res: ServerResponse) => void;
  /** The Studio's presence WebSocket on the site's own server (sitePath): false = refuse it. */
  upgrade: (req: IncomingMessage, socket: Duplex, head?: Buffer) => boolean;
} | null {
  const e = env();
  if (e.content.world !== 'embedded' || process.env.LAKE === 'off') return null;
  const started = startLake();
  let lake: StartedLake | undefined;
  void started.then((value) => (lake = value)).catch(() => {});
  started.catch((error: unknown) =>
    console.error(
      `[lake] the local Content Lake did not start: ${error instanceof Error ? error.message : String(error)}`,
    ),
  );
  const onSite = lakeOnSite(e.siteUrl);
  return {
    apiHost: onSite ? `${new URL(e.siteUrl).origin}${LAKE_SITE_PATH}` : `https://localhost:${lakePort()}`,
    sitePath: onSite ? LAKE_SITE_PATH : null,
    handle: (req, res) => {
      started.then(
        (lake) => lake.handle(req, res),
        () => {
          res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
          res.end('The local Content Lake did not start (see the server log)\n');
        },
      );
    },
    // The lake starts in the background; a socket asked for before it is up is refused (the Studio retries).
    upgrade: (req, socket, head) => Boolean(lake?.upgrade(req, socket, head)),
  };
}

/** How long a single-fetch data response may wait for promises it streams (Remix reads this export). */
export const streamTimeout = 5_000;

/**
 * React marks a Suspense boundary it could not render on the server with this comment (a
 * component threw, or waited for something: renderToString does not wait). The browser would
 * render that part again, but the page we send, and may cache, lacks it: a server error.
 */
const CLIENT_RENDERED_BOUNDARY = '<!--$!-->';

/**
 * Remix's single-fetch handoff (the loader data the browser hydrates with) is a stream that its
 * <StreamTransfer> reads while React renders, suspending until each piece arrives. It is read
 * whole here instead and handed over through Remix's render cache (`renderMeta.streamCache`,
 * part of its EntryContext type): one piece, then the end. The page then renders in one pass,
 * with the data in one inline script. Were that cache ever ignored, the transfer would suspend
 * and renderDocument would report the page incomplete (a 500, never a page without its data).
 */
export async function readHandoffData(context: Pick<EntryContext, 'serverHandoffStream' | 'renderMeta'>) {
  const stream = context.serverHandoffStream;
  if (!stream || !context.renderMeta) return;
  const decoder = new TextDecoder();
  let text = '';
  const reader = stream.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read())
    text += decoder.decode(part.value, { stream: true });
  text += decoder.decode();
  reader.releaseLock();
  const settled = (result: { done: boolean; value: string }) => Object.assign(Promise.resolve(), { result });
  context.renderMeta.streamCache = { 0: settled({ done: false, value: text }), 1: settled({ done: true, value: '' }) };
}

/**
 * A whole document in one string (ADR 0013). Every loader has finished when the entry runs and
 * no page streams deferred data, so a stream would only add cost (React encoding each piece of
 * markup into bytes, Node's streams carrying them), not an earlier first byte. `complete` is
 * false when some part could not be rendered (see CLIENT_RENDERED_BOUNDARY).
 */
export function renderDocument(tree: ReactElement): { html: string; complete: boolean } {
  const html = '<!DOCTYPE html>' + withTailInBody(renderToString(tree));
  return { html, complete: !html.includes(CLIENT_RENDERED_BOUNDARY) };
}

/**
 * <RemixServer> renders its single-fetch data scripts (<StreamTransfer>, in a Suspense boundary)
 * as siblings of the app's <html>, so React writes them after `</html>`, where HTML allows nothing
 * but comments and whitespace (the W3C checker stops there: "Stray start tag script"). A browser
 * puts such elements at the end of <body> anyway, so moving them to just before `</body>` gives
 * it the same elements in the same order, with hydration unaffected: React 18 leaves nodes past
 * the last one it expects in <body> alone. The scripts cannot contain a raw `</html>` (Remix
 * writes `<` in their data as \u003c), so the last one in the page is the root's end. A render
 * that is not a whole document (no `</body>` before it) is left as it is.
 */
function withTailInBody(html: string): string {
  const htmlEnd = html.lastIndexOf('</html>');
  if (htmlEnd < 0 || htmlEnd + '</html>'.length === html.length) return html;
  const bodyEnd = html.lastIndexOf('</body>', htmlEnd);
  if (bodyEnd < 0) return html;
  const tail = html.slice(htmlEnd + '</html>'.length);
  return html.slice(0, bodyEnd) + tail + html.slice(bodyEnd, htmlEnd + '</html>'.length);
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

export { startBackupService } from './db/backup-service.server';

export { PUBLIC_CACHE } from './lib/cache-policy.server';
/** server.mjs folds a redirect to `//host` into a path of this site (return-path.ts). */
export { onSiteLocation } from './lib/return-path';
/** server.mjs answers a path with a trailing slash with a 301 to the bare one (trailing-slash.ts). */
export { trailingSlashTarget } from './lib/trailing-slash';
/** The site's address (SITE_URL, else the one server.mjs listens on): server.mjs checks form posts' Origin against it. */
export function siteUrl(): string {
  return env().siteUrl;
}

/**
 * The last step of every response (server.mjs calls it from its `writeHead` hook, whoever made
 * the response: pages, data, resource routes, redirects Remix returns without the entry):
 * the headers that make a personal answer `private, no-store`, or null (cache-policy.server.ts).
 * Not named in the Remix entry API: only server.mjs calls it.
 */
export function responseCacheHeaders(facts: ResponseFacts): Record<string, string> | null {
  return privateCacheHeaders(facts);
}

/** Remix's handler wrapped by the rendered-page cache (ADR 0010); server.mjs serves through it. */
export function withPageCache(handle: RequestHandler): RequestHandler {
  return wrapWithPageCache(handle, pageCache());
}

/**
 * The warm path (server.mjs, before Express's compression and Remix): a kept page's prepared
 * answer (headers and buffer, in the form the browser takes, or a 304), else null. `url` is the
 * request's path and query; `header` reads a request header.
 */
export function cachedAnswer(
  method: string,
  url: string,
  header: (name: 'cookie' | 'accept-encoding' | 'if-none-match') => string | null,
): PreparedAnswer | null {
  const cache = pageCache();
  if (!cache) return null;
  let parsed: URL;
  try {
    // As Remix's request has it (the Express adapter's URL): `//x` stays a path, dot segments resolved.
    parsed = new URL(`http://site${url}`);
  } catch {
    return null;
  }
  return preparedAnswer(cache, method, parsed, header);
}

export async function handleDataRequest(response: Response, { request }: { request: Request }) {
  setCacheHeaders(request, response.status, response.headers, await isPreview(request));
  return response;
}

const handleRequest: HandleDocumentRequestFunction = async (
  request,
  responseStatusCode,
  responseHeaders,
  remixContext: EntryContext,
) => {
  const locale = requestLocale(request);
  const preview = await isPreview(request);
  setCacheHeaders(request, responseStatusCode, responseHeaders, preview);
  const { content, gtmId, behindHttps, billing } = env();
  for (const [name, value] of Object.entries(framingHeaders(preview, content))) responseHeaders.set(name, value);
  // A page opened from another site shares no window with it; except a hosted preview, which
  // the Studio's Presentation tool may open as its own window.
  if (!(preview && content.world === 'hosted')) responseHeaders.set('Cross-Origin-Opener-Policy', 'same-origin');
  // The language's shared instance, created at start (app/i18next.server.ts).
  const i18n = i18nFor(locale);

  // The shell's deferred widgets are rendered from their modules, loaded at start (ADR 0012).
  await allDeferredLoaded();
  await readHandoffData(remixContext);
  const page = renderDocument(
    <I18nextProvider i18n={i18n}>
      <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} />
    </I18nextProvider>,
  );
  // The policy allows the page's own inline scripts by hash (ADR 0023), so it is made from the
  // finished document: the same bytes give the same header, whoever asked and whenever, which
  // lets the page cache and a CDN keep the page and its policy whole. frame-ancestors is part
  // of this one policy.
  responseHeaders.set(
    'Content-Security-Policy',
    contentSecurityPolicy({
      scriptHashes: inlineScriptHashes(page.html),
      tagManager: Boolean(gtmId),
      frameAncestors: frameAncestorSources(preview, content),
      frameSources: schedulingFrameSources(remixContext.staticHandlerContext.loaderData, behindHttps),
      paymentOrigins: billing.kind === 'stripe' && billing.apiBase ? [new URL(billing.apiBase).origin] : [],
      formOrigins:
        content.world === 'embedded' ? studioSignInFormOrigins(new URL(request.url).pathname, env().siteUrl) : [],
      // Hosted content's images are served by Sanity's CDN (@sanity/image-url's default address).
      imageOrigins: content.world === 'hosted' ? [SANITY_IMAGE_CDN] : [],
    }),
  );
  if (!page.complete) {
    responseStatusCode = 500;
    if (responseHeaders.get('Cache-Control') !== PRIVATE_CACHE) responseHeaders.set('Cache-Control', 'no-store');
    console.error(`[render] part of ${new URL(request.url).pathname} could not be rendered on the server`);
  }
  responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
  for (const [name, value] of Object.entries(securityHeaders()))
    if (!responseHeaders.has(name)) responseHeaders.set(name, value);
  // Encoded here in one step: a string body would be checked for lone surrogates (WebIDL's
  // USVString) and then encoded by the Response, both over the whole page.
  return new Response(Buffer.from(page.html), { headers: responseHeaders, status: responseStatusCode });
};

export default handleRequest;

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  // An expected refusal (a 4xx answer: not found, wrong method, a refused form) is not a fault.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  console.error(error);
}
