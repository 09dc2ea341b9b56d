import { describe, expect, it } from 'vitest';
import { formatSgd } from './price';

// Intl may use no-break spaces and bidi marks; compare what a reader sees.
const visible = (s: string) => s.replace(/[\u200e\u200f\u061c]/g, '').replace(/\s/g, ' ');

describe('SGD price formatting', () => {
  it('formats English prices with the currency code and thousands separators, no decimals', () => {
    expect(visible(formatSgd(950, 'en'))).toBe('SGD 950');
    expect(visible(formatSgd(1900, 'en'))).toBe('SGD 1,900');
    expect(visible(formatSgd(3800, 'en'))).toBe('SGD 3,800');
  });

  it('formats Arabic prices for ar-AE: the amount before the currency, no decimals', () => {
    expect(visible(formatSgd(950, 'ar'))).toBe('950 SGD');
    expect(visible(formatSgd(1900, 'ar'))).toBe('1,900 SGD');
    // Right-to-left: a right-to-left mark keeps the amount and code in reading order.
    expect(formatSgd(1900, 'ar').startsWith('\u200f')).toBe(true);
  });

  it('rounds to whole dollars', () => {
    expect(visible(formatSgd(949.6, 'en'))).toBe('SGD 950');
    expect(formatSgd(950, 'en')).not.toMatch(/\.\d/);
  });

  it('matches Intl for the page locale exactly', () => {
    expect(formatSgd(3800, 'ar')).toBe(
      new Intl.NumberFormat('ar-AE', {
        style: 'currency',
        currency: 'SGD',
        maximumFractionDigits: 0,
        minimumFractionDigits: 0,
      }).format(3800),
    );
  });
});
