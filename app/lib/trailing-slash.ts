import { stripLocale } from '~/i18n';
import { routeTable } from '~/route-table.js';

/**
 * One URL per page: `/about/` is not a second address of `/about`. server.mjs answers a GET or
 * HEAD whose path ends in a slash with a 301 to the bare path (`/ar/` to `/ar`), the query kept,
 * before Remix (whose router would otherwise render the same page there, canonical and all).
 *
 * Paths the product spec names with their slash keep it (the spec wins over the rule):
 * - `/booking-confirmation/` is "also accepted with a trailing slash": the scheduling service
 *   sends visitors there, so it answers itself, no extra hop (the page is noindex anyway);
 * - `/contact/` (and the other old addresses of resources/redirects.ts) "go to" their target:
 *   their own 301 goes there in one step instead of two.
 * Both are found from the route table, so they follow it, in both languages.
 */
const KEEPS_SLASH = new Set(
  routeTable
    .filter((route) => route.id === 'booking-confirmation' || route.file === 'resources/redirects.ts')
    .map((route) => `/${(route.path ?? '').split('/:')[0]}`.toLowerCase()),
);

/**
 * Where a request for `pathAndQuery` (a request target: path and optional `?query`) must be
 * redirected to drop its trailing slash, or null when it is served as it is. The target is a
 * path of this site whatever the request held: leading slashes and backslashes fold into one,
 * so `//evil.example/` goes to `/evil.example` (a 404 here), never to another host.
 */
export function trailingSlashTarget(pathAndQuery: string): string | null {
  const queryAt = pathAndQuery.indexOf('?');
  const path = queryAt < 0 ? pathAndQuery : pathAndQuery.slice(0, queryAt);
  const query = queryAt < 0 ? '' : pathAndQuery.slice(queryAt);
  if (path === '/') return null;
  // As a browser resolves it (backslashes as slashes, dot segments resolved): `/about/.` is
  // `/about/`, and the target must not be one a browser reads as the slash path again.
  let resolved: string;
  try {
    resolved = new URL('/' + path.replace(/^[/\\]+/, ''), 'http://site.invalid').pathname;
  } catch {
    return null;
  }
  if (!/[/\\]$/.test(path) && (resolved === '/' || !resolved.endsWith('/'))) return null;
  const target = '/' + resolved.replace(/^\/+/, '').replace(/\/+$/, '');
  if (target === path || KEEPS_SLASH.has(stripLocale(target).toLowerCase())) return null;
  return target + (query === '?' ? '' : query);
}
