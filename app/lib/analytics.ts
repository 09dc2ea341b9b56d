/**
 * Analytics through the tag manager's data layer (docs/requirements.md#analytics). Every function
 * pushes plain objects onto a data layer array: window.dataLayer in the browser (the
 * array is created when missing, and nothing is pushed during SSR), or an injected
 * array in tests.
 *
 * Page views and the start-up events:
 * - pageView() is meant to be called on every route change (including the first
 *   render), with the router location's key. One key is pushed at most once, so a
 *   re-render, a React StrictMode double effect or a revalidation never sends a
 *   second page_view for the same navigation.
 * - On the booking confirmation route (/booking-confirmation, with a trailing slash
 *   or /{id}, also under /ar) the page_view adds page_type 'conversion',
 *   is_conversion_page true and conversion_type 'booking'.
 * - scheduleStartupEvents() pushes app_initialized after 1 s and the start-up
 *   page_view after 2 s. That page_view IS the first navigation's page_view (so
 *   the first page is not counted twice): a pageView() call made while the start-up
 *   page_view is pending is held and sent at 2 s, with page_title 'Home Page' when the
 *   first page is the home page (/ or /ar) and its own title otherwise. If the
 *   visitor navigates before 2 s, the held page_view is sent at once, before the new
 *   page's. If no pageView() call came at all, a bare page_view titled 'Home Page'
 *   is sent at 2 s; if the first page_view had already been pushed (pageView called
 *   before scheduleStartupEvents), none is added.
 */

import { stripLocale } from '~/i18n';

export type DataLayerEntry = Record<string, unknown>;
type Params = Record<string, unknown>;

export const NAMED_EVENTS = [
  'booking_dialog_opened',
  'booking_button_clicked',
  'floating_meeting_dialog_opened',
  'floating_meeting_button_clicked',
  'whatsapp_booking_clicked',
  'direct_test_booking_clicked',
] as const;
export type NamedEvent = (typeof NAMED_EVENTS)[number];

export const APP_INITIALIZED_DELAY_MS = 1000;
export const STARTUP_PAGE_VIEW_DELAY_MS = 2000;
export const STARTUP_PAGE_TITLE = 'Home Page';

export interface PageViewInput {
  /** Path (search and hash allowed), e.g. '/ar/booking-confirmation/abc?x=1'. */
  path: string;
  title: string;
  locale: string;
  /** Router location key; defaults to the path. One key is pushed once. */
  key?: string;
  /** Absolute URL, sent as page_location when given. */
  location?: string;
}

export interface Timer {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface EcommerceItem {
  item_id: string;
  item_name: string;
  price?: number;
  quantity?: number;
  [key: string]: unknown;
}

export interface EcommerceData {
  currency: string;
  value: number;
  items: EcommerceItem[];
  transaction_id?: string;
  [key: string]: unknown;
}

export interface ConversionInput {
  conversionType: string;
  value?: number;
  currency?: string;
  [key: string]: unknown;
}

export interface Analytics {
  /** Pushes a page_view; false when this navigation (key) was already counted. */
  pageView(input: PageViewInput): boolean;
  /** One of the product's named events. */
  trackEvent(name: NamedEvent, params?: Params): void;
  /** Any other event name. */
  customEvent(name: string, params?: Params): void;
  conversion(input: ConversionInput): void;
  /** GA4 ecommerce event; the previous ecommerce object is cleared first. */
  ecommerce(event: string, data: EcommerceData): void;
  userProperties(properties: Params): void;
  outboundLink(url: string, params?: Params): void;
  fileDownload(url: string, params?: Params): void;
  /** Once per page load; returns a cancel function (e.g. an effect's cleanup). */
  scheduleStartupEvents(timer?: Timer): () => void;
}

/** The browser's window.dataLayer (created when missing), or null outside a browser. */
export function browserDataLayer(): DataLayerEntry[] | null {
  const w = (globalThis as { window?: { dataLayer?: unknown } }).window;
  if (!w) return null;
  if (!Array.isArray(w.dataLayer)) w.dataLayer = [];
  return w.dataLayer as DataLayerEntry[];
}

function pathnameOf(path: string): string {
  return path.split(/[?#]/, 1)[0] ?? '';
}

/** Lower-cased pathname without the /ar prefix (routes match case-insensitively). */
function routePath(path: string): string {
  return stripLocale(pathnameOf(path).toLowerCase());
}

/** /booking-confirmation, /booking-confirmation/, /booking-confirmation/{id}[/], also under /ar. */
export function isBookingConfirmationPath(path: string): boolean {
  return /^\/booking-confirmation(?:\/[^/]+)?\/?$/.test(routePath(path));
}

export function isHomePath(path: string): boolean {
  return routePath(path) === '/';
}

/** The page_view object for a page (pure). */
export function pageViewEntry(input: PageViewInput): DataLayerEntry {
  const entry: DataLayerEntry = {
    event: 'page_view',
    page_path: input.path,
    page_title: input.title,
    language: input.locale,
  };
  if (input.location !== undefined) entry.page_location = input.location;
  if (isBookingConfirmationPath(input.path)) {
    entry.page_type = 'conversion';
    entry.is_conversion_page = true;
    entry.conversion_type = 'booking';
  }
  return entry;
}

/** http(s) link to another host than `currentOrigin`. */
export function isOutboundLink(href: string, currentOrigin: string): boolean {
  try {
    const url = new URL(href, currentOrigin);
    return /^https?:$/.test(url.protocol) && url.origin !== new URL(currentOrigin).origin;
  } catch {
    return false;
  }
}

function fileNameOf(url: string): string {
  const path = pathnameOf(url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, ''));
  const last = path.split('/').pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

const defaultTimer: Timer = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * An analytics instance. `target` is the data layer (an array, or a function
 * returning it or null to drop events); defaults to window.dataLayer.
 */
export function createAnalytics(
  target: DataLayerEntry[] | (() => DataLayerEntry[] | null) = browserDataLayer,
): Analytics {
  const layer = () => (typeof target === 'function' ? target() : target);
  const push = (entry: DataLayerEntry) => {
    layer()?.push(entry);
  };
  // Event names and params: params never override the event name.
  const event = (name: string, params: Params = {}) => push({ ...params, event: name });

  const seenKeys = new Set<string>();
  let startup: 'idle' | 'pending' | 'done' = 'idle';
  let initializedSent = false;
  let held: PageViewInput | null = null;

  const sendStartupPageView = () => {
    startup = 'done';
    if (held) {
      const view = held;
      held = null;
      push(pageViewEntry(isHomePath(view.path) ? { ...view, title: STARTUP_PAGE_TITLE } : view));
    } else if (seenKeys.size === 0) {
      push({ event: 'page_view', page_title: STARTUP_PAGE_TITLE });
    }
  };

  const analytics: Analytics = {
    pageView(input) {
      const key = input.key ?? input.path;
      if (seenKeys.has(key)) return false;
      seenKeys.add(key);
      if (startup === 'pending') {
        if (!held) {
          held = input;
          return true;
        }
        sendStartupPageView();
      }
      push(pageViewEntry(input));
      return true;
    },

    trackEvent: (name, params) => event(name, params),
    customEvent: (name, params) => event(name, params),

    conversion({ conversionType, value, currency, ...rest }) {
      const entry: Params = { ...rest, conversion_type: conversionType };
      if (value !== undefined) entry.value = value;
      if (currency !== undefined) entry.currency = currency;
      event('conversion', entry);
    },

    ecommerce(name, data) {
      push({ ecommerce: null });
      push({ event: name, ecommerce: { ...data, items: data.items.map((i) => ({ ...i })) } });
    },

    userProperties(properties) {
      push({ event: 'user_properties', user_properties: { ...properties } });
    },

    outboundLink(url, params) {
      let domain = '';
      try {
        domain = new URL(url).hostname;
      } catch {
        // relative or malformed: no domain
      }
      event('outbound_link', { ...params, link_url: url, link_domain: domain, outbound: true });
    },

    fileDownload(url, params) {
      const fileName = fileNameOf(url);
      const dot = fileName.lastIndexOf('.');
      event('file_download', {
        ...params,
        link_url: url,
        file_name: fileName,
        file_extension: dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '',
      });
    },

    scheduleStartupEvents(timer = defaultTimer) {
      if (startup !== 'idle') return () => {};
      startup = 'pending';
      const handles = [
        initializedSent
          ? null
          : timer.setTimeout(() => {
              initializedSent = true;
              push({ event: 'app_initialized' });
            }, APP_INITIALIZED_DELAY_MS),
        timer.setTimeout(() => {
          if (startup === 'pending') sendStartupPageView();
        }, STARTUP_PAGE_VIEW_DELAY_MS),
      ];
      return () => {
        if (startup !== 'pending') return;
        for (const h of handles) if (h !== null) timer.clearTimeout(h);
        // Undo completely (React StrictMode runs effect, cleanup, effect again): the
        // held page view is released, so the next schedule or pageView() sends it.
        startup = 'idle';
        if (held) seenKeys.delete(held.key ?? held.path);
        held = null;
      };
    },
  };
  return analytics;
}

/** The app's instance, on window.dataLayer. */
export const analytics: Analytics = createAnalytics();

/** The tag manager loader, only when a valid container id is configured. */
export interface TagManagerSnippet {
  scriptUrl: string;
  /** Inline script to run before the loader: initialises the data layer. */
  inlineScript: string;
  /** For a <noscript><iframe src> fallback. */
  noscriptUrl: string;
}

export function tagManagerSnippet(containerId: string | null | undefined): TagManagerSnippet | null {
  const id = containerId?.trim() ?? '';
  // Same format as env.server.ts accepts; strict because the id goes into a URL.
  if (!/^GTM-[A-Z0-9]+$/.test(id)) return null;
  return {
    scriptUrl: `https://www.googletagmanager.com/gtm.js?id=${id}`,
    inlineScript:
      "window.dataLayer=window.dataLayer||[];window.dataLayer.push({'gtm.start':Date.now(),event:'gtm.js'});",
    noscriptUrl: `https://www.googletagmanager.com/ns.html?id=${id}`,
  };
}
