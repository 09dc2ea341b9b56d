import { describe, expect, it } from 'vitest';
import { showTestBookingLink } from './test-link.server';

describe('showTestBookingLink', () => {
  it('shows outside production, or when the setting is on', () => {
    expect(showTestBookingLink(false, false)).toBe(true);
    expect(showTestBookingLink(false, null)).toBe(true);
    expect(showTestBookingLink(true, false)).toBe(false);
    expect(showTestBookingLink(true, null)).toBe(false);
    expect(showTestBookingLink(true, true)).toBe(true);
  });
});
