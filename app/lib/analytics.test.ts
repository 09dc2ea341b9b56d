import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  NAMED_EVENTS,
  browserDataLayer,
  createAnalytics,
  isBookingConfirmationPath,
  isHomePath,
  isOutboundLink,
  pageViewEntry,
  tagManagerSnippet,
  type DataLayerEntry,
  type Timer,
} from './analytics';

/** A manual clock for injected timers. */
function fakeTimer() {
  let now = 0;
  let nextId = 1;
  const pending = new Map<number, { at: number; fn: () => void }>();
  const timer: Timer = {
    setTimeout(fn, ms) {
      const id = nextId++;
      pending.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
  };
  const tick = (ms: number) => {
    const until = now + ms;
    for (;;) {
      const due = [...pending.entries()].filter(([, p]) => p.at <= until).sort((x, y) => x[1].at - y[1].at)[0];
      if (!due) break;
      pending.delete(due[0]);
      now = due[1].at;
      due[1].fn();
    }
    now = until;
  };
  return { timer, tick, pending };
}

const events = (layer: DataLayerEntry[]) => layer.map((e) => e.event);

describe('booking confirmation route', () => {
  it.each([
    '/booking-confirmation',
    '/booking-confirmation/',
    '/booking-confirmation/abc123',
    '/booking-confirmation/abc123/',
    '/booking-confirmation?event_id=1&invitee=2',
    '/booking-confirmation#top',
    '/ar/booking-confirmation',
    '/ar/booking-confirmation/',
    '/ar/booking-confirmation/xyz?x=1',
    '/Booking-Confirmation',
  ])('%s is a conversion page', (path) => {
    expect(isBookingConfirmationPath(path)).toBe(true);
  });

  it.each([
    '/',
    '/ar',
    '/booking-confirmationx',
    '/booking-confirmation/a/b',
    '/bookingconfirmation',
    '/booking_confirmation',
    '/en/booking-confirmation',
    '/arx/booking-confirmation',
    '/faq?next=/booking-confirmation',
    '/blog/booking-confirmation',
  ])('%s is not', (path) => {
    expect(isBookingConfirmationPath(path)).toBe(false);
  });

  it('home paths', () => {
    for (const p of ['/', '/ar', '/ar/', '/?utm=1', '/#x']) expect(isHomePath(p), p).toBe(true);
    for (const p of ['/about', '/ar/about', '/arabic']) expect(isHomePath(p), p).toBe(false);
  });
});

describe('pageView', () => {
  it('pushes page_view with path, title and language', () => {
    const layer: DataLayerEntry[] = [];
    const a = createAnalytics(layer);
    expect(a.pageView({ path: '/about', title: 'About', locale: 'en', key: 'k1' })).toBe(true);
    expect(layer).toEqual([{ event: 'page_view', page_path: '/about', page_title: 'About', language: 'en' }]);
  });

  it('adds the conversion fields on the booking confirmation route, in both languages', () => {
    for (const path of ['/booking-confirmation/abc', '/ar/booking-confirmation']) {
      expect(pageViewEntry({ path, title: 'Booked', locale: 'ar', location: `https://x.test${path}` })).toEqual({
        event: 'page_view',
        page_path: path,
        page_title: 'Booked',
        language: 'ar',
        page_location: `https://x.test${path}`,
        page_type: 'conversion',
        is_conversion_page: true,
        conversion_type: 'booking',
      });
    }
    const plain = pageViewEntry({ path: '/faq', title: 'FAQ', locale: 'en' });
    expect(plain).not.toHaveProperty('page_type');
    expect(plain).not.toHaveProperty('is_conversion_page');
    expect(plain).not.toHaveProperty('conversion_type');
  });

  it('never pushes twice for one navigation (same location key)', () => {
    const layer: DataLayerEntry[] = [];
    const a = createAnalytics(layer);
    const view = { path: '/faq', title: 'FAQ', locale: 'en', key: 'abc' };
    expect(a.pageView(view)).toBe(true);
    expect(a.pageView(view)).toBe(false);
    expect(a.pageView({ ...view, title: 'FAQ again' })).toBe(false);
    // a new navigation to the same path has a new key and counts
    expect(a.pageView({ ...view, key: 'def' })).toBe(true);
    expect(layer).toHaveLength(2);
  });

  it('dedupes by path when no key is given', () => {
    const layer: DataLayerEntry[] = [];
    const a = createAnalytics(layer);
    a.pageView({ path: '/x', title: 'X', locale: 'en' });
    a.pageView({ path: '/x', title: 'X', locale: 'en' });
    a.pageView({ path: '/y', title: 'Y', locale: 'en' });
    expect(layer.map((e) => e.page_path)).toEqual(['/x', '/y']);
  });
});

describe('events', () => {
  it('named events carry their params, and params cannot rename the event', () => {
    const layer: DataLayerEntry[] = [];
    const a = createAnalytics(layer);
    for (const name of NAMED_EVENTS) a.trackEvent(name, { source: 'hero', event: 'hijack' });
    expect(events(layer)).toEqual([
      'booking_dialog_opened',
      'booking_button_clicked',
      'floating_meeting_dialog_opened',
      'floating_meeting_button_clicked',
      'whatsapp_booking_clicked',
      'direct_test_booking_clicked',
    ]);
    expect(layer[0]).toEqual({ event: 'booking_dialog_opened', source: 'hero' });
    a.trackEvent('booking_button_clicked');
    expect(layer.at(-1)).toEqual({ event: 'booking_button_clicked' });
  });

  it('custom, conversion, ecommerce, user properties, outbound link and file download', () => {
    const layer: DataLayerEntry[] = [];
    const a = createAnalytics(layer);
    a.customEvent('newsletter_subscribed', { locale: 'ar' });
    a.conversion({ conversionType: 'booking', value: 0, currency: 'SGD', booking_id: 'b1' });
    a.conversion({ conversionType: 'lead' });
    a.ecommerce('purchase', {
      currency: 'SGD',
      value: 500,
      transaction_id: 't1',
      items: [{ item_id: 'starter', item_name: 'Starter', price: 500, quantity: 1 }],
    });
    a.userProperties({ preferred_language: 'ar' });
    a.outboundLink('https://wa.me/971500000000?text=hi', { placement: 'footer' });
    a.fileDownload('https://cdn.test/files/Price%20List.PDF?dl=1');
    expect(layer).toEqual([
      { event: 'newsletter_subscribed', locale: 'ar' },
      { event: 'conversion', conversion_type: 'booking', value: 0, currency: 'SGD', booking_id: 'b1' },
      { event: 'conversion', conversion_type: 'lead' },
      { ecommerce: null },
      {
        event: 'purchase',
        ecommerce: {
          currency: 'SGD',
          value: 500,
          transaction_id: 't1',
          items: [{ item_id: 'starter', item_name: 'Starter', price: 500, quantity: 1 }],
        },
      },
      { event: 'user_properties', user_properties: { preferred_language: 'ar' } },
      {
        event: 'outbound_link',
        placement: 'footer',
        link_url: 'https://wa.me/971500000000?text=hi',
        link_domain: 'wa.me',
        outbound: true,
      },
      {
        event: 'file_download',
        link_url: 'https://cdn.test/files/Price%20List.PDF?dl=1',
        file_name: 'Price List.PDF',
        file_extension: 'pdf',
      },
    ]);
  });

  it('file download from a relative path without extension, outbound link that is not a URL', () => {
    const layer: DataLayerEntry[] = [];
    const a = createAnalytics(layer);
    a.fileDownload('/downloads/brochure');
    a.outboundLink('not a url');
    expect(layer).toEqual([
      { event: 'file_download', link_url: '/downloads/brochure', file_name: 'brochure', file_extension: '' },
      { event: 'outbound_link', link_url: 'not a url', link_domain: '', outbound: true },
    ]);
  });

  it('the pushed ecommerce object is a copy', () => {
    const layer: DataLayerEntry[] = [];
    const items = [{ item_id: 'a', item_name: 'A' }];
    createAnalytics(layer).ecommerce('view_item', { currency: 'AED', value: 1, items });
    items[0]!.item_name = 'changed';
    expect((layer[1]!.ecommerce as { items: { item_name: string }[] }).items[0]!.item_name).toBe('A');
  });

  it('isOutboundLink', () => {
    expect(isOutboundLink('https://wa.me/1', 'https://firm.test')).toBe(true);
    expect(isOutboundLink('/about', 'https://firm.test')).toBe(false);
    expect(isOutboundLink('https://firm.test/faq', 'https://firm.test')).toBe(false);
    expect(isOutboundLink('mailto:a@b.c', 'https://firm.test')).toBe(false);
    expect(isOutboundLink('http://[bad', 'https://firm.test')).toBe(false);
  });
});

describe('scheduleStartupEvents', () => {
  it('pushes app_initialized after 1 s and the Home Page page_view after 2 s', () => {
    const layer: DataLayerEntry[] = [];
    const a = createAnalytics(layer);
    const { timer, tick } = fakeTimer();
    a.scheduleStartupEvents(timer);
    expect(a.pageView({ path: '/', title: 'Gulf Advisory', locale: 'en', key: 'default' })).toBe(true);
    expect(layer).toEqual([]); // held for the start-up page view
    tick(999);
    expect(layer).toEqual([]);
    tick(1);
    expect(layer).toEqual([{ event: 'app_initialized' }]);
    tick(999);
    expect(layer).toHaveLength(1);
    tick(1);
    expect(layer).toEqual([
      { event: 'app_initialized' },
      { event: 'page_view', page_path: '/', page_title: 'Home Page', language: 'en' },
    ]);
    // the first navigation is counted once only
    expect(a.pageView({ path: '/', title: 'Gulf Advisory', locale: 'en', key: 'default' })).toBe(false);
    tick(10_000);
    expect(layer).toHaveLength(2);
  });

  it('the first page keeps its own title when it is not the home page (and conversion fields)', () => {
    const layer: DataLayerEntry[] = [];
    const a = createAnalytics(layer);
    const { timer, tick } = fakeTimer();
    a.scheduleStartupEvents(timer);
    a.pageView({ path: '/ar/booking-confirmation/1', title: 'تم الحجز', locale: 'ar', key: 'default' });
    tick(2000);
    expect(layer[1]).toMatchObject({
      event: 'page_view',
      page_title: 'تم الحجز',
      conversion_type: 'booking',
      is_conversion_page: true,
    });
    expect(layer).toHaveLength(2);
  });

  it('a navigation before 2 s sends the held first page view at once, in order, once', () => {
    const layer: DataLayerEntry[] = [];
    const a = createAnalytics(layer);
    const { timer, tick } = fakeTimer();
    a.scheduleStartupEvents(timer);
    a.pageView({ path: '/ar', title: 'الرئيسية', locale: 'ar', key: 'default' });
    tick(1500);
    a.pageView({ path: '/ar/faq', title: 'الأسئلة', locale: 'ar', key: 'k2' });
    expect(layer).toEqual([
      { event: 'app_initialized' },
      { event: 'page_view', page_path: '/ar', page_title: 'Home Page', language: 'ar' },
      { event: 'page_view', page_path: '/ar/faq', page_title: 'الأسئلة', language: 'ar' },
    ]);
    tick(5000);
    expect(layer).toHaveLength(3);
  });

  it('without any pageView call, a bare Home Page page_view is sent at 2 s', () => {
    const layer: DataLayerEntry[] = [];
    const a = createAnalytics(layer);
    const { timer, tick } = fakeTimer();
    a.scheduleStartupEvents(timer);
    tick(2000);
    expect(layer).toEqual([{ event: 'app_initialized' }, { event: 'page_view', page_title: 'Home Page' }]);
  });

  it('adds no second page_view when the first one was pushed before scheduling', () => {
    const layer: DataLayerEntry[] = [];
    const a = createAnalytics(layer);
    const { timer, tick } = fakeTimer();
    a.pageView({ path: '/', title: 'Home', locale: 'en', key: 'default' });
    a.scheduleStartupEvents(timer);
    tick(3000);
    expect(events(layer)).toEqual(['page_view', 'app_initialized']);
  });

  it('survives React StrictMode (effect, cleanup, effect): everything once', () => {
    const layer: DataLayerEntry[] = [];
    const a = createAnalytics(layer);
    const { timer, tick, pending } = fakeTimer();
    const view = { path: '/', title: 'Home', locale: 'en', key: 'default' };
    // first run of both effects
    const cancel = a.scheduleStartupEvents(timer);
    a.pageView(view);
    // StrictMode cleanup, then the effects again
    cancel();
    expect(pending.size).toBe(0);
    a.scheduleStartupEvents(timer);
    a.pageView(view);
    tick(5000);
    expect(layer).toEqual([
      { event: 'app_initialized' },
      { event: 'page_view', page_path: '/', page_title: 'Home Page', language: 'en' },
    ]);
  });

  it('runs once per page load: a later call does nothing', () => {
    const layer: DataLayerEntry[] = [];
    const a = createAnalytics(layer);
    const { timer, tick } = fakeTimer();
    a.scheduleStartupEvents(timer);
    a.scheduleStartupEvents(timer);
    tick(3000);
    const cancelLater = a.scheduleStartupEvents(timer);
    cancelLater();
    tick(3000);
    expect(events(layer)).toEqual(['app_initialized', 'page_view']);
  });

  it('a cancel after app_initialized does not send it again on the next schedule', () => {
    const layer: DataLayerEntry[] = [];
    const a = createAnalytics(layer);
    const { timer, tick } = fakeTimer();
    const cancel = a.scheduleStartupEvents(timer);
    tick(1500);
    cancel();
    a.scheduleStartupEvents(timer);
    tick(3000);
    expect(events(layer)).toEqual(['app_initialized', 'page_view']);
  });

  it('uses the real timers by default', () => {
    vi.useFakeTimers();
    try {
      const layer: DataLayerEntry[] = [];
      createAnalytics(layer).scheduleStartupEvents();
      vi.advanceTimersByTime(1000);
      expect(events(layer)).toEqual(['app_initialized']);
      vi.advanceTimersByTime(1000);
      expect(events(layer)).toEqual(['app_initialized', 'page_view']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the data layer target', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('drops events outside a browser', () => {
    vi.stubGlobal('window', undefined);
    expect(browserDataLayer()).toBeNull();
    const a = createAnalytics();
    expect(() => a.trackEvent('booking_button_clicked')).not.toThrow();
  });

  it('creates window.dataLayer when missing and reuses an existing one', () => {
    const win: { dataLayer?: unknown } = {};
    vi.stubGlobal('window', win);
    createAnalytics().trackEvent('booking_dialog_opened', { source: 'floating' });
    expect(win.dataLayer).toEqual([{ event: 'booking_dialog_opened', source: 'floating' }]);
    const existing = [{ event: 'gtm.js' }];
    win.dataLayer = existing;
    createAnalytics().customEvent('x');
    expect(existing).toEqual([{ event: 'gtm.js' }, { event: 'x' }]);
  });

  it('pushes through the array push (which the tag manager replaces)', () => {
    const seen: DataLayerEntry[] = [];
    const layer: DataLayerEntry[] = [];
    layer.push = (...items: DataLayerEntry[]) => {
      seen.push(...items);
      return seen.length;
    };
    createAnalytics(() => layer).customEvent('y');
    expect(seen).toEqual([{ event: 'y' }]);
  });
});

describe('tagManagerSnippet', () => {
  it('is null without a valid container id', () => {
    for (const id of [
      undefined,
      null,
      '',
      '   ',
      'UA-1234',
      'GTM-',
      'GTM-abc1',
      "GTM-ABC1');alert(1)//",
      'GTM-ABC1 x',
    ]) {
      expect(tagManagerSnippet(id), String(id)).toBeNull();
    }
  });

  it('gives the loader URL, the inline data layer start and the noscript URL', () => {
    const s = tagManagerSnippet(' GTM-AB12CD ');
    expect(s).toEqual({
      scriptUrl: 'https://www.googletagmanager.com/gtm.js?id=GTM-AB12CD',
      inlineScript: expect.stringContaining("event:'gtm.js'"),
      noscriptUrl: 'https://www.googletagmanager.com/ns.html?id=GTM-AB12CD',
    });
    // the inline script initialises the data layer without clobbering it
    const win: { dataLayer?: unknown[] } = { dataLayer: [{ event: 'early' }] };
    new Function('window', s!.inlineScript)(win);
    expect(win.dataLayer).toEqual([{ event: 'early' }, { 'gtm.start': expect.any(Number), event: 'gtm.js' }]);
  });
});
