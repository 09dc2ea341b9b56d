import { randomBytes } from 'node:crypto';

/**
 * The Content-Security-Policy of every HTML page, with a nonce that is fresh on every
 * response even when the rendered page is reused (ADR 0009):
 *
 * 1. A page the page cache may keep is rendered with NONCE_PLACEHOLDER wherever a nonce goes
 *    (the `nonce` attribute of every script and module preload, Remix's own inline scripts,
 *    and the policy header). It is random per process and never leaves it: every occurrence is
 *    replaced before a byte is sent, so nobody can learn it and write it into content or a URL.
 *    Any other page (a preview, a signed-in client, PAGE_CACHE=off) is rendered with its own
 *    fresh nonce directly (entry.server.tsx).
 * 2. On the way out, `withFreshNonce` swaps the placeholder for a new nonce in the header and
 *    in the HTML. A rendered page kept in a cache (the headers and body with the placeholder)
 *    is served again by calling it once more: a new nonce, no new render.
 */

/** Per process; 24 random bytes, so it cannot be guessed, and only URL-safe characters, so React never escapes it. */
export const NONCE_PLACEHOLDER = `csp${randomBytes(24).toString('base64url')}`;

/**
 * Set in the load context by the page cache's handler (page-cache.server.ts), which swaps the
 * placeholder itself: entry.server.tsx then leaves the placeholder in the rendered page. A
 * symbol, so nothing a visitor sends can set it; without it the entry swaps as before.
 */
export const RENDER_FOR_REUSE = Symbol.for('bawaba.renderForReuse');

/** The length of every nonce: 16 bytes in base64url (the page cache's gzip copy relies on it). */
export const NONCE_LENGTH = 22;

/** A nonce for one response: 16 random bytes (128 bits), base64url (valid in the header and in HTML). */
export function freshNonce(): string {
  return randomBytes(16).toString('base64url');
}

/** Where a scheduling widget is framed when the site settings name none (the bundled dataset's Calendly). */
export const DEFAULT_SCHEDULING_ORIGIN = 'https://calendly.com';
/**
 * Where the pricing page's Subscribe form may lead: Stripe Checkout, or a package's Stripe
 * payment link (form-action also governs the redirect after the post).
 */
export const PAYMENT_FORM_ORIGIN = 'https://checkout.stripe.com';
export const PAYMENT_LINK_ORIGIN = 'https://buy.stripe.com';
/** Sanity's image CDN, where the hosted world's images live. */
export const SANITY_IMAGE_CDN = 'https://cdn.sanity.io';

/** Google Tag Manager and the Google Analytics 4 hosts its tags talk to (Google's guidance for a CSP). */
const GTM = {
  script: ['https://www.googletagmanager.com'],
  connect: ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://*.googletagmanager.com'],
  img: ['https://*.google-analytics.com', 'https://*.googletagmanager.com'],
  frame: ['https://www.googletagmanager.com'],
  style: ['https://www.googletagmanager.com'],
};

export interface CspOptions {
  /** The nonce (or NONCE_PLACEHOLDER while rendering). */
  nonce: string;
  /** GTM_ID is set: the tag manager and what it loads. */
  tagManager: boolean;
  /** Who may frame the page: "'self'" and, in a hosted preview, the Studio's origin. */
  frameAncestors: string[];
  /** Origins of frames the page shows: the scheduling widget. */
  frameSources: string[];
  /**
   * Other origins a form may lead to: Stripe's API address when it is not Stripe's own (tests
   * point the SDK at tests/fake-stripe.mjs, whose Checkout page is on that origin).
   */
  paymentOrigins?: string[];
  /** Where the content's images come from besides the site: Sanity's image CDN in the hosted world. */
  imageOrigins?: string[];
}

/** The http(s) origin of a URL, or null. */
export function originOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/**
 * frame-src for the booking dialog: the origin of the scheduling URL the page's shell carries
 * (site settings, in the locale layout's data), else the bundled dataset's. Over HTTPS only
 * https origins (browsers block an http frame in an https page anyway).
 */
export function schedulingFrameSources(
  loaderData: Record<string, unknown> | null | undefined,
  behindHttps: boolean,
): string[] {
  const origins = new Set<string>();
  for (const value of Object.values(loaderData ?? {})) {
    const url = (value as { shell?: { settings?: { schedulingUrl?: unknown } } } | null)?.shell?.settings
      ?.schedulingUrl;
    const origin = typeof url === 'string' ? originOf(url) : null;
    if (origin && (!behindHttps || origin.startsWith('https:'))) origins.add(origin);
  }
  return origins.size ? [...origins] : [DEFAULT_SCHEDULING_ORIGIN];
}

/**
 * The policy, one directive per concern:
 * - scripts: only those carrying the nonce, and what they load ('strict-dynamic': Remix's
 *   route modules and GTM's tags); 'self' and the GTM host are fallbacks for browsers
 *   without 'strict-dynamic' (CSP3 browsers ignore them). No 'unsafe-inline', no 'unsafe-eval'.
 * - styles: 'unsafe-inline' stays. React renders `style` attributes (Radix positions its
 *   popovers with them) and the Studio's overlays insert <style> elements; a nonce cannot
 *   cover attributes. Injected CSS cannot run script, and the Observatory scores this 0
 *   ("unsafe-inline in style-src only"), not a penalty.
 * - object-src 'none', base-uri 'self', form-action to the site and Stripe Checkout,
 *   frame-src to the scheduling widget, frame-ancestors as before (the Studio in a hosted preview).
 */
export function contentSecurityPolicy(options: CspOptions): string {
  const gtm = options.tagManager;
  const unique = (values: string[]) => [...new Set(values)];
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', [`'nonce-${options.nonce}'`, "'strict-dynamic'", "'self'", ...(gtm ? GTM.script : [])]],
    ['style-src', ["'self'", "'unsafe-inline'", ...(gtm ? GTM.style : [])]],
    ['img-src', unique(["'self'", 'data:', ...(options.imageOrigins ?? []), ...(gtm ? GTM.img : [])])],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'", ...(gtm ? GTM.connect : [])]],
    ['frame-src', unique(["'self'", ...options.frameSources, ...(gtm ? GTM.frame : [])])],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', unique(["'self'", PAYMENT_FORM_ORIGIN, PAYMENT_LINK_ORIGIN, ...(options.paymentOrigins ?? [])])],
    ['frame-ancestors', unique(options.frameAncestors)],
  ];
  return directives.map(([name, values]) => `${name} ${values.join(' ')}`).join('; ');
}

/** HSTS when the site runs behind HTTPS: two years, subdomains included, not preloaded (ADR 0009). */
export const HSTS_VALUE = 'max-age=63072000; includeSubDomains';

/**
 * Headers for every response (pages, data, resource routes, static files): no MIME sniffing,
 * no full URLs in cross-origin referrers, and HSTS when the site is behind HTTPS.
 */
export function baseSecurityHeaders(behindHttps: boolean): Record<string, string> {
  return {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    ...(behindHttps ? { 'Strict-Transport-Security': HSTS_VALUE } : {}),
  };
}

/** A rendered page as a cache would keep it: status, headers and body, all with NONCE_PLACEHOLDER. */
export interface RenderedPage {
  status: number;
  headers: Headers;
}

/**
 * The response step: a fresh nonce in place of the placeholder, in the headers and (`fill`)
 * in the page's HTML. Pages are rendered whole (entry.server.tsx), so the swap is one pass
 * over one string.
 */
export function withFreshNonce(
  page: RenderedPage,
  nonce = freshNonce(),
): { nonce: string; headers: Headers; fill: (html: string) => string } {
  const headers = new Headers();
  for (const [name, value] of page.headers) headers.append(name, value.split(NONCE_PLACEHOLDER).join(nonce));
  return { nonce, headers, fill: (html) => html.split(NONCE_PLACEHOLDER).join(nonce) };
}
