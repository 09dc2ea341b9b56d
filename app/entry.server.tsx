// The document renderer: nothing here runs at import (the server starts the database, the jobs
// and the rest: server/index.ts).
import type { EntryContext, HandleDocumentRequestFunction } from '@remix-run/node';
import { isRouteErrorResponse, RemixServer } from '@remix-run/react';
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import {
  baseSecurityHeaders,
  contentSecurityPolicy,
  inlineScriptHashes,
  SANITY_IMAGE_CDN,
  schedulingFrameSources,
} from './lib/csp.server';
import { PRIVATE_CACHE, setCacheHeaders } from './lib/cache-policy.server';
import { allDeferredLoaded } from './lib/deferred';
import { TranslationsContext } from './lib/locale';
import { headScripts } from './lib/head-scripts.server';
import { HeadScriptsContext } from './lib/root-data';
import { serverTranslations } from './lib/translations.server';
import { env } from './lib/env.server';
import { reportError } from './lib/errors.server';
import { log } from './lib/log.server';
import { frameAncestorSources, framingHeaders, isPreview } from './lib/preview.server';
import { studioSignInFormOrigins } from './lake/editors.server';

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
  const preview = await isPreview(request);
  setCacheHeaders(request, responseStatusCode, responseHeaders, preview);
  const { content, gtmId, behindHttps, billing } = env();
  for (const [name, value] of Object.entries(framingHeaders(preview, content))) responseHeaders.set(name, value);
  // A page opened from another site shares no window with it; except a hosted preview, which
  // the Studio's Presentation tool may open as its own window.
  if (!(preview && content.world === 'hosted')) responseHeaders.set('Cross-Origin-Opener-Policy', 'same-origin');
  // The shell's deferred widgets are rendered from their modules, loaded at start (ADR 0012).
  await allDeferredLoaded();
  await readHandoffData(remixContext);
  const page = renderDocument(
    // useT's strings: the languages' shared i18next instances, created at start (app/i18next.server.ts).
    <TranslationsContext.Provider value={serverTranslations}>
      <HeadScriptsContext.Provider value={headScripts}>
        <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} />
      </HeadScriptsContext.Provider>
    </TranslationsContext.Provider>,
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
    log.error(
      { event: 'render.incomplete', path: new URL(request.url).pathname },
      '[render] part of a page could not be rendered on the server',
    );
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
  log.error({ event: 'request.error', err: error }, '[error] a request failed');
  reportError(error, { method: request.method, route: new URL(request.url).pathname });
}
