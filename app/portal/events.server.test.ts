import { mailQueue } from '~/db/schema.server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SubscriptionView } from '~/billing/types';
import { ensureAccount } from './accounts.server';
import { subscriptionChangeMails } from './events.server';
import { createTestWorld, type TestWorld } from './test-support';

let world: TestWorld;
beforeEach(async () => {
  world = await createTestWorld();
  process.env.SITE_URL ??= 'https://www.bawaba-advisory.com';
  await ensureAccount({
    customerId: 'cus_events',
    email: 'events@example.com',
    name: 'Events Client',
    company: null,
    locale: 'en',
  });
});
afterEach(() => world.close());

const sub = (change: SubscriptionView['scheduledChange']): SubscriptionView => ({
  id: 'sub_events',
  customerId: 'cus_events',
  plan: 'starter',
  status: 'active',
  amount: 95000,
  currency: 'sgd',
  currentPeriodStart: '2026-11-01T00:00:00.000Z',
  currentPeriodEnd: '2026-12-01T00:00:00.000Z',
  cancelAtPeriodEnd: false,
  canceledAt: null,
  endedAt: null,
  scheduledChange: change,
  card: null,
});

/** The kinds of the queued emails (the queue keeps each key's hash only). */
const mails = async () =>
  (await world.database.db.select({ kind: mailQueue.kind }).from(mailQueue)).map((row) => row.kind);

describe('subscription change emails', () => {
  it('the same change asked for again after a withdrawal is confirmed again; a repeated report of one request is not', async () => {
    const first = { plan: 'enterprise' as const, effectiveAt: '2026-12-01T00:00:00.000Z', requestRef: 'sub_sched_A' };
    const second = { ...first, requestRef: 'sub_sched_B' };
    await subscriptionChangeMails(sub(first), { scheduledChange: null });
    // The webhook (or the engine's event) reports the same request: nothing more.
    await subscriptionChangeMails(sub(first), { scheduledChange: undefined });
    await subscriptionChangeMails(sub(null), { scheduledChange: first });
    await subscriptionChangeMails(sub(second), { scheduledChange: null });
    await subscriptionChangeMails(sub(null), { scheduledChange: second });
    const keys = await mails();
    expect(keys.filter((k) => k === 'plan-changed')).toHaveLength(2);
    expect(keys.filter((k) => k === 'change-withdrawn')).toHaveLength(2);
  });
});
