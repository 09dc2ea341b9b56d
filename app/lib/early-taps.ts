/**
 * Taps on the header's menus before React answers them (issue 43, goal 3).
 *
 * On a slow phone the page is painted seconds before its scripts have run, and a tap on the
 * phone menu's button or on the language button in that time did nothing: React had not
 * hydrated the header yet, and the language menu's code (a deferred widget, ADR 0012) had not
 * even arrived. This one small inline script, in the head (allowed by its hash, ADR 0023, the
 * same text on every page), answers those taps itself until the component has taken over:
 * - the phone menu's button shows or hides the menu it controls and says so (`aria-expanded`);
 *   once hydrated, the header takes the menu's state from the page (`syncEarlyMenu`);
 * - the language button goes to the same page in the other language, as its link without
 *   JavaScript does (there are two languages; the menu only confirms that choice).
 * A control is the script's while it carries `data-early`; its component removes the attribute
 * when it has hydrated (`releaseEarlyTap`), and React never sets it again (it is a constant prop).
 * The listener runs first (window, capture) and stops the click there, so React, once it listens,
 * never sees the same tap a second time.
 */
export const EARLY_TAP = 'data-early';
export const EARLY_HREF = 'data-early-href';

export const earlyTapsScript =
  `(function(w,d){w.addEventListener('click',function(e){` +
  `var t=e.target&&e.target.closest&&e.target.closest('[${EARLY_TAP}]');if(!t)return;` +
  `var k=t.getAttribute('${EARLY_TAP}');` +
  `if(k==='menu'){var m=d.getElementById(t.getAttribute('aria-controls')||'');if(!m)return;` +
  `e.stopPropagation();e.preventDefault();var o=m.hidden;m.hidden=!o;t.setAttribute('aria-expanded',String(o))}` +
  `else if(k==='link'){var h=t.getAttribute('${EARLY_HREF}');if(!h)return;` +
  `e.stopPropagation();e.preventDefault();w.location.assign(h)}},true)})(window,document);`;

/** Called by a control's component once hydrated: its taps are React's from now on. */
export function releaseEarlyTap(element: HTMLElement | null) {
  element?.removeAttribute(EARLY_TAP);
}

/** Whether the early script opened the menu before the header hydrated (the header then opens it). */
export function openedEarly(menu: HTMLElement | null): boolean {
  return !!menu && !menu.hidden;
}
