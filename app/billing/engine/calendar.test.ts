import { describe, expect, it } from 'vitest';
import { addMonthsUtc, periodBounds } from './calendar';

const iso = (s: string) => new Date(s);

describe('monthly periods in UTC', () => {
  it('moves to the same day next month, keeping the time of day', () => {
    expect(addMonthsUtc(iso('2026-03-15T10:30:00.000Z'), 1).toISOString()).toBe('2026-04-15T10:30:00.000Z');
    expect(addMonthsUtc(iso('2026-12-15T00:00:00.000Z'), 1).toISOString()).toBe('2027-01-15T00:00:00.000Z');
    expect(addMonthsUtc(iso('2026-01-15T00:00:00.000Z'), -3).toISOString()).toBe('2025-10-15T00:00:00.000Z');
  });

  it('clamps to the end of shorter months (leap years included)', () => {
    expect(addMonthsUtc(iso('2026-01-31T09:00:00.000Z'), 1).toISOString()).toBe('2026-02-28T09:00:00.000Z');
    expect(addMonthsUtc(iso('2028-01-31T09:00:00.000Z'), 1).toISOString()).toBe('2028-02-29T09:00:00.000Z');
    expect(addMonthsUtc(iso('2026-03-31T09:00:00.000Z'), 1).toISOString()).toBe('2026-04-30T09:00:00.000Z');
    expect(addMonthsUtc(iso('2026-05-31T23:59:59.999Z'), -3).toISOString()).toBe('2026-02-28T23:59:59.999Z');
  });

  it('counts every period from the anchor, so the 31st comes back after a short month', () => {
    const anchor = iso('2026-01-31T12:00:00.000Z');
    expect([1, 2, 3, 4].map((k) => periodBounds(anchor, k).end.toISOString())).toEqual([
      '2026-02-28T12:00:00.000Z',
      '2026-03-31T12:00:00.000Z',
      '2026-04-30T12:00:00.000Z',
      '2026-05-31T12:00:00.000Z',
    ]);
    expect(periodBounds(anchor, 2).start.toISOString()).toBe('2026-02-28T12:00:00.000Z');
  });
});
