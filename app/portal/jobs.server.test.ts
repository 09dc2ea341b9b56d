import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddedBilling } from '~/billing/engine/engine.server';
import { DEMO_TAX_PROFILE } from '~/billing/tax/profile';
import { addRate } from '~/billing/tax/rates.server';
import type { BillingProvider, SubscriptionView } from '~/billing/types';
import { mailQueue, rateLimits, renewalReminders } from '~/db/schema.server';
import { testDatabaseKinds } from '~/db/test-support';
import type { Mailer, MailMessage } from '~/lib/mailer.server';
import type { ClientEmail } from './emails.server';
import { claimTimerRun, forgetRateNotices, queueRenewalReminders, reminderMarkers, runPortalJobs } from './jobs.server';
import { mailKeyHash, queueMail } from './mail-queue.server';
import { createTestWorldOn, type TestWorldOn } from './test-world-on';

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date('2026-12-10T09:00:00.000Z');

const renewing = (id: string, periodEnd: Date, extra: Partial<SubscriptionView> = {}): SubscriptionView => ({
  id,
  customerId: `cus_${id}`,
  plan: 'business',
  status: 'active',
  amount: 190000,
  currency: 'sgd',
  currentPeriodStart: new Date(periodEnd.getTime() - 30 * DAY).toISOString(),
  currentPeriodEnd: periodEnd.toISOString(),
  cancelAtPeriodEnd: false,
  canceledAt: null,
  endedAt: null,
  scheduledChange: null,
  card: null,
  ...extra,
});

/** Billing as the reminder job sees it: a clock and the subscriptions renewing before a date. */
function billingWith(subscriptions: SubscriptionView[], now = () => NOW) {
  const provider = {
    kind: 'stripe',
    now: async () => now(),
    listRenewing: async (before: Date) =>
      subscriptions.filter((s) => s.status !== 'canceled' && new Date(s.currentPeriodEnd) < before),
    getCustomer: async (id: string) => ({
      id,
      email: `${id}@example.com`,
      name: 'Renewing Client',
      company: null,
      locale: 'en' as const,
    }),
  };
  globalThis.__billing = provider as unknown as BillingProvider;
}

const cancellation: ClientEmail = {
  kind: 'cancellation',
  locale: 'en',
  name: 'Jobs Client',
  siteUrl: 'https://www.bawaba-advisory.com',
  planName: 'Business',
  accessEndsAt: '2026-12-14T00:00:00.000Z',
  resumeUrl: 'https://www.bawaba-advisory.com/account/subscription',
};

describe.each(testDatabaseKinds())('portal jobs on %s', (kind) => {
  let world: TestWorldOn;
  beforeEach(async () => {
    world = await createTestWorldOn(kind);
  }, 60_000);
  afterEach(() => world.close(), 60_000);

  /** The queued renewal reminders' key hashes (the queue keeps each key's hash only). */
  const reminderMails = async () =>
    (
      await world.database.db
        .select({ keyHash: mailQueue.keyHash })
        .from(mailQueue)
        .where(eq(mailQueue.kind, 'renewal-reminder'))
        .orderBy(mailQueue.keyHash)
    ).map((row) => row.keyHash);

  it(
    'two job runners on one database: while one runs the other skips and does nothing; after, it runs',
    { timeout: 90_000 },
    async () => {
      // An email due now, and a rate-limit window that has ended (the clean-up removes it).
      await queueMail('cancel:sub_jobs:1', 'jobs@example.com', cancellation);
      await world.database.db.insert(rateLimits).values({
        kind: 'test',
        subject: 'ended',
        windowStart: new Date(Date.now() - 2 * DAY),
        count: 1,
        expiresAt: new Date(Date.now() - DAY),
      });
      const windows = async () =>
        (await world.database.db.execute<{ n: number }>(sql`select count(*)::int as n from ${rateLimits}`)).rows[0]!.n;
      // The first runner's email goes out slowly: it is in the middle of its run.
      let inside = false;
      let release!: () => void;
      const slow = new Promise<void>((r) => (release = r));
      const sent: MailMessage[] = [];
      const mailer: Mailer = {
        transport: 'outbox',
        async send(message) {
          inside = true;
          await slow;
          sent.push(message);
          return { transport: 'outbox', messageId: message.messageId ?? '<x@test>' };
        },
      };
      globalThis.__mailer = mailer;

      const first = runPortalJobs(world.database);
      await expect.poll(() => inside, { timeout: 30_000 }).toBe(true);
      const second = await runPortalJobs(world.copy);
      expect(second).toMatchObject({ skipped: true, mailSent: 0, purged: 0 });
      expect(await windows()).toBe(1);

      release();
      expect(await first).toMatchObject({ skipped: false, mailSent: 1, purged: 1, failed: [] });
      expect(sent.map((m) => m.to)).toEqual(['jobs@example.com']);
      expect(await windows()).toBe(0);
      // Once the first run is over, the other copy runs (and finds nothing left to do).
      expect(await runPortalJobs(world.copy)).toMatchObject({ skipped: false, mailSent: 0, purged: 0 });
      expect(sent).toHaveLength(1);
    },
  );

  it(
    'a tax invoice waiting for its exchange rate is in the jobs report, the log and one email to the firm; issued once a rate is recorded',
    { timeout: 90_000 },
    async () => {
      const profile = { ...DEMO_TAX_PROFILE, demo: false, registrationNumber: '100123456789012' };
      const engine = new EmbeddedBilling(world.database.db, {
        plans: async () => [{ key: 'business', priceSgd: 1500 }],
        tax: { profile, describe: async (plan) => ({ en: plan, ar: plan }) },
      });
      globalThis.__billing = engine;
      forgetRateNotices();
      const sent: MailMessage[] = [];
      globalThis.__mailer = {
        transport: 'outbox',
        async send(message) {
          sent.push(message);
          return { transport: 'outbox', messageId: message.messageId ?? '<x@test>' };
        },
      };
      const { url } = await engine.startCheckout({
        plan: 'business',
        locale: 'en',
        successUrl: 'http://127.0.0.1/ok',
        cancelUrl: 'http://127.0.0.1/pricing',
      });
      const { invoice } = await engine.completeCheckout(url.split('/').pop()!, {
        email: 'rates@example.com',
        name: 'Rates Client',
        company: null,
        cardNumber: '4242 4242 4242 4242',
        expMonth: 12,
        expYear: 2034,
        cvc: '123',
      });
      const day = (await engine.now()).toISOString().slice(0, 10);
      const first = await runPortalJobs(world.database);
      expect(first).toMatchObject({
        taxInvoicesIssued: 0,
        taxInvoicesWaiting: [`${invoice.number} (supply ${day})`],
        failed: [],
      });
      const operator = sent.filter((m) => m.subject.includes('exchange rate'));
      expect(operator).toHaveLength(1);
      expect(operator[0].text).toContain(invoice.number);
      expect(operator[0].text).toContain('npm run rates -- add SGD');
      // The next run tells the log again, not the inbox.
      await runPortalJobs(world.database);
      expect(sent.filter((m) => m.subject.includes('exchange rate'))).toHaveLength(1);

      await addRate(world.database.db, { base: 'SGD', date: day, rate: '2.8412', source: 'CBUAE' });
      expect(await runPortalJobs(world.database)).toMatchObject({ taxInvoicesIssued: 1, taxInvoicesWaiting: [] });
    },
  );

  it(
    'a renewal reminder is queued once per subscription period, marked in renewal_reminders',
    { timeout: 90_000 },
    async () => {
      const periodEnd = new Date(NOW.getTime() + 5 * DAY);
      const subs = [
        renewing('sub_r1', periodEnd),
        // Cancelling (it will not renew) or renewing after the 7 days: no reminder.
        renewing('sub_cancelling', periodEnd, { cancelAtPeriodEnd: true, canceledAt: NOW.toISOString() }),
        renewing('sub_later', new Date(NOW.getTime() + 20 * DAY)),
      ];
      billingWith(subs);
      const db = world.database.db;
      expect(await queueRenewalReminders(db)).toBe(1);
      expect(await reminderMarkers(db, 'sub_r1')).toEqual([periodEnd]);
      expect(await reminderMarkers(db, 'sub_cancelling')).toEqual([]);
      expect(await reminderMarkers(db, 'sub_later')).toEqual([]);
      expect(await reminderMails()).toEqual([mailKeyHash(`reminder:sub_r1:${periodEnd.toISOString()}`)]);
      // Every later run in the same period: nothing.
      expect(await queueRenewalReminders(db)).toBe(0);
      // A run that died after queueing and before marking: the next one queues nothing twice,
      // marks the period and counts the reminder the other run could not report.
      await db.delete(renewalReminders);
      expect(await queueRenewalReminders(db)).toBe(1);
      expect(await reminderMarkers(db, 'sub_r1')).toEqual([periodEnd]);
      expect(await reminderMails()).toHaveLength(1);
      // The next period gets its own reminder.
      const nextEnd = new Date(periodEnd.getTime() + 31 * DAY);
      subs[0] = renewing('sub_r1', nextEnd);
      billingWith(subs, () => new Date(nextEnd.getTime() - 6 * DAY));
      expect(await queueRenewalReminders(db)).toBe(1);
      expect(await reminderMarkers(db, 'sub_r1')).toEqual([periodEnd, nextEnd]);
    },
  );

  it('two copies reminding at once queue and count one reminder', { timeout: 90_000 }, async () => {
    billingWith([renewing('sub_r2', new Date(NOW.getTime() + 3 * DAY))]);
    const counts = await Promise.all([queueRenewalReminders(world.database.db), queueRenewalReminders(world.copy.db)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await reminderMails()).toHaveLength(1);
    expect(await reminderMarkers(world.database.db, 'sub_r2')).toHaveLength(1);
  });

  it(
    'the timers of two copies run the jobs once per interval between them, not once each',
    { timeout: 90_000 },
    async () => {
      const a = { db: world.database.db };
      const b = { db: world.copy.db };
      const t = Date.parse('2026-12-10T09:00:00.000Z');
      // Both copies' ticks at the same moment: one of them runs.
      const first = await Promise.all([claimTimerRun(60, { ...a, now: t }), claimTimerRun(60, { ...b, now: t })]);
      expect(first.filter(Boolean)).toHaveLength(1);
      // The other copy's tick half an interval later: the interval is taken.
      expect(await claimTimerRun(60, { ...b, now: t + 30_000 })).toBe(false);
      expect(await claimTimerRun(60, { ...a, now: t + 30_000 })).toBe(false);
      // The next interval (its tick a few milliseconds early by the wall clock): one run again.
      expect(await claimTimerRun(60, { ...a, now: t + 60_000 - 5 })).toBe(true);
      expect(await claimTimerRun(60, { ...b, now: t + 90_000 })).toBe(false);
      // The copy that ran stops (no tick): the other takes the interval after.
      expect(await claimTimerRun(60, { ...b, now: t + 150_000 })).toBe(true);
    },
  );
});
