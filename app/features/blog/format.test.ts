import { describe, expect, it } from 'vitest';
import { formatDate } from './format';

describe('formatDate', () => {
  it('prints the date in the page language, in UAE time', () => {
    expect(formatDate('2026-04-07T07:30:00.000Z', 'en')).toBe('7 April 2026');
    expect(formatDate('2026-04-07T07:30:00.000Z', 'ar')).toMatch(/أبريل/);
    // 22:00 UTC is already the next day in Dubai.
    expect(formatDate('2026-03-09T22:00:00.000Z', 'en')).toBe('10 March 2026');
  });
});
