import type { AppLoadContext } from '@remix-run/node';
import { FORM_TOKEN_FIELD } from '~/features/forms/fields';
import { LOCALE_COOKIE, localeCookieValue, localeFromPath } from '~/i18n';
import { contentClient } from '~/sanity/client.server';
import type { ContentClient } from '~/sanity/types';
import { isPortalPath } from './cache-policy.server';
import { env } from './env.server';
import { NONCE_LENGTH, NONCE_PLACEHOLDER, RENDER_FOR_REUSE, withFreshNonce } from './csp.server';
import {
  acceptsGzip,
  compressWithHoles,
  filled,
  gzipFilled,
  splitAtHoles,
  type GzipWithHoles,
} from './gzip-with-holes.server';

/**
 * The rendered-page cache (ADR 0010): HTML documents and single-fetch data (`.data`) of public
 * pages, as anonymous visitors get them, kept in this process and served without running a
 * loader or rendering until the content changes. Pages are stored with the CSP nonce
 * placeholder (ADR 0009) and every response, hit or not, gets its own nonce on the way out.
 *
 * Who never reads or fills it: any method but GET (HEAD reads only), a request carrying a cookie
 * other than the language choice and analytics cookies (a preview session, a signed-in client,
 * the sign-in step), the portal and checkout, the API, resource routes (images, sitemap, robots),
 * the booking confirmation (one per booking) and a URL carrying a form token. What is never
 * stored: anything but a 200 HTML or data answer marked public, or one that sets a cookie.
 */

/** Cookies that do not change what a page shows (the language choice is handled apart; analytics cookies are set by the tag manager). */
const NEUTRAL_COOKIE = new RegExp(`^(?:${LOCALE_COOKIE}|_ga(?:_[A-Za-z0-9]+)?|_gid|_gcl_[a-z]+)$`);
const RESOURCE_PATHS = /^\/(?:api|images|build|build-[^/]+)\/|^\/(?:sitemap\.xml|robots\.txt)$/;
/** Single-fetch data for the root or a page: `/_root.data`, `/blog.data`, `/ar/faq.data`. */
const DATA_SUFFIX = /\.data$/;

export type CacheVerdict = { key: string } | { bypass: string };

/** The page a URL's path belongs to: `/blog.data` -> `/blog`, `/_root.data` -> `/`. */
function pagePath(pathname: string): string {
  if (!DATA_SUFFIX.test(pathname)) return pathname;
  const bare = pathname.replace(DATA_SUFFIX, '');
  return bare === '/_root' ? '/' : bare;
}

function cookieNames(header: string | null): string[] {
  if (!header) return [];
  return header
    .split(';')
    .map((part) => part.split('=')[0]!.trim())
    .filter(Boolean);
}

/** The language cookie's value for Arabic, as the language menu writes it (Remix's cookie encoding), escaped or not. */
const ARABIC_CHOICE = new Set([localeCookieValue('ar'), decodeURIComponent(localeCookieValue('ar'))]);

function choseArabic(header: string | null): boolean {
  return (header ?? '').split(';').some((part) => {
    const [name, ...value] = part.trim().split('=');
    return name === LOCALE_COOKIE && ARABIC_CHOICE.has(value.join('='));
  });
}

/** The cache key of a request (path, search and language), or why it must not use the cache. */
export function cacheVerdict(request: Request): CacheVerdict {
  if (request.method !== 'GET' && request.method !== 'HEAD') return { bypass: 'method' };
  const url = new URL(request.url);
  const page = pagePath(url.pathname);
  if (RESOURCE_PATHS.test(url.pathname)) return { bypass: 'resource' };
  if (isPortalPath(page)) return { bypass: 'portal' };
  if (/^(?:\/ar)?\/booking-confirmation(?:\/|$)/.test(page)) return { bypass: 'personal' };
  if (url.searchParams.has(FORM_TOKEN_FIELD)) return { bypass: 'personal' };
  const cookie = request.headers.get('Cookie');
  if (cookieNames(cookie).some((name) => !NEUTRAL_COOKIE.test(name))) return { bypass: 'cookie' };
  // The English home page sends a visitor who chose Arabic to /ar (layouts/locale.tsx).
  if (page === '/' && choseArabic(cookie)) return { bypass: 'language-choice' };
  return { key: `${localeFromPath(page)} ${url.pathname}${url.search}` };
}

/**
 * A stored answer: status 200, its headers (with the nonce placeholder), its body and, for
 * visitors whose browser takes gzip, the body compressed once around the placeholders
 * (gzip-with-holes.server.ts), so a hit is neither rendered nor compressed again.
 */
export interface StoredPage {
  headers: [string, string][];
  body: Buffer;
  gzip?: GzipWithHoles;
  storedAt: number;
}

/** What a kept page counts against the byte bound: the body and its compressed copy. */
function sizeOf(page: Omit<StoredPage, 'storedAt'>): number {
  return page.body.length + (page.gzip?.compressedBytes ?? 0);
}

export interface PageCacheOptions {
  maxEntries: number;
  /** Bodies together; the least recently used pages go first. */
  maxBytes: number;
  /** A larger page is served but not kept. */
  maxEntryBytes: number;
  /** After this a page is rendered again (the query cache's age: CONTENT_CACHE_SECONDS). */
  maxAgeMs: number;
  now?: () => number;
}

export const DEFAULT_PAGE_CACHE_LIMITS = {
  maxEntries: 1000,
  maxBytes: 64 * 1024 * 1024,
  maxEntryBytes: 2 * 1024 * 1024,
} as const;

/** Least-recently-used map of rendered pages, bounded by count and bytes. */
export class PageCache {
  private readonly entries = new Map<string, StoredPage>();
  private bytes = 0;
  /** Bumped by every clear: a render that began before it is not stored. */
  generation = 0;

  constructor(private readonly options: PageCacheOptions) {}

  private now() {
    return this.options.now?.() ?? Date.now();
  }

  get(key: string): StoredPage | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (this.now() - entry.storedAt >= this.options.maxAgeMs) {
      this.bytes -= sizeOf(entry);
      return undefined;
    }
    this.entries.set(key, entry);
    return entry;
  }

  /** Keeps a page unless it is too large or the content changed since `generation` was read. */
  set(key: string, page: Omit<StoredPage, 'storedAt'>, generation = this.generation): boolean {
    if (generation !== this.generation || sizeOf(page) > this.options.maxEntryBytes) return false;
    this.delete(key);
    this.entries.set(key, { ...page, storedAt: this.now() });
    this.bytes += sizeOf(page);
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.options.maxEntries && this.bytes <= this.options.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= sizeOf(entry);
    }
    return true;
  }

  private delete(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= sizeOf(entry);
  }

  /** Drops every page (content changed). Returns how many. */
  clear(): number {
    const dropped = this.entries.size;
    this.entries.clear();
    this.bytes = 0;
    this.generation++;
    return dropped;
  }

  get stats() {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}

/** A public answer we may keep: 200, HTML or single-fetch data, marked public, setting no cookie. */
export function isStorable(response: Response): boolean {
  if (response.status !== 200 || response.headers.has('Set-Cookie')) return false;
  const cacheControl = response.headers.get('Cache-Control') ?? '';
  if (!/(?:^|,)\s*public\b/.test(cacheControl) || /no-store|private/.test(cacheControl)) return false;
  const type = response.headers.get('Content-Type') ?? '';
  return /^text\/html\b/.test(type) || /^text\/x-script\b/.test(type);
}

export type RequestHandler = (request: Request, loadContext?: AppLoadContext) => Promise<Response>;

export const PAGE_CACHE_HEADER = 'X-Page-Cache';

/**
 * What a kept page becomes for one visitor: its own nonce in the headers and the HTML, gzipped
 * when the browser takes gzip (`Content-Encoding` set, so the server's compression step passes
 * it through) and plain otherwise; `Vary: Accept-Encoding` either way.
 */
function fromStored(page: StoredPage, request: Request, state: 'hit' | 'miss'): Response {
  const fresh = withFreshNonce({ status: 200, headers: new Headers(page.headers) });
  const headers = fresh.headers;
  headers.set(PAGE_CACHE_HEADER, state);
  headers.append('Vary', 'Accept-Encoding');
  const gzip = page.gzip && acceptsGzip(request.headers.get('Accept-Encoding')) ? page.gzip : null;
  const body = gzip
    ? gzipFilled(gzip, fresh.nonce)
    : filled(page.gzip?.parts ?? splitAtHoles(page.body, NONCE_PLACEHOLDER), fresh.nonce);
  if (gzip) headers.set('Content-Encoding', 'gzip');
  headers.set('Content-Length', String(body.length));
  // Buffer.concat's result lies on a plain ArrayBuffer (what BodyInit asks for).
  return new Response(request.method === 'HEAD' ? null : (body as Uint8Array<ArrayBuffer>), { status: 200, headers });
}

/**
 * An answer rendered for this request only, marked as not from the cache: in place, or on a copy
 * when its headers cannot be changed (a response passed on from `fetch`).
 */
function bypassed(response: Response): Response {
  try {
    response.headers.set(PAGE_CACHE_HEADER, 'bypass');
    return response;
  } catch {
    const headers = new Headers(response.headers);
    headers.set(PAGE_CACHE_HEADER, 'bypass');
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/**
 * An answer rendered to be kept that could not be (an error, a cookie, a private page): it still
 * gets a fresh nonce, in one pass over its HTML (pages are rendered whole: ADR 0013).
 */
async function notKept(response: Response): Promise<Response> {
  const type = response.headers.get('Content-Type') ?? '';
  if (!/^text\/html\b/.test(type) && !response.headers.get('Content-Security-Policy')?.includes(NONCE_PLACEHOLDER))
    return bypassed(response);
  const fresh = withFreshNonce({ status: response.status, headers: response.headers });
  fresh.headers.set(PAGE_CACHE_HEADER, 'bypass');
  const init = { status: response.status, statusText: response.statusText, headers: fresh.headers };
  return new Response(response.body ? fresh.fill(await response.text()) : null, init);
}

/**
 * Wraps Remix's request handler (server.mjs). A request the cache may answer is rendered with
 * the nonce placeholder left in (RENDER_FOR_REUSE in the load context tells entry.server.tsx to
 * leave it), so the page can be kept; this step then gives each response its nonce. Any other
 * request is rendered as usual, the entry giving it its nonce. With `cache` null (PAGE_CACHE=off)
 * every request is rendered (`X-Page-Cache: bypass`).
 */
export function withPageCache(handle: RequestHandler, cache: PageCache | null): RequestHandler {
  return async (request, loadContext) => {
    const verdict = cache ? cacheVerdict(request) : { bypass: 'off' };
    if (!cache || 'bypass' in verdict) return bypassed(await handle(request, loadContext));
    const stored = cache.get(verdict.key);
    if (stored) return fromStored(stored, request, 'hit');
    if (request.method === 'HEAD') return bypassed(await handle(request, loadContext));
    const generation = cache.generation;
    const response = await handle(request, { ...loadContext, [RENDER_FOR_REUSE]: true } as AppLoadContext);
    if (!isStorable(response)) return notKept(response);
    const body = Buffer.from(await response.arrayBuffer());
    // The length changes with the nonce and the encoding: set per response.
    const page = {
      headers: [...response.headers].filter(([name]) => name !== 'content-length'),
      body,
      gzip: compressWithHoles(body, NONCE_PLACEHOLDER, NONCE_LENGTH),
    };
    cache.set(verdict.key, page, generation);
    return fromStored({ ...page, storedAt: 0 }, request, 'miss');
  };
}

/**
 * Empties `cache` when the content that pages are made of changes: the dataset file changed, a
 * webhook reloaded it, or the hosted client heard of a change (the query cache's signal). The
 * server's own writes (form tokens, rate limits, submissions, the portal's state) are private
 * documents, which no public page reads: they leave the pages in place. Were they to empty it,
 * every visitor's first form, every sign-in and every portal job would make all pages render
 * again.
 */
export function followContent(cache: PageCache, client: Pick<ContentClient, 'onChange'>): () => void {
  return client.onChange((_types, origin) => {
    if (origin === 'content') cache.clear();
  });
}

declare global {
  var __pageCache: PageCache | null | undefined;
}

/** The process's page cache (null with PAGE_CACHE=off), emptied whenever the content changes. */
export function pageCache(): PageCache | null {
  if (globalThis.__pageCache === undefined) {
    const e = env();
    if (!e.pageCache) globalThis.__pageCache = null;
    else {
      const cache = new PageCache({ ...DEFAULT_PAGE_CACHE_LIMITS, maxAgeMs: e.contentCacheSeconds * 1000 });
      followContent(cache, contentClient());
      globalThis.__pageCache = cache;
    }
  }
  return globalThis.__pageCache;
}
