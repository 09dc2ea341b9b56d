import { describe, expect, it } from 'vitest';
import { asciiDigits } from './digits';

describe('asciiDigits', () => {
  it('reads Arabic-Indic digits as ASCII', () => {
    expect(asciiDigits('١٢٣٤٥٦')).toBe('123456');
    expect(asciiDigits('٠٩')).toBe('09');
  });
  it('reads Persian digits as ASCII', () => {
    expect(asciiDigits('۰۱۲۳۴۵۶۷۸۹')).toBe('0123456789');
  });
  it('keeps ASCII digits, spaces and other characters', () => {
    expect(asciiDigits('12 34-5a')).toBe('12 34-5a');
  });
});
