import { describe, expect, it } from 'vitest';
import { isPlainClick } from './plain-click';

const click = (over: Partial<Parameters<typeof isPlainClick>[0]> = {}) => ({
  button: 0,
  metaKey: false,
  ctrlKey: false,
  shiftKey: false,
  altKey: false,
  defaultPrevented: false,
  ...over,
});

describe('isPlainClick', () => {
  it('is true for a main-button click without modifiers (a tap, Enter on a focused link)', () => {
    expect(isPlainClick(click())).toBe(true);
  });

  it('leaves new-tab, new-window, download and other-button clicks to the browser', () => {
    for (const over of [
      { metaKey: true },
      { ctrlKey: true },
      { shiftKey: true },
      { altKey: true },
      { button: 1 },
      { button: 2 },
    ])
      expect(isPlainClick(click(over)), JSON.stringify(over)).toBe(false);
  });

  it('is false once another handler has taken the click', () => {
    expect(isPlainClick(click({ defaultPrevented: true }))).toBe(false);
  });
});
