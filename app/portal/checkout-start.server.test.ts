/**
 * Starting checkouts (Subscribe on /pricing) is limited per visitor IP (issue 28, low: one
 * address started 197 checkouts in 5 s): each start is a stored checkout (or a Stripe session).
 */
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '~/db/test-support';
import { LIMITS } from './limits.server';
import { startCheckout, TooManyCheckouts } from './service.server';
import { createTestWorld, type TestWorld } from './test-support';

const request = (ip: string) =>
  new Request('https://site.example/pricing', { method: 'POST', headers: { 'x-bawaba-client-ip': ip } });

let world: TestWorld;
const checkouts = async () =>
  Number(
    (await world.database.db.execute<{ n: number }>(sql`select count(*)::int as n from billing_checkouts`)).rows[0]!.n,
  );

describe.each(testDatabaseKinds())('starting checkouts (%s)', (kind) => {
  beforeEach(async () => {
    world = await createTestWorld({ dataset: 'bundled', database: kind });
  }, 60_000);
  afterEach(() => world.close(), 60_000);

  it('one IP starts at most LIMITS.checkoutStartPerIp an hour; the next is refused and stores nothing; other IPs go on', async () => {
    const ip = '198.51.100.40';
    const max = LIMITS.checkoutStartPerIp.max;
    for (let i = 0; i < max; i++) {
      const { url } = await startCheckout(request(ip), i % 2 ? 'business' : 'starter', i % 2 ? 'ar' : 'en');
      expect(url).toMatch(/\/checkout\/cs_[A-Za-z0-9]+$/);
    }
    expect(await checkouts()).toBe(max);
    await expect(startCheckout(request(ip), 'starter', 'en')).rejects.toBeInstanceOf(TooManyCheckouts);
    await expect(startCheckout(request(ip), 'enterprise', 'ar')).rejects.toBeInstanceOf(TooManyCheckouts);
    expect(await checkouts()).toBe(max);
    // Another visitor still subscribes.
    expect((await startCheckout(request('198.51.100.41'), 'starter', 'en')).url).toMatch(/\/checkout\/cs_/);
    expect(await checkouts()).toBe(max + 1);
  });

  it('50 starts at once from one IP make exactly LIMITS.checkoutStartPerIp checkouts', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => startCheckout(request('198.51.100.42'), 'starter', 'en')),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(LIMITS.checkoutStartPerIp.max);
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused.every((r) => r.reason instanceof TooManyCheckouts)).toBe(true);
    expect(await checkouts()).toBe(LIMITS.checkoutStartPerIp.max);
  });
});
