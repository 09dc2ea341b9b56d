// @vitest-environment jsdom
/**
 * The page's early script answers taps on the header's menus before React does, and lets go of a
 * control once its component has hydrated (releaseEarlyTap); React never sees a tap it answered.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EARLY_TAP, localeCookie, openedEarly, releaseEarlyTap } from './early-taps';
import { earlyTapsScript } from './early-taps-script.server';

/** Runs the script as the page does, its listeners removable between tests. */
function runScript() {
  const controller = new AbortController();
  const win = {
    addEventListener: (type: string, listener: EventListener, capture: boolean) =>
      window.addEventListener(type, listener, { capture, signal: controller.signal }),
  };
  new Function('window', 'document', earlyTapsScript)(win, document);
  return { stop: () => controller.abort() };
}

let stop = () => {};
afterEach(() => {
  stop();
  document.body.innerHTML = '';
  document.cookie = 'lng=; Max-Age=0; Path=/';
});

/** The language button and its static menu as the server sends them (app/components/LanguageSwitcher.tsx). */
const languageMenu = (current: 'en' | 'ar') => `
  <button id="b" ${EARLY_TAP}="popup" aria-controls="lm" aria-expanded="false"><svg><path id="globe"/></svg>English</button>
  <div id="lm" hidden><p id="lml">Language</p><ul aria-labelledby="lml">
    <li><a id="en" href="/pricing" hreflang="en" lang="en" ${current === 'en' ? 'aria-current="page"' : ''} ${EARLY_TAP}="locale">English</a></li>
    <li><a id="ar" href="/ar/pricing" hreflang="ar" lang="ar" ${current === 'ar' ? 'aria-current="page"' : ''} ${EARLY_TAP}="locale">العربية</a></li>
  </ul></div>
  <a id="elsewhere" href="#x">elsewhere</a><input id="field">`;

const tap = (element: Element) =>
  element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, detail: 1 }));
/** Enter or Space on a focused button: a click with no pointer (detail 0). */
const keyboardClick = (element: Element) =>
  element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, detail: 0 }));
const byId = (id: string) => document.getElementById(id)!;

/** What reaches the page's own handlers (React's, once it listens) and whether the browser would follow a link. */
function pageSees() {
  const clicks: Array<{ id: string; followed: boolean }> = [];
  const listener = (e: Event) => {
    clicks.push({ id: (e.target as Element).id, followed: !e.defaultPrevented });
    e.preventDefault(); // jsdom does not navigate
  };
  document.addEventListener('click', listener);
  return { clicks, stop: () => document.removeEventListener('click', listener) };
}

describe('early taps', () => {
  it('opens and closes the phone menu before React, which does not see those taps', () => {
    document.body.innerHTML = `<button ${EARLY_TAP}="menu" aria-controls="m" aria-expanded="false"><svg><path id="icon"/></svg></button><div id="m" hidden>links</div>`;
    const script = runScript();
    stop = script.stop;
    const react = vi.fn();
    document.addEventListener('click', react);
    const menu = document.getElementById('m')!;
    const button = document.querySelector('button')!;

    // A tap lands on the icon inside the button, as a finger does.
    document.getElementById('icon')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(menu.hidden).toBe(false);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(openedEarly(menu)).toBe(true);
    button.click();
    expect(menu.hidden).toBe(true);
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(react).not.toHaveBeenCalled();

    // Hydrated: the component's own handler answers, and the script leaves the menu alone.
    releaseEarlyTap(button);
    button.click();
    expect(menu.hidden).toBe(true);
    expect(react).toHaveBeenCalledTimes(1);
    document.removeEventListener('click', react);
  });

  it('opens the static language menu on a tap and closes it on a second one, before React', () => {
    document.body.innerHTML = languageMenu('en');
    const script = runScript();
    const page = pageSees();
    stop = () => (script.stop(), page.stop());
    const menu = byId('lm');
    const button = byId('b');

    tap(byId('globe'));
    expect(menu.hidden).toBe(false);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(openedEarly(menu)).toBe(true);
    // A finger's tap leaves focus where it was (on the button, or nowhere).
    expect(document.activeElement).not.toBe(byId('en'));
    tap(button);
    expect(menu.hidden).toBe(true);
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(page.clicks).toEqual([]);
  });

  it('puts focus on the first link when opened from the keyboard; Escape closes it and focus goes back', () => {
    document.body.innerHTML = languageMenu('ar');
    const script = runScript();
    stop = script.stop;
    const menu = byId('lm');
    const button = byId('b');
    button.focus();
    keyboardClick(button);
    expect(menu.hidden).toBe(false);
    expect(document.activeElement).toBe(byId('en'));
    // Moving between its links keeps it open.
    byId('ar').focus();
    expect(menu.hidden).toBe(false);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(menu.hidden).toBe(true);
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });

  it('closes on a touch or on focus outside it, not on one inside it', () => {
    document.body.innerHTML = languageMenu('en');
    const script = runScript();
    stop = script.stop;
    const menu = byId('lm');
    const button = byId('b');
    tap(button);
    byId('lml').dispatchEvent(new Event('pointerdown', { bubbles: true }));
    expect(menu.hidden).toBe(false);
    byId('elsewhere').dispatchEvent(new Event('pointerdown', { bubbles: true }));
    expect(menu.hidden).toBe(true);
    expect(button.getAttribute('aria-expanded')).toBe('false');

    tap(button);
    expect(menu.hidden).toBe(false);
    byId('field').focus(); // Tab past its last link
    expect(menu.hidden).toBe(true);
    expect(document.activeElement).toBe(byId('field'));
    // Escape with nothing open changes nothing.
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(document.activeElement).toBe(byId('field'));
  });

  it("a link to the other language remembers it in the language menu's cookie and is followed", () => {
    document.body.innerHTML = languageMenu('en');
    const script = runScript();
    const page = pageSees();
    stop = () => (script.stop(), page.stop());
    const written = vi.spyOn(document, 'cookie', 'set');
    tap(byId('b'));
    tap(byId('ar'));
    expect(page.clicks).toEqual([{ id: 'ar', followed: true }]);
    // Exactly what rememberLocale writes (path, lifetime, SameSite), and the browser keeps it.
    expect(written.mock.calls).toEqual([[localeCookie('ar')]]);
    written.mockRestore();
    expect(document.cookie).toBe(localeCookie('ar').split(';')[0]);
  });

  it("the current language's link only closes the menu, as choosing it in the hydrated menu does", () => {
    document.body.innerHTML = languageMenu('ar');
    const script = runScript();
    const page = pageSees();
    stop = () => (script.stop(), page.stop());
    tap(byId('b'));
    tap(byId('ar'));
    expect(page.clicks).toEqual([{ id: 'ar', followed: false }]);
    expect(byId('lm').hidden).toBe(true);
    expect(document.cookie).toBe('');
  });

  it('lets go of the language button and its menu once the switcher has hydrated', () => {
    document.body.innerHTML = languageMenu('en');
    const script = runScript();
    const page = pageSees();
    stop = () => (script.stop(), page.stop());
    const menu = byId('lm');
    const button = byId('b');
    tap(button);
    // Hydrated while open: from now on the component's (it removes the static menu and opens its own).
    releaseEarlyTap(button);
    byId('elsewhere').dispatchEvent(new Event('pointerdown', { bubbles: true }));
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(menu.hidden).toBe(false);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    tap(button);
    expect(page.clicks).toEqual([{ id: 'b', followed: true }]);
    expect(menu.hidden).toBe(false);
  });

  it('leaves every other click alone', () => {
    document.body.innerHTML = `<a href="#x" id="a">a</a><button ${EARLY_TAP}="menu" aria-controls="missing">b</button>`;
    const script = runScript();
    stop = script.stop;
    const react = vi.fn();
    document.addEventListener('click', react);
    document.getElementById('a')!.click();
    // A menu button whose menu is not on the page is not taken from React either.
    document.querySelector('button')!.click();
    expect(react).toHaveBeenCalledTimes(2);
    document.removeEventListener('click', react);
  });
});
