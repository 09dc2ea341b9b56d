import { stripLocale } from '~/i18n';
import { routeTable } from '~/route-table.js';

/**
 * Who may keep an answer: the one rule, applied twice. Remix's entry (entry.server.tsx) decides
 * the Cache-Control of every page and single-fetch data answer it sees; server.mjs applies
 * `privateCacheHeaders` again to every response just before its headers leave (as the last
 * step), because some answers never reach the entry: resource routes (the invoice PDF, the
 * newsletter, previews, the form token) and the redirects and errors a loader or action of a
 * document request returns (sign-in, sign-out, Subscribe, checkout).
 *
 * Private (`private, no-store`) whatever the route said:
 * - a portal route (`private: true` in app/route-table.js) in either language, as a document,
 *   as its single-fetch `.data` twin or as `?_data=`, with any letter case or percent-encoding
 *   the router accepts; these also get `Vary: Cookie` and `X-Robots-Tag: noindex`;
 * - any answer that sets or clears a cookie;
 * - any answer to a method other than GET or HEAD (so every redirect of a post: sign-in, verify,
 *   sign-out, Subscribe, pay). A redirect of a portal route is covered by the first rule.
 * Otherwise (the entry only): a preview session is private and noindex, a route's own
 * Cache-Control stands, a server error is `no-store`, and the rest is PUBLIC_CACHE.
 */

/**
 * Published pages may be kept by a CDN for a minute and served stale while it refreshes
 * (or while the content API is down); preview sessions, personal responses and errors never.
 */
export const PUBLIC_CACHE = 'public, max-age=0, s-maxage=60, stale-while-revalidate=600, stale-if-error=86400';
export const PRIVATE_CACHE = 'private, no-store';

/**
 * The paths the portal's routes live under, language-neutral: each private route's path up to
 * its first parameter (`/account`, `/account/invoices`, `/checkout`…). Anything at or below
 * one of them is private, so a 404 or a route added there later is private too.
 */
export function privatePrefixes(routes: readonly { path?: string; private?: boolean }[]): string[] {
  return routes
    .filter((route) => route.private)
    .map((route) => {
      const segments = (route.path ?? '').split('/');
      const dynamic = segments.findIndex((segment) => segment.startsWith(':') || segment === '*');
      return `/${(dynamic < 0 ? segments : segments.slice(0, dynamic)).join('/')}`.toLowerCase();
    });
}

const PRIVATE_PREFIXES = privatePrefixes(routeTable);

/**
 * The language-neutral page path a request's path is routed to, as the router sees it:
 * percent-decoded, lower case (routes match in any case), repeated slashes as one, a
 * single-fetch `.data` suffix and the `/ar` prefix removed. `/ar/account.data` -> `/account`,
 * `/_root.data` -> `/`, `/ar.data` -> `/`, `/%41ccount` -> `/account`.
 */
export function routePath(pathname: string): string {
  let path = pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // a malformed escape: the router matches the raw path too
  }
  path = path.toLowerCase().replace(/\/{2,}/g, '/');
  if (path.endsWith('.data')) {
    path = path.slice(0, -'.data'.length);
    if (path === '/_root') path = '/';
  }
  return stripLocale(path || '/');
}

/** A page of the client portal (or its data): a path at or under a private route of the table. */
export function isPortalPath(pathname: string): boolean {
  const path = routePath(pathname);
  return PRIVATE_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

export interface ResponseFacts {
  method: string;
  /** The request URL's path as received (the search does not matter: `?_data=` keeps the path). */
  pathname: string;
  /** Whether the response sets (or clears) a cookie. */
  setsCookie: boolean;
  /** The response's Vary header so far, if any. */
  vary?: string | null;
  /** Its X-Robots-Tag so far, if any. */
  robots?: string | null;
}

/** Why an answer must be private, or null when nothing in it is personal by these rules. */
export function privateReason({ method, pathname, setsCookie }: ResponseFacts): 'portal' | 'cookie' | 'method' | null {
  if (isPortalPath(pathname)) return 'portal';
  if (setsCookie) return 'cookie';
  if (method !== 'GET' && method !== 'HEAD') return 'method';
  return null;
}

/**
 * The headers that make an answer private, or null when the rules leave it to the route: what
 * server.mjs sets on every response before it leaves, and the entry on the ones it sees.
 */
export function privateCacheHeaders(facts: ResponseFacts): Record<string, string> | null {
  const reason = privateReason(facts);
  if (!reason) return null;
  if (reason !== 'portal') return { 'Cache-Control': PRIVATE_CACHE };
  const vary = facts.vary ?? '';
  return {
    'Cache-Control': PRIVATE_CACHE,
    // The same URL answers another client differently.
    Vary: /(?:^|,)\s*(?:cookie|\*)\s*(?:,|$)/i.test(vary) ? vary : vary ? `${vary}, Cookie` : 'Cookie',
    'X-Robots-Tag': facts.robots && /\bnoindex\b/i.test(facts.robots) ? facts.robots : 'noindex',
  };
}

/**
 * The entry's decision for a page or data answer (in place on its headers): the private rules,
 * then a preview session (private, noindex), then the route's own Cache-Control, then
 * `no-store` for a server error, else PUBLIC_CACHE.
 */
export function setCacheHeaders(
  request: { method: string; url: string },
  status: number,
  headers: Headers,
  preview: boolean,
): void {
  const forced = privateCacheHeaders({
    method: request.method,
    pathname: new URL(request.url).pathname,
    setsCookie: headers.has('Set-Cookie'),
    vary: headers.get('Vary'),
    robots: headers.get('X-Robots-Tag'),
  });
  if (forced) {
    for (const [name, value] of Object.entries(forced)) headers.set(name, value);
    return;
  }
  if (preview) {
    headers.set('Cache-Control', PRIVATE_CACHE);
    headers.set('X-Robots-Tag', 'noindex');
    return;
  }
  if (headers.has('Cache-Control')) return;
  headers.set('Cache-Control', status >= 500 ? 'no-store' : PUBLIC_CACHE);
}

/**
 * The rendered-page cache's reading of a request (ADR 0010): what in it changes a public page.
 *
 * Cookies: a page changes for a preview session (`__preview`: drafts), a signed-in client
 * (`__client`) and the sign-in steps of clients and editors (`__signin`, `__lake_signin`), each
 * `__Host-` prefixed over HTTPS; such a request is rendered for itself. The language choice (`lng`)
 * changes the English home only (the page cache reads it there). Every other cookie (analytics,
 * a consent banner's, a CDN's, another application's on the same domain) changes nothing a page
 * shows, so it neither skips the cache nor reaches the render of a kept page. A cookie the site
 * adds is classified here: cache-policy.server.test.ts lists the site's cookies and fails on a new one.
 */
export const PAGE_CHANGING_COOKIE = /^__(?:Host-)?(?:preview|client|signin|lake_signin)$/;

/**
 * Query parameters that only say where a visitor came from (campaign tags and ad-click ids: Google,
 * Meta, Microsoft, X, TikTok, LinkedIn, Instagram, Yandex, Mailchimp, HubSpot): no page reads them
 * (the browser's analytics read the address bar), so they are not part of a page's cache key, and
 * the page kept for them is the one rendered without them.
 */
const TRACKING_PARAM =
  /^(?:utm_[^=]*|gclid|gclsrc|gbraid|wbraid|dclid|fbclid|msclkid|twclid|ttclid|li_fat_id|igshid|yclid|mc_cid|mc_eid|_ga|_gl|_hsenc|_hsmi|srsltid)$/i;

/**
 * A URL's search without its tracking parameters, every other parameter kept as written and in
 * its order: `?page=2&utm_source=x` -> `?page=2`, `?utm_source=x` -> ``.
 */
export function withoutTracking(search: string): string {
  if (search.length <= 1) return '';
  const kept = search
    .slice(1)
    .split('&')
    .filter((part) => {
      const name = part.split('=', 1)[0]!.replace(/\+/g, ' ');
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // a malformed escape: read as written
      }
      return !TRACKING_PARAM.test(decoded);
    });
  return kept.length ? `?${kept.join('&')}` : '';
}
