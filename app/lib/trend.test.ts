import { describe, expect, it } from 'vitest';
import { TREND_KEYS, trendBadgeClass, trendTone } from './trend';

describe('trend badge colour', () => {
  it('is green for rising, improving, expanding and accelerating', () => {
    for (const key of ['rising', 'improving', 'expanding', 'accelerating']) expect(trendTone(key)).toBe('green');
  });

  it('is blue for stable', () => {
    expect(trendTone('stable')).toBe('blue');
  });

  it('is amber for every other trend, unknown or missing', () => {
    for (const key of ['moderate', 'declining', 'volatile', '', null, undefined]) expect(trendTone(key)).toBe('amber');
  });

  it('reads the key regardless of case and surrounding space', () => {
    expect(trendTone('Rising')).toBe('green');
    expect(trendTone(' STABLE ')).toBe('blue');
    expect(trendTone('Accelerating')).toBe('green');
  });

  it('never decides by a translated label', () => {
    // The Arabic word for "rising" is a label, not a key: it gets the default colour.
    expect(trendTone('متصاعد')).toBe('amber');
  });

  it('has a class for every tone and a known tone for every known key', () => {
    expect(TREND_KEYS.map(trendTone)).toEqual(['green', 'green', 'green', 'green', 'blue', 'amber', 'amber']);
    expect(trendBadgeClass.green).toMatch(/bg-green-/);
    expect(trendBadgeClass.blue).toMatch(/bg-blue-/);
    expect(trendBadgeClass.amber).toMatch(/bg-amber-/);
  });
});
