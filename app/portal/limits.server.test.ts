import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consume, remaining } from './limits.server';
import { createTestWorld, type TestWorld } from './test-support';

let world: TestWorld;
beforeEach(async () => (world = await createTestWorld()));
afterEach(() => world.close());

describe('rate limits in the private store', () => {
  it('allows max uses per window, then refuses until the window has passed', async () => {
    const limit = { max: 3, windowMs: 60_000 };
    const t0 = Date.UTC(2026, 10, 23, 10);
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await consume('t', 'a@example.com', limit, { now: t0 + i }));
    expect(results).toEqual([true, true, true, false, false]);
    expect(await remaining('t', 'a@example.com', limit, { now: t0 + 10 })).toBe(0);
    // Another subject has its own window; the same subject gets a new window after it ends.
    expect(await consume('t', 'b@example.com', limit, { now: t0 })).toBe(true);
    expect(await consume('t', 'a@example.com', limit, { now: t0 + 60_000 })).toBe(true);
  });

  it('holds under concurrency: 50 simultaneous uses against a limit of 5 allow exactly 5', async () => {
    const limit = { max: 5, windowMs: 60 * 60 * 1000 };
    const results = await Promise.all(Array.from({ length: 50 }, () => consume('burst', '203.0.113.9', limit)));
    expect(results.filter(Boolean)).toHaveLength(5);
  });

  it('keeps no personal data in document ids', async () => {
    await consume('signin-email', 'Layla.Haddad@Example.com', { max: 5, windowMs: 1000 });
    const ids = await world.store.queryPrivate<string[]>('*[_type == "portal.limit"]._id');
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatch(/^portal\.limit\.signin-email\.[A-Za-z0-9]{32}$/);
    expect(ids[0].toLowerCase()).not.toContain('layla');
  });
});
