// @vitest-environment jsdom
/**
 * The page's early script answers taps on the header's menus before React does, and lets go of a
 * control once its component has hydrated (releaseEarlyTap); React never sees a tap it answered.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EARLY_HREF, EARLY_TAP, earlyTapsScript, openedEarly, releaseEarlyTap } from './early-taps';

/** Runs the script as the page does, with `location` stood in for (jsdom does not navigate). */
function runScript() {
  const assign = vi.fn();
  const controller = new AbortController();
  const win = {
    addEventListener: (type: string, listener: EventListener, capture: boolean) =>
      window.addEventListener(type, listener, { capture, signal: controller.signal }),
    location: { assign },
  };
  new Function('window', 'document', earlyTapsScript)(win, document);
  return { assign, stop: () => controller.abort() };
}

let stop = () => {};
afterEach(() => {
  stop();
  document.body.innerHTML = '';
});

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

  it('takes the language button to the other language until the menu has hydrated', () => {
    document.body.innerHTML = `<button ${EARLY_TAP}="link" ${EARLY_HREF}="/ar/pricing?x=1">English</button>`;
    const script = runScript();
    stop = script.stop;
    const button = document.querySelector('button')!;
    button.click();
    expect(script.assign).toHaveBeenCalledWith('/ar/pricing?x=1');
    releaseEarlyTap(button);
    button.click();
    expect(script.assign).toHaveBeenCalledTimes(1);
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
    expect(script.assign).not.toHaveBeenCalled();
    document.removeEventListener('click', react);
  });
});
