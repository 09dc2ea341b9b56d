import type { AppLoadContext } from '@remix-run/node';
import { FORM_TOKEN_FIELD } from '~/features/forms/fields';
import { LOCALE_COOKIE, localeCookieValue, localeFromPath } from '~/i18n';
import { contentClient } from '~/sanity/client.server';
import type { ContentClient } from '~/sanity/types';
import { isPortalPath, PAGE_CHANGING_COOKIE, withoutTracking } from './cache-policy.server';
import { env } from './env.server';
import { brotliCompress, constants as zlib, gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';

/**
 * The rendered-page cache (ADR 0010): HTML documents and single-fetch data (`.data`) of public
 * pages, as anonymous visitors get them, kept in this process and served without running a
 * loader or rendering until the content changes. A page is the same bytes for every visitor (its
 * policy allows its scripts by hash: ADR 0023), so it is kept as it is sent: its headers, its
 * bytes, and its gzip and brotli forms made once when it is stored. A hit picks the form the
 * browser takes and writes that buffer (`preparedAnswer`; server.mjs answers hits with it before
 * Express's compression and Remix's adapter), with an ETag per form and 304 to a revalidation.
 *
 * Who never reads or fills it: any method but GET (HEAD reads only), a request carrying a cookie
 * that changes a page (a preview session, a signed-in client, a sign-in step: PAGE_CHANGING_COOKIE;
 * other cookies are ignored), the portal and checkout, the API, resource routes (images, sitemap,
 * robots), the booking confirmation (one per booking) and a URL carrying a form token. What is
 * never stored: anything but a 200 HTML or data answer marked public, or one that sets a cookie.
 *
 * The key is what changes the page: language, path and search without tracking parameters
 * (`utm_*`, `gclid`, `fbclid`…); a page is rendered from exactly that (the request without those
 * parameters and without the ignored cookies), so what is kept is what every visitor of the key
 * would get. A storm of distinct URLs cannot empty it: a page enters on probation and is protected
 * once asked for again (PageCache).
 */
const RESOURCE_PATHS = /^\/(?:api|images|build|build-[^/]+)\/|^\/(?:sitemap\.xml|robots\.txt)$/;
/** Single-fetch data for the root or a page: `/_root.data`, `/blog.data`, `/ar/faq.data`. */
const DATA_SUFFIX = /\.data$/;

/**
 * The key of a request the cache may answer, and, when the request carries what the key leaves out
 * (tracking parameters, cookies that change nothing), the URL and Cookie header a miss is rendered
 * with; or why it must not use the cache.
 */
export type CacheVerdict = { key: string; render?: { url: string; cookie: string | null } } | { bypass: string };
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

/** What the cache's decision reads from a request: its method, URL (path and query) and cookies. */
export interface RequestFacts {
  method: string;
  url: URL;
  cookie: string | null;
}

/** The cache key of a request (path, search and language), or why it must not use the cache. */
export function cacheVerdict(request: Request): CacheVerdict {
  return verdictFor({ method: request.method, url: new URL(request.url), cookie: request.headers.get('Cookie') });
}

export function verdictFor({ method, url, cookie }: RequestFacts): CacheVerdict {
  if (method !== 'GET' && method !== 'HEAD') return { bypass: 'method' };
  const page = pagePath(url.pathname);
  if (RESOURCE_PATHS.test(url.pathname)) return { bypass: 'resource' };
  if (isPortalPath(page)) return { bypass: 'portal' };
  if (/^(?:\/ar)?\/booking-confirmation(?:\/|$)/.test(page)) return { bypass: 'personal' };
  if (url.searchParams.has(FORM_TOKEN_FIELD)) return { bypass: 'personal' };
  const names = cookieNames(cookie);
  if (names.some((name) => PAGE_CHANGING_COOKIE.test(name))) return { bypass: 'cookie' };
  // The English home page sends a visitor who chose Arabic to /ar (layouts/locale.tsx).
  if (page === '/' && choseArabic(cookie)) return { bypass: 'language-choice' };
  const search = withoutTracking(url.search);
  const key = `${localeFromPath(page)} ${url.pathname}${search}`;
  const ignoredCookie = names.some((name) => name !== LOCALE_COOKIE);
  if (search === url.search && !ignoredCookie) return { key };
  return { key, render: { url: `${url.origin}${url.pathname}${search}`, cookie: languageCookie(cookie) } };
}

/** Only the language choice of a Cookie header (null without one): what a kept page may be rendered with. */
function languageCookie(header: string | null): string | null {
  const kept = (header ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.split('=', 1)[0] === LOCALE_COOKIE);
  return kept.length ? kept.join('; ') : null;
}

/** The request a miss is rendered from: the one received, or it without what the key leaves out. */
function renderedRequest(request: Request, render: { url: string; cookie: string | null } | undefined): Request {
  if (!render) return request;
  const headers = new Headers(request.headers);
  if (render.cookie) headers.set('Cookie', render.cookie);
  else headers.delete('Cookie');
  return new Request(render.url, { method: request.method, headers, signal: request.signal });
}

/** The content codings a page is kept in, the browser's choice of them in this order of preference. */
export type Coding = 'br' | 'gzip' | 'identity';

/** One form of a kept page, ready to write: every header (Content-Length, ETag, Content-Encoding included) and its bytes. */
export interface Prepared {
  headers: [string, string][];
  body: Buffer;
  etag: string;
}

/**
 * A stored answer, as it is sent: the status is 200; one prepared form per content coding
 * (brotli is added when its compression, done off the request path, finishes).
 */
export interface StoredPage {
  forms: Partial<Record<Coding, Prepared>> & Record<'gzip' | 'identity', Prepared>;
  /** Every ETag of the page's forms: a revalidation with any of them is answered 304. */
  etags: Set<string>;
  storedAt: number;
}

/** What a kept page counts against the byte bound: the bodies of its forms. */
function sizeOf(page: Pick<StoredPage, 'forms'>): number {
  let bytes = 0;
  for (const form of Object.values(page.forms)) bytes += form.body.length;
  return bytes;
}

export interface PageCacheOptions {
  maxEntries: number;
  /** Bodies together; the least recently used pages go first. */
  maxBytes: number;
  /** A larger page is served but not kept. */
  maxEntryBytes: number;
  /** After this a page is rendered again (the query cache's age: CONTENT_CACHE_SECONDS). */
  maxAgeMs: number;
  /**
   * The share of both bounds that pages asked for once (on probation) may take together (default
   * 1: only the bounds). Pages asked for again are protected: they leave only when the protected
   * pages fill PROTECTED_SHARE of the bounds, or when the content changes.
   */
  probationShare?: number;
  now?: () => number;
}

export const DEFAULT_PAGE_CACHE_LIMITS = {
  maxEntries: 1000,
  maxBytes: 64 * 1024 * 1024,
  maxEntryBytes: 2 * 1024 * 1024,
  probationShare: 0.2,
} as const;

/** The share of the bounds protected pages may take; beyond it the least recently used goes back on probation. */
const PROTECTED_SHARE = 0.8;

type Segment = { entries: Map<string, StoredPage>; bytes: number };

/**
 * Rendered pages, bounded by count and bytes, in two least-recently-used segments (a segmented
 * LRU): a page is stored on probation and moves to the protected segment when it is asked for
 * again. Room is made from probation first, so a storm of one-off URLs (random query strings)
 * only replaces other one-off pages, never the pages visitors keep asking for; and probation is
 * capped (`probationShare`), so such a storm holds little memory.
 */
export class PageCache {
  private readonly probation: Segment = { entries: new Map(), bytes: 0 };
  private readonly protected: Segment = { entries: new Map(), bytes: 0 };
  /** Bumped by every clear: a render that began before it is not stored. */
  generation = 0;

  constructor(private readonly options: PageCacheOptions) {}

  private now() {
    return this.options.now?.() ?? Date.now();
  }

  private segmentOf(key: string): Segment | undefined {
    if (this.protected.entries.has(key)) return this.protected;
    if (this.probation.entries.has(key)) return this.probation;
    return undefined;
  }

  get(key: string): StoredPage | undefined {
    const segment = this.segmentOf(key);
    if (!segment) return undefined;
    const entry = segment.entries.get(key)!;
    remove(segment, key, entry);
    if (this.now() - entry.storedAt >= this.options.maxAgeMs) return undefined;
    // Asked for again: protected (most recently used first to stay).
    put(this.protected, key, entry);
    if (segment === this.probation) {
      this.fit();
      if (!entry.forms.br) addBrotli(this, key, entry, basePart(entry));
    }
    return entry;
  }

  /** Keeps a page (on probation) unless it is too large or the content changed since `generation` was read. */
  set(key: string, page: Omit<StoredPage, 'storedAt'>, generation = this.generation): boolean {
    if (generation !== this.generation || sizeOf(page) > this.options.maxEntryBytes) return false;
    this.delete(key);
    put(this.probation, key, { ...page, storedAt: this.now() });
    this.fit();
    return true;
  }

  /**
   * Adds a form made after the page was stored (brotli), if the same page is still kept and
   * stays within the bounds; otherwise it is dropped (the page is served without it).
   */
  addForm(key: string, page: StoredPage, coding: Coding, form: Prepared): boolean {
    const segment = this.segmentOf(key);
    if (!segment || segment.entries.get(key) !== page || page.forms[coding]) return false;
    if (sizeOf(page) + form.body.length > this.options.maxEntryBytes) return false;
    page.forms[coding] = form;
    page.etags.add(form.etag);
    segment.bytes += form.body.length;
    this.fit();
    return true;
  }

  /**
   * Back within the bounds: protected pages beyond their share go back on probation (least
   * recently used first), probation is cut to its share, then the whole to the bounds, oldest
   * probation pages first.
   */
  private fit() {
    const { maxEntries, maxBytes } = this.options;
    const share = this.options.probationShare ?? 1;
    const over = (segment: Segment, part: number) =>
      segment.entries.size > Math.max(1, Math.floor(maxEntries * part)) || segment.bytes > maxBytes * part;
    while (this.protected.entries.size > 1 && over(this.protected, PROTECTED_SHARE)) {
      const [key, entry] = this.protected.entries.entries().next().value!;
      remove(this.protected, key, entry);
      put(this.probation, key, entry);
    }
    while (this.probation.entries.size > 0 && over(this.probation, share)) this.evictOldest(this.probation);
    while (
      this.probation.entries.size + this.protected.entries.size > 0 &&
      (this.probation.entries.size + this.protected.entries.size > maxEntries ||
        this.probation.bytes + this.protected.bytes > maxBytes)
    )
      this.evictOldest(this.probation.entries.size ? this.probation : this.protected);
  }

  private evictOldest(segment: Segment) {
    const [key, entry] = segment.entries.entries().next().value!;
    remove(segment, key, entry);
  }

  private delete(key: string) {
    const segment = this.segmentOf(key);
    if (segment) remove(segment, key, segment.entries.get(key)!);
  }

  /** Drops every page (content changed). Returns how many. */
  clear(): number {
    const dropped = this.probation.entries.size + this.protected.entries.size;
    for (const segment of [this.probation, this.protected]) {
      segment.entries.clear();
      segment.bytes = 0;
    }
    this.generation++;
    return dropped;
  }

  /** The kept page under `key`, without counting a use or checking its age. */
  peek(key: string): StoredPage | undefined {
    return this.segmentOf(key)?.entries.get(key);
  }

  get stats() {
    return {
      entries: this.probation.entries.size + this.protected.entries.size,
      bytes: this.probation.bytes + this.protected.bytes,
      protected: this.protected.entries.size,
    };
  }
}

function put(segment: Segment, key: string, entry: StoredPage) {
  segment.entries.set(key, entry);
  segment.bytes += sizeOf(entry);
}

function remove(segment: Segment, key: string, entry: StoredPage) {
  segment.entries.delete(key);
  segment.bytes -= sizeOf(entry);
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
 * The q a request's Accept-Encoding gives `coding`: named, else `*`, else 0 (a missing header
 * means identity only: what a client that names nothing is sure to read).
 */
function qualityOf(header: string | null, coding: 'br' | 'gzip'): number {
  if (!header) return 0;
  let star = 0;
  for (const item of header.split(',')) {
    const [name, ...params] = item.trim().toLowerCase().split(';');
    const value = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const q = value === undefined ? 1 : Number(value);
    if (name === coding || (coding === 'gzip' && name === 'x-gzip')) return q;
    if (name === '*') star = q;
  }
  return star;
}

/** The form a browser gets: brotli if it takes it and it is made, else gzip if it takes it, else the plain bytes. */
export function chooseCoding(acceptEncoding: string | null, available: Partial<Record<Coding, unknown>>): Coding {
  const br = available.br ? qualityOf(acceptEncoding, 'br') : 0;
  const gzip = qualityOf(acceptEncoding, 'gzip');
  if (br > 0 && br >= gzip) return 'br';
  return gzip > 0 ? 'gzip' : 'identity';
}

/** Whether If-None-Match names one of the page's ETags (weak comparison, as for GET) or is `*`. */
function revalidated(ifNoneMatch: string | null, etags: Set<string>): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => etags.has(tag.trim().replace(/^W\//, '')));
}

/** Headers of a 304: the 200's, without those that describe its body. */
const NOT_FOR_304 = new Set(['content-length', 'content-encoding', 'content-type']);

/** A kept page's answer for one request: a prepared form's headers and bytes, or a 304. Nothing is computed per response. */
export interface PreparedAnswer {
  status: 200 | 304;
  headers: [string, string][];
  /** Null for HEAD and 304. */
  body: Buffer | null;
}

/**
 * The answer a kept page gives: the form the browser takes (Accept-Encoding), or 304 when its
 * If-None-Match names the page. `X-Page-Cache` is the last header (`hit`, or `miss` for the
 * answer to the request that stored it).
 */
export function answerFrom(
  page: StoredPage,
  method: string,
  acceptEncoding: string | null,
  ifNoneMatch: string | null,
): PreparedAnswer {
  const form = page.forms[chooseCoding(acceptEncoding, page.forms)]!;
  if (revalidated(ifNoneMatch, page.etags))
    return { status: 304, headers: form.headers.filter(([name]) => !NOT_FOR_304.has(name)), body: null };
  return { status: 200, headers: form.headers, body: method === 'HEAD' ? null : form.body };
}

/**
 * The hit path without Remix or Express's compression (server.mjs): the prepared answer for a
 * request the cache may answer and holds, else null (the request goes on to Remix, which
 * renders it and may store it).
 */
export function preparedAnswer(
  cache: PageCache | null,
  method: string,
  url: URL,
  header: (name: 'cookie' | 'accept-encoding' | 'if-none-match') => string | null,
): PreparedAnswer | null {
  if (!cache) return null;
  const verdict = verdictFor({ method, url, cookie: header('cookie') });
  if ('bypass' in verdict) return null;
  const stored = cache.get(verdict.key);
  return stored ? answerFrom(stored, method, header('accept-encoding'), header('if-none-match')) : null;
}

function toResponse(answer: PreparedAnswer, state: 'hit' | 'miss'): Response {
  const headers = new Headers(answer.headers);
  headers.set(PAGE_CACHE_HEADER, state);
  // The kept buffer itself (a Buffer is a Uint8Array; the Response only reads it).
  const body = answer.body ? (answer.body as Uint8Array<ArrayBuffer>) : null;
  return new Response(body, { status: answer.status, headers });
}

/** A strong ETag per form: the page's sha256 (so equal bytes give equal tags in every server copy) and the coding. */
function etagOf(identity: Buffer, coding: Coding): string {
  const digest = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
  return coding === 'identity' ? `"${digest}"` : `"${digest}-${coding}"`;
}

/** One form's full headers: the page's own, then its length, coding, tag and Vary. */
function prepare(base: [string, string][], identity: Buffer, body: Buffer, coding: Coding): Prepared {
  const etag = etagOf(identity, coding);
  const headers: [string, string][] = [...base, ['content-length', String(body.length)], ['etag', etag]];
  if (coding !== 'identity') headers.push(['content-encoding', coding]);
  headers.push([PAGE_CACHE_HEADER.toLowerCase(), 'hit']);
  return { headers, body, etag };
}

/**
 * A page as it is kept: its headers (policy included) without the ones that depend on the form,
 * `Vary: Accept-Encoding` added, and its plain and gzip forms (gzip at its best level: it is done
 * once per page and content change).
 */
export function preparePage(
  responseHeaders: Iterable<[string, string]>,
  identity: Buffer,
): Omit<StoredPage, 'storedAt'> {
  const base: [string, string][] = [];
  let vary = '';
  for (const [name, value] of responseHeaders) {
    if (name === 'content-length' || name === 'content-encoding' || name === 'etag') continue;
    if (name === 'vary') vary = value;
    else base.push([name, value]);
  }
  base.push(['vary', /\baccept-encoding\b/i.test(vary) ? vary : vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding']);
  const gzip = gzipSync(identity, { level: zlib.Z_BEST_COMPRESSION });
  const forms = {
    identity: prepare(base, identity, identity, 'identity'),
    gzip: prepare(base, identity, gzip, 'gzip'),
  };
  return { forms, etags: new Set([forms.identity.etag, forms.gzip.etag]) };
}

/**
 * The brotli form, made in libuv's thread pool so no request waits for it (quality 11 takes
 * tens of milliseconds for a page), then added to the kept page if it is still the one kept.
 * Made when a page is asked for again (protected), not when it is first stored: a storm of
 * one-off URLs costs no brotli work and holds no encoder's memory.
 */
function addBrotli(cache: PageCache, key: string, page: StoredPage, base: [string, string][]) {
  const identity = page.forms.identity.body;
  brotliCompress(
    identity,
    {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
        [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    },
    (error, br) => {
      if (error || br.length >= page.forms.gzip.body.length) return;
      cache.addForm(key, page, 'br', prepare(base, identity, br, 'br'));
    },
  );
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
 * Wraps Remix's request handler (server.mjs). A request the cache may answer and holds is
 * answered from it; otherwise the page is rendered (the same way for everyone: the policy comes
 * from the page's bytes) and, if it may be kept, stored and answered from what was stored. Any
 * other request is rendered as usual. With `cache` null (PAGE_CACHE=off) every request is
 * rendered (`X-Page-Cache: bypass`).
 */
export function withPageCache(handle: RequestHandler, cache: PageCache | null): RequestHandler {
  return async (request, loadContext) => {
    const verdict = cache ? cacheVerdict(request) : { bypass: 'off' };
    if (!cache || 'bypass' in verdict) return bypassed(await handle(request, loadContext));
    const accept = request.headers.get('Accept-Encoding');
    const ifNoneMatch = request.headers.get('If-None-Match');
    const stored = cache.get(verdict.key);
    if (stored) return toResponse(answerFrom(stored, request.method, accept, ifNoneMatch), 'hit');
    if (request.method === 'HEAD') return bypassed(await handle(request, loadContext));
    const generation = cache.generation;
    const response = await handle(renderedRequest(request, verdict.render), loadContext);
    // A redirect is not kept: it is sent as made for the request itself, so that its target keeps
    // the visitor's own parameters (a campaign's tags through an old address's 301).
    if (verdict.render && response.status >= 300 && response.status < 400)
      return bypassed(await handle(request, loadContext));
    if (!isStorable(response)) return bypassed(response);
    const identity = Buffer.from(await response.arrayBuffer());
    const prepared = preparePage(response.headers, identity);
    const page: StoredPage = { ...prepared, storedAt: 0 };
    cache.set(verdict.key, prepared, generation);
    return toResponse(answerFrom(page, request.method, accept, ifNoneMatch), 'miss');
  };
}

/** A kept page's own headers (without those `prepare` adds), to prepare another form with. */
function basePart(page: StoredPage): [string, string][] {
  const added = new Set(['content-length', 'etag', 'content-encoding', PAGE_CACHE_HEADER.toLowerCase()]);
  return page.forms.identity.headers.filter(([name]) => !added.has(name));
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
