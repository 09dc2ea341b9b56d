import { describe, expect, it } from 'vitest';
import { duration } from './duration';

describe('duration', () => {
  it('counts in Arabic by its plural rules, and in English by one and other', () => {
    expect(duration(1, 'day')).toEqual({ en: '1 day', ar: 'يوم واحد' });
    expect(duration(2, 'hour')).toEqual({ en: '2 hours', ar: 'ساعتان' });
    expect(duration(7, 'day')).toEqual({ en: '7 days', ar: '7 أيام' });
    expect(duration(6, 'month')).toEqual({ en: '6 months', ar: '6 أشهر' });
    expect(duration(30, 'day')).toEqual({ en: '30 days', ar: '30 يومًا' });
    expect(duration(15, 'minute')).toEqual({ en: '15 minutes', ar: '15 دقيقة' });
    expect(duration(1095, 'day')).toEqual({ en: '1,095 days', ar: '1,095 يومًا' });
    expect(duration(400, 'day')).toEqual({ en: '400 days', ar: '400 يوم' });
  });
});
