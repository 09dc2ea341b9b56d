import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE, localeCookieValue, type Locale, locales } from '~/i18n';

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

// The cookies are written into the script's text (the same for every page, so its hash holds).
const cookies = JSON.stringify(Object.fromEntries(locales.map((l) => [l, localeCookie(l)])));

// p: the open popup, b: its button. Once the button is no longer the script's (hydrated), the
// popup is the component's too: `shut` then only forgets it.
export const earlyTapsScript =
  `(function(w,d){var E='${EARLY_TAP}',C=${cookies},p=null,b=null;` +
  `function shut(f){var m=p,t=b;p=b=null;if(!m||!t.hasAttribute(E))return;` +
  `var i=m.contains(d.activeElement);m.hidden=true;t.setAttribute('aria-expanded','false');if(f&&i)t.focus()}` +
  `function out(e){if(p&&!p.contains(e.target)&&!b.contains(e.target))shut()}` +
  `w.addEventListener('click',function(e){` +
  `var t=e.target&&e.target.closest&&e.target.closest('['+E+']');if(!t)return;` +
  `var k=t.getAttribute(E);` +
  `if(k==='menu'||k==='popup'){var m=d.getElementById(t.getAttribute('aria-controls')||'');if(!m)return;` +
  `e.stopPropagation();e.preventDefault();var o=m.hidden;` +
  `if(k==='popup'){if(!o)return shut();shut();p=m;b=t}` +
  `m.hidden=!o;t.setAttribute('aria-expanded',String(o));` +
  `if(k==='popup'&&!e.detail){var a=m.querySelector('a');if(a)a.focus()}}` +
  `else if(k==='locale'){if(t.hasAttribute('aria-current')){e.preventDefault();shut(1)}` +
  `else if(C.hasOwnProperty(t.hreflang))d.cookie=C[t.hreflang]}},true);` +
  `w.addEventListener('pointerdown',out,true);w.addEventListener('focusin',out,true);` +
  `w.addEventListener('keydown',function(e){if(e.key==='Escape')shut(1)},true)})(window,document);`;

/** Called by a control's component once hydrated: its taps are React's from now on. */
export function releaseEarlyTap(element: HTMLElement | null) {
  element?.removeAttribute(EARLY_TAP);
}

/** Whether the early script opened the menu before its component hydrated (the component then opens it). */
export function openedEarly(menu: HTMLElement | null): boolean {
  return !!menu && !menu.hidden;
}
