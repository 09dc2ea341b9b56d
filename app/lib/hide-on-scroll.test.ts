import { describe, expect, it } from 'vitest';
import { nextScrollState, SCROLL_STEP, TOP_ZONE, type ScrollState } from './hide-on-scroll';

const run = (ys: number[], atEndAt = Infinity) =>
  ys.reduce<ScrollState>((state, y) => nextScrollState(state, y, y >= atEndAt), { anchorY: 0, hidden: false });

describe('floating buttons while scrolling on a phone', () => {
  it('hide when the reader scrolls down past the top of the page', () => {
    expect(run([100, 300, 400]).hidden).toBe(true);
  });

  it('stay while the page is near its top', () => {
    expect(run([50, 120, TOP_ZONE]).hidden).toBe(false);
  });

  it('come back on any move up of a step or more', () => {
    expect(run([300, 800, 800 - SCROLL_STEP]).hidden).toBe(false);
  });

  it('ignore jitter smaller than a step in either direction', () => {
    expect(run([300, 800, 795, 798, 790]).hidden).toBe(true);
    expect(run([300, 800, 700, 705, 710]).hidden).toBe(false);
  });

  it('show at the end of the page, where room is kept for them', () => {
    expect(run([300, 900, 1500], 1500).hidden).toBe(false);
  });

  it('measure a step from where the direction last changed, not from the previous event', () => {
    // Slow scrolling: many small moves add up to a step.
    expect(run([300, 280, 285, 290]).hidden).toBe(false);
    expect(run([300, 280, 285, 290, 295]).hidden).toBe(true);
    expect(run([300, 800, 795, 790, 785]).hidden).toBe(false);
  });
});
