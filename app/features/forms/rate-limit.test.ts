import { describe, expect, it } from 'vitest';
import { isRateLimited, RATE_LIMITED_MESSAGE } from './rate-limit';

describe('per-address limit', () => {
  const t0 = 1_700_000_000_000;

  it('per-address rate limit: 5 per hour by default, sliding', () => {
    const hour = 3600_000;
    const times = [t0, t0 + 1000, t0 + 2000, t0 + 3000];
    expect(isRateLimited(times, t0 + 10_000)).toBe(false);
    expect(isRateLimited([...times, t0 + 4000], t0 + 10_000)).toBe(true);
    // the oldest leaves the window
    expect(isRateLimited([...times, t0 + 4000], t0 + hour)).toBe(false);
    // future times (clock skew) are ignored
    expect(isRateLimited([...times, t0 + 2 * hour], t0 + 10_000)).toBe(false);
    expect(isRateLimited([t0], t0 + 1, { max: 1, windowMs: 1000 })).toBe(true);
    expect(RATE_LIMITED_MESSAGE).toEqual({ titleKey: 'forms:spamTitle', messageKey: 'forms:spamRateLimited' });
  });
});
