import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BillingEvent, BillingProvider, InvoiceView, SubscriptionView } from '~/billing/types';
import { testDatabaseKinds } from '~/db/test-support';
import { accounts, handledEvents, mailQueue } from '~/db/schema.server';
import { ensureAccount } from './accounts.server';
import { handleBillingEvent, subscriptionChangeMails } from './events.server';
import { createTestWorldOn, type TestWorldOn } from './test-world-on';

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

const invoice = (customerId: string, id = 'in_failed_1'): InvoiceView => ({
  id,
  number: 'BWB-2026-0042',
  customerId,
  subscriptionId: 'sub_events',
  status: 'open',
  plan: 'starter',
  amount: 95000,
  currency: 'sgd',
  created: '2026-12-01T00:00:00.000Z',
  periodStart: '2026-12-01T00:00:00.000Z',
  periodEnd: '2027-01-01T00:00:00.000Z',
  hostedUrl: null,
  pdfUrl: null,
});

const paymentFailed = (customerId: string, id = 'evt_payment_failed_1'): BillingEvent => ({
  id,
  created: '2026-12-01T00:00:05.000Z',
  type: 'invoice.payment_failed',
  invoice: invoice(customerId),
});

describe.each(testDatabaseKinds())('billing events on %s', (kind) => {
  let world: TestWorldOn;
  beforeEach(async () => {
    world = await createTestWorldOn(kind);
    process.env.SITE_URL ??= 'https://www.bawaba-advisory.com';
    await ensureAccount({
      customerId: 'cus_events',
      email: 'events@example.com',
      name: 'Events Client',
      company: null,
      locale: 'en',
    });
  }, 60_000);
  afterEach(() => world.close(), 60_000);

  /** The kinds of the queued emails (the queue keeps each key's hash only). */
  const mails = async () =>
    (await world.database.db.select({ kind: mailQueue.kind }).from(mailQueue)).map((row) => row.kind);
  const marks = (id: string) =>
    world.database.db.select({ type: handledEvents.type }).from(handledEvents).where(eq(handledEvents.eventId, id));

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

  it(
    'an event delivered to two server copies at once is handled by one: one mark, one email',
    { timeout: 60_000 },
    async () => {
      const event = paymentFailed('cus_events');
      const outcomes = await Promise.all([
        handleBillingEvent(event, world.database.db),
        handleBillingEvent(event, world.copy.db),
      ]);
      expect(outcomes.sort()).toEqual(['duplicate', 'handled']);
      expect(await marks(event.id)).toEqual([{ type: 'invoice.payment_failed' }]);
      expect(await mails()).toEqual(['payment-failed']);
      expect(world.sent.map((m) => m.to)).toEqual(['events@example.com']);
      // Delivered again later (Stripe retries what it thinks was not received): nothing more.
      expect(await handleBillingEvent(event)).toBe('duplicate');
      expect(world.sent).toHaveLength(1);
    },
  );

  it("records when the last subscription ended (for the accounts' retention) and clears it when one starts", async () => {
    const ended = () =>
      world.database.db
        .select({ at: accounts.subscriptionEndedAt })
        .from(accounts)
        .where(eq(accounts.customerId, 'cus_events'));
    const endedAt = '2026-12-01T00:00:00.000Z';
    const deleted: BillingEvent = {
      id: 'evt_sub_deleted',
      created: endedAt,
      type: 'customer.subscription.deleted',
      subscription: { ...sub(null), status: 'canceled', endedAt },
    };
    expect(await handleBillingEvent(deleted)).toBe('handled');
    expect(await ended()).toEqual([{ at: new Date(endedAt) }]);
    const created: BillingEvent = {
      id: 'evt_sub_created',
      created: '2027-02-01T00:00:00.000Z',
      type: 'customer.subscription.created',
      subscription: { ...sub(null), id: 'sub_again' },
    };
    expect(await handleBillingEvent(created)).toBe('handled');
    expect(await ended()).toEqual([{ at: null }]);
  });

  it('a delivery whose handling fails marks nothing, so the redelivery handles it', { timeout: 60_000 }, async () => {
    // A customer with no portal account: the recipient comes from billing, which fails once.
    let calls = 0;
    const provider = {
      kind: 'stripe',
      async getCustomer(id: string) {
        if (calls++ === 0) throw new Error('billing unreachable');
        return { id, email: 'new-client@example.com', name: 'New Client', company: null, locale: 'ar' as const };
      },
    };
    globalThis.__billing = provider as unknown as BillingProvider;
    const event = paymentFailed('cus_new', 'evt_payment_failed_2');
    await expect(handleBillingEvent(event)).rejects.toThrow('billing unreachable');
    expect(await marks(event.id)).toEqual([]);
    expect(await handleBillingEvent(event)).toBe('handled');
    expect(await marks(event.id)).toHaveLength(1);
    expect(world.sent.map((m) => m.to)).toEqual(['new-client@example.com']);
  });
});
