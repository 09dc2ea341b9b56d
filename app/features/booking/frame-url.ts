/**
 * URLs of the booking dialog (docs/requirements.md#chat-and-booking). Pure, shared by server and browser.
 *
 * - The scheduling frame: site settings' schedulingUrl plus `redirect` (the absolute URL
 *   of the booking confirmation page in the page's language, on the SITE_URL origin,
 *   with `source` and `debug`), `get_booking_id`, `include_event_id` and
 *   `include_invitee_session_id` (each 'true'). Parameters already on the scheduling
 *   URL are kept; ours replace any of the same name.
 * - The test link: the confirmation page (a site path in the page's language) with
 *   debug test parameters: source=direct_test, debug=true, booking_id, event_id and
 *   invitee_session_id set to recognisable test values.
 * - Only http(s) scheduling URLs are used; anything else gives null (no frame).
 */
import { localizePath, type Locale } from '~/i18n';

export const CONFIRMATION_PATH = '/booking-confirmation';
export const FRAME_SOURCE = 'booking_dialog';
export const TEST_SOURCE = 'direct_test';

export function confirmationRedirectUrl(siteUrl: string, locale: Locale): string {
  const origin = new URL(siteUrl).origin;
  const url = new URL(localizePath(CONFIRMATION_PATH, locale), origin);
  url.searchParams.set('source', FRAME_SOURCE);
  url.searchParams.set('debug', 'false');
  return url.toString();
}

export function bookingFrameUrl(options: {
  schedulingUrl: string | null | undefined;
  siteUrl: string;
  locale: Locale;
}): string | null {
  const raw = options.schedulingUrl?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  url.searchParams.set('redirect', confirmationRedirectUrl(options.siteUrl, options.locale));
  url.searchParams.set('get_booking_id', 'true');
  url.searchParams.set('include_event_id', 'true');
  url.searchParams.set('include_invitee_session_id', 'true');
  return url.toString();
}

/** The confirmation page with debug test parameters, as a site path in the page's language. */
export function testBookingPath(locale: Locale, now: number): string {
  const stamp = Math.floor(now).toString(36);
  const params = new URLSearchParams({
    source: TEST_SOURCE,
    debug: 'true',
    booking_id: `test_booking_${stamp}`,
    event_id: `test_event_${stamp}`,
    invitee_session_id: `test_session_${stamp}`,
  });
  return `${localizePath(CONFIRMATION_PATH, locale)}?${params.toString()}`;
}
