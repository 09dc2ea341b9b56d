/**
 * The 'Test Direct Link' is shown outside production, or when site settings turn it on. Decided by
 * the locale layout's loader; apart from the frame's URLs (frame-url.ts), which the browser loads
 * with the booking dialog only: imported by the layout, they would be a chunk of every page.
 */
export function showTestBookingLink(isProduction: boolean, settingOn: boolean | null | undefined): boolean {
  return !isProduction || settingOn === true;
}
