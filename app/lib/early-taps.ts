import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE, localeCookieValue, type Locale } from '~/i18n';

/**
 * Taps on the header's menus before React answers them (issue 43, goal 3).
 *
 * On a slow phone the page is painted seconds before its scripts have run, and a tap on the
 * phone menu's button or on the language button in that time did nothing: React had not
 * hydrated the header yet, and the language menu's code (a deferred widget, ADR 0012) had not
 * even arrived. This one small inline script, in the head (allowed by its hash, ADR 0023, the
 * same text on every page), answers those taps itself until the component has taken over:
 * - `menu` (the phone menu's button) shows or hides the element it controls and says so
 *   (`aria-expanded`); once hydrated, the header takes the menu's state from the page (`openedEarly`);
 * - `popup` (the language button) does the same with a small menu of links the server sent
 *   hidden beside it, and closes it as a menu closes: on Escape (focus back to the button if it
 *   was in the menu), on a touch or focus outside it, on a second tap. Opened from the keyboard,
 *   focus goes to its first link. Once hydrated, the language switcher removes it and opens its
 *   own menu in its place if it was open;
 * - `locale` (a link in that menu) remembers the language it leads to in the cookie the language
 *   menu writes (`localeCookie`), then lets the browser follow it; the current language's link
 *   only closes the menu, as choosing the current language in the hydrated menu does.
 * A control is the script's while it carries `data-early`; its component removes the attribute
 * when it has hydrated (`releaseEarlyTap`), and React never sets it again (it is a constant prop).
 * The listener runs first (window, capture) and stops the click there, so React, once it listens,
 * never sees the same tap a second time.
 */
export const EARLY_TAP = 'data-early';

/** What the language menu writes to `document.cookie` to remember a choice (read by chosenLocale). */
export function localeCookie(locale: Locale): string {
  return `${LOCALE_COOKIE}=${localeCookieValue(locale)}; Path=/; Max-Age=${LOCALE_COOKIE_MAX_AGE}; SameSite=Lax`;
}

/** Called by a control's component once hydrated: its taps are React's from now on. */
export function releaseEarlyTap(element: HTMLElement | null) {
  element?.removeAttribute(EARLY_TAP);
}

/** Whether the early script opened the menu before its component hydrated (the component then opens it). */
export function openedEarly(menu: HTMLElement | null): boolean {
  return !!menu && !menu.hidden;
}
