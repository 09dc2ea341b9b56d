import { createHash } from 'node:crypto';

/**
 * The Content-Security-Policy of every HTML page (ADR 0023, which replaced ADR 0009's nonces).
 * Scripts are allowed by the sha256 of their text: once a page is rendered whole
 * (entry.server.tsx), `inlineScriptHashes` hashes each inline script the browser would run, and
 * the policy lists those hashes with 'strict-dynamic', which lets them load Remix's modules and
 * the tag manager. The header depends only on the page's bytes, so a page and its policy are
 * the same for every visitor until the content changes: the page cache and a CDN can keep and
 * send both whole, with nothing to fill in per response.
 */

/**
 * `type` values a browser runs as a classic or module script (HTML's "JavaScript MIME type
 * essence match", plus "module" and the empty/missing type). Any other type is data (JSON-LD,
 * import maps are not used here) and needs no hash.
 */
const SCRIPT_TYPES = new Set([
  '',
  'module',
  ...[
    'application/ecmascript',
    'application/javascript',
    'application/x-ecmascript',
    'application/x-javascript',
    'text/ecmascript',
    'text/javascript',
    'text/javascript1.0',
    'text/javascript1.1',
    'text/javascript1.2',
    'text/javascript1.3',
    'text/javascript1.4',
    'text/javascript1.5',
    'text/jscript',
    'text/livescript',
    'text/x-ecmascript',
    'text/x-javascript',
  ],
]);

/** One attribute's value from a start tag's attribute text, as the HTML parser reads it (first one wins), or null. */
function attribute(attributes: string, name: string): string | null {
  const pattern = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  for (const match of attributes.matchAll(pattern))
    if (match[1]!.toLowerCase() === name) return match[2] ?? match[3] ?? match[4] ?? '';
  return null;
}

/**
 * The sha256 sources ('sha256-…') of every inline script in `html` that a browser would run:
 * no `src` (an external script is allowed by 'strict-dynamic' or the fallbacks, not by a hash),
 * and a JavaScript or module type (a data block such as JSON-LD is never run, so it is not
 * hashed). The text is hashed exactly as it stands between the tags, in UTF-8, which is what
 * the browser hashes: our scripts hold no character reference (a script's text is raw) and
 * none of them contains "<!--" or "</script" (Remix and jsonLdString escape both). In order,
 * without repeats.
 *
 * Every such script in a rendered page is our own: React escapes all text, and the only raw
 * HTML written is our scripts' own (the tag manager's snippet, Remix's, JSON-LD escaped by
 * jsonLdString). A component that wrote content as raw HTML would make any script in it
 * allowed here: ADR 0023 forbids that.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const [, attributes = '', text = ''] = match;
    if (attribute(attributes, 'src') !== null) continue;
    const type = (attribute(attributes, 'type') ?? '').trim().toLowerCase();
    if (!SCRIPT_TYPES.has(type)) continue;
    hashes.add(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
  }
  return [...hashes];
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
  /** The page's inline scripts, as `inlineScriptHashes` gives them. */
  scriptHashes: string[];
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
  /** Other origins this page's forms may lead to (the Studio sign-in's, to the development Studio). */
  formOrigins?: string[];
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
 * - scripts: only the page's own inline scripts, by hash, and what they load ('strict-dynamic':
 *   Remix's route modules and module preloads, GTM's tags); 'self' and the GTM host are
 *   fallbacks for browsers without 'strict-dynamic' (CSP3 browsers ignore them). No
 *   'unsafe-inline', no 'unsafe-eval'.
 * - styles: 'unsafe-inline' stays. React renders `style` attributes (Radix positions its
 *   popovers with them) and the Studio's overlays insert <style> elements; neither a hash
 *   nor a nonce covers attributes. Injected CSS cannot run script, and the Observatory scores this 0
 *   ("unsafe-inline in style-src only"), not a penalty.
 * - object-src 'none', base-uri 'self', form-action to the site and Stripe Checkout,
 *   frame-src to the scheduling widget, frame-ancestors as before (the Studio in a hosted preview).
 */
export function contentSecurityPolicy(options: CspOptions): string {
  const gtm = options.tagManager;
  const unique = (values: string[]) => [...new Set(values)];
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', [...options.scriptHashes, "'strict-dynamic'", "'self'", ...(gtm ? GTM.script : [])]],
    ['style-src', ["'self'", "'unsafe-inline'", ...(gtm ? GTM.style : [])]],
    ['img-src', unique(["'self'", 'data:', ...(options.imageOrigins ?? []), ...(gtm ? GTM.img : [])])],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'", ...(gtm ? GTM.connect : [])]],
    ['frame-src', unique(["'self'", ...options.frameSources, ...(gtm ? GTM.frame : [])])],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    [
      'form-action',
      unique([
        "'self'",
        PAYMENT_FORM_ORIGIN,
        PAYMENT_LINK_ORIGIN,
        ...(options.paymentOrigins ?? []),
        ...(options.formOrigins ?? []),
      ]),
    ],
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
