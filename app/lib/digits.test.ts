import { describe, expect, it } from 'vitest';
import { digitsOf, isolateCodes, isolateNumberRuns, toAsciiDigits } from './digits';

describe('digits', () => {
  it('reads Arabic-Indic and Persian digits as ASCII', () => {
    expect(toAsciiDigits('٤٢ و۷')).toBe('42 و7');
  });

  it('reads the digits of a code or card number as typed or pasted: separators and invisible marks dropped, letters kept', () => {
    expect(digitsOf('123 456')).toBe('123456');
    expect(digitsOf('4242-4242\u00a04242\u20134242')).toBe('4242424242424242');
    expect(digitsOf('\u200f\u2066١٢٣.۴۵۶\u2069\t')).toBe('123456');
    expect(digitsOf('12a456')).toBe('12a456');
    expect(digitsOf('12/34')).toBe('12/34');
  });

  it('isolates joined numbers left to right, and leaves lone numbers and letters alone', () => {
    expect(isolateNumberRuns('10 أنسون رود، الوحدة 22-02، سنغافورة 079903')).toBe(
      '10 أنسون رود، الوحدة \u206622-02\u2069، سنغافورة 079903',
    );
    expect(isolateNumberRuns('حتى 14/12/2026 أو 1.5 يوم')).toBe('حتى \u206614/12/2026\u2069 أو \u20661.5\u2069 يوم');
    expect(isolateNumberRuns('Unit 22-02, 10 Anson Road')).toBe('Unit \u206622-02\u2069, 10 Anson Road');
    expect(isolateNumberRuns('Suite 3, Level 12')).toBe('Suite 3, Level 12');
  });

  it('isolates tax numbers and other codes with digits whole, and leaves words alone', () => {
    expect(isolateCodes('مثل M2-1234567-8 أو 201912345K.')).toBe(
      'مثل \u2066M2-1234567-8\u2069 أو \u2066201912345K\u2069.',
    );
    expect(isolateCodes('UAE TRN: 15 digits, starting with 100')).toBe('UAE TRN: 15 digits, starting with 100');
  });
});
