import { describe, expect, it } from 'vitest';
import { bookingFrameUrl, confirmationRedirectUrl, testBookingPath } from './frame-url';

const SITE = 'https://www.bawaba-advisory.com';
const CAL = 'https://calendly.com/bawaba-advisory/30min';

describe('bookingFrameUrl', () => {
  it('adds redirect (absolute, English) and the three flags', () => {
    const url = new URL(bookingFrameUrl({ schedulingUrl: CAL, siteUrl: SITE, locale: 'en' })!);
    expect(url.origin + url.pathname).toBe(CAL);
    expect(url.searchParams.get('redirect')).toBe(`${SITE}/booking-confirmation?source=booking_dialog&debug=false`);
    expect(url.searchParams.get('get_booking_id')).toBe('true');
    expect(url.searchParams.get('include_event_id')).toBe('true');
    expect(url.searchParams.get('include_invitee_session_id')).toBe('true');
  });

  it('points Arabic pages at /ar/booking-confirmation', () => {
    const url = new URL(bookingFrameUrl({ schedulingUrl: CAL, siteUrl: SITE, locale: 'ar' })!);
    const redirect = new URL(url.searchParams.get('redirect')!);
    expect(redirect.origin).toBe(SITE);
    expect(redirect.pathname).toBe('/ar/booking-confirmation');
    expect(redirect.searchParams.get('source')).toBe('booking_dialog');
    expect(redirect.searchParams.get('debug')).toBe('false');
  });

  it('encodes the redirect as one parameter', () => {
    const s = bookingFrameUrl({ schedulingUrl: CAL, siteUrl: SITE, locale: 'en' })!;
    expect(s).toContain(
      'redirect=https%3A%2F%2Fwww.bawaba-advisory.com%2Fbooking-confirmation%3Fsource%3Dbooking_dialog%26debug%3Dfalse',
    );
  });

  it('uses only the origin of SITE_URL (a path or trailing slash is dropped)', () => {
    expect(confirmationRedirectUrl('http://localhost:3000/some/path/', 'en')).toBe(
      'http://localhost:3000/booking-confirmation?source=booking_dialog&debug=false',
    );
  });

  it('keeps existing parameters and replaces ours', () => {
    const url = new URL(
      bookingFrameUrl({ schedulingUrl: `${CAL}?hide_gdpr_banner=1&get_booking_id=no`, siteUrl: SITE, locale: 'en' })!,
    );
    expect(url.searchParams.get('hide_gdpr_banner')).toBe('1');
    expect(url.searchParams.getAll('get_booking_id')).toEqual(['true']);
  });

  it('gives null for missing, malformed or non-http URLs', () => {
    for (const schedulingUrl of [null, undefined, '', '  ', 'not a url', 'javascript:alert(1)', 'data:text/html,x']) {
      expect(bookingFrameUrl({ schedulingUrl, siteUrl: SITE, locale: 'en' })).toBeNull();
    }
  });
});

describe('testBookingPath', () => {
  it('is the localized confirmation page with debug test parameters', () => {
    for (const [locale, path] of [
      ['en', '/booking-confirmation'],
      ['ar', '/ar/booking-confirmation'],
    ] as const) {
      const url = new URL(testBookingPath(locale, 1_700_000_000_000), SITE);
      expect(url.pathname).toBe(path);
      expect(url.searchParams.get('source')).toBe('direct_test');
      expect(url.searchParams.get('debug')).toBe('true');
      expect(url.searchParams.get('booking_id')).toMatch(/^test_booking_[a-z0-9]+$/);
      expect(url.searchParams.get('event_id')).toMatch(/^test_event_/);
      expect(url.searchParams.get('invitee_session_id')).toMatch(/^test_session_/);
    }
  });
});
