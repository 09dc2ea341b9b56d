import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  accounts,
  billingCheckouts,
  billingCustomers,
  billingEvents,
  billingInvoices,
  billingSubscriptions,
  faqQuestions,
  formTokens,
  handledEvents,
  mailQueue,
  newsletterSignups,
  rateLimits,
  renewalReminders,
  sessions,
  signinCodes,
} from '~/db/schema.server';
import { openTestDatabase, testDatabaseKinds } from '~/db/test-support';
import type { Database, Db } from '~/db/types.server';
import { BATCH, enforceRetention, MAX_BATCHES, RETENTION_DAYS } from './retention.server';

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date('2027-03-01T12:00:00.000Z');
const ago = (days: number, from = NOW) => new Date(from.getTime() - days * DAY);
const ahead = (days: number) => new Date(NOW.getTime() + days * DAY);

async function count(db: Db, table: Parameters<typeof sql>[1]): Promise<number> {
  return (await db.execute<{ n: number }>(sql`select count(*)::int as n from ${table}`)).rows[0]!.n;
}

const mail = (key: string, status: string, createdAt: Date) => ({
  keyHash: key,
  toAddress: 'someone@example.com',
  kind: 'cancellation',
  message: { kind: 'cancellation', name: 'Someone' },
  status,
  nextAttemptAt: createdAt,
  createdAt,
});

describe.each(testDatabaseKinds())('retention on %s', (kind) => {
  let database: Database;
  beforeEach(async () => {
    database = await openTestDatabase(kind);
  }, 60_000);
  afterEach(() => database.close(), 60_000);

  it('removes each kind of record past its retention and keeps the rest', { timeout: 60_000 }, async () => {
    const { db } = database;
    await db.insert(accounts).values([{ customerId: 'cus_a', email: 'a@example.com', name: 'A', locale: 'en' }]);
    await db.insert(sessions).values([
      { idHash: 'session-expired', customerId: 'cus_a', expiresAt: ago(1) },
      { idHash: 'session-live', customerId: 'cus_a', expiresAt: ahead(29) },
    ]);
    const code = (id: string, expiresAt: Date) => ({
      id,
      subject: 's',
      requester: 'r',
      customerId: 'cus_a',
      triesLeft: 5,
      next: '/account',
      locale: 'en',
      expiresAt,
    });
    await db.insert(signinCodes).values([code('code-expired', ago(0.01)), code('code-live', ahead(0.005))]);
    await db.insert(rateLimits).values([
      { kind: 'k', subject: 'ended', windowStart: ago(2), count: 3, expiresAt: ago(1) },
      { kind: 'k', subject: 'running', windowStart: ago(0.01), count: 3, expiresAt: ahead(0.03) },
    ]);
    await db.insert(formTokens).values([
      { tokenHash: 'token-expired', form: 'faq', contentHash: 'h', expiresAt: ago(1) },
      { tokenHash: 'token-live', form: 'faq', contentHash: 'h', expiresAt: ahead(1) },
    ]);
    await db
      .insert(mailQueue)
      .values([
        mail('sent-old', 'sent', ago(RETENTION_DAYS.mailBody + 1)),
        mail('dropped-old', 'dropped', ago(RETENTION_DAYS.mailBody + 1)),
        mail('pending-old', 'pending', ago(RETENTION_DAYS.mailBody + 1)),
        mail('sent-recent', 'sent', ago(RETENTION_DAYS.mailBody - 1)),
        mail('sent-year', 'sent', ago(RETENTION_DAYS.mailRow + 1)),
      ]);
    await db.insert(handledEvents).values([
      { eventId: 'evt_old', type: 'invoice.paid', handledAt: ago(RETENTION_DAYS.handledEvents + 1) },
      { eventId: 'evt_recent', type: 'invoice.paid', handledAt: ago(RETENTION_DAYS.handledEvents - 1) },
    ]);
    await db.insert(renewalReminders).values([
      { subscriptionId: 'sub_1', periodEnd: ago(410), queuedAt: ago(RETENTION_DAYS.renewalReminders + 1) },
      { subscriptionId: 'sub_1', periodEnd: ago(20), queuedAt: ago(27) },
    ]);
    const question = (id: string, submittedAt: Date) => ({
      id,
      name: 'Q',
      email: 'q@example.com',
      phone: '',
      question: 'Which free zone?',
      locale: 'en',
      page: '/faq',
      submittedAt,
    });
    await db
      .insert(faqQuestions)
      .values([
        question('00000000-0000-4000-8000-000000000001', ago(RETENTION_DAYS.faqQuestions + 1)),
        question('00000000-0000-4000-8000-000000000002', ago(RETENTION_DAYS.faqQuestions - 1)),
      ]);
    // Sign-ups are kept until the person unsubscribes or is erased, however old.
    await db.insert(newsletterSignups).values({
      id: '00000000-0000-4000-8000-000000000003',
      email: 'n@example.com',
      emailKey: 'n@example.com',
      locale: 'ar',
      page: '/',
      submittedAt: ago(3000),
    });

    const removed = await enforceRetention(db, NOW);
    expect(removed).toEqual({
      'sign-in codes (expired)': 1,
      'sessions (expired)': 1,
      'rate-limit windows (ended)': 1,
      'form tokens (expired)': 1,
      'email bodies (sent or dropped, 30 days)': 2,
      'emails (365 days)': 1,
      'handled billing events (400 days)': 1,
      'renewal reminder markers (400 days)': 1,
      'FAQ questions (730 days)': 1,
    });
    const ids = async (query: ReturnType<typeof sql>) =>
      (await db.execute<{ id: string }>(query)).rows.map((r) => r.id);
    expect(await ids(sql`select id_hash as id from ${sessions}`)).toEqual(['session-live']);
    expect(await ids(sql`select id from ${signinCodes}`)).toEqual(['code-live']);
    expect(await ids(sql`select subject as id from ${rateLimits}`)).toEqual(['running']);
    expect(await ids(sql`select token_hash as id from ${formTokens}`)).toEqual(['token-live']);
    expect(
      (
        await db.execute<{ key_hash: string; emptied: boolean }>(
          sql`select key_hash, message is null as emptied from ${mailQueue} order by key_hash`,
        )
      ).rows,
    ).toEqual([
      { key_hash: 'dropped-old', emptied: true },
      // Still to be sent: its body is what it will be rendered from.
      { key_hash: 'pending-old', emptied: false },
      { key_hash: 'sent-old', emptied: true },
      { key_hash: 'sent-recent', emptied: false },
    ]);
    expect(await ids(sql`select event_id as id from ${handledEvents}`)).toEqual(['evt_recent']);
    expect(await count(db, renewalReminders)).toBe(1);
    expect(await ids(sql`select id::text as id from ${faqQuestions}`)).toEqual([
      '00000000-0000-4000-8000-000000000002',
    ]);
    expect(await count(db, newsletterSignups)).toBe(1);
    expect(await count(db, accounts)).toBe(1);
    // Run again: nothing more to do.
    expect(await enforceRetention(db, NOW)).toEqual({});

    // A day later, the body of an email that has just turned 30 days old goes too.
    const later = new Date(NOW.getTime() + DAY);
    await db.insert(mailQueue).values(mail('sent-just-now-old', 'sent', ago(RETENTION_DAYS.mailBody + 0.5, later)));
    // (the scan starts where the last complete one ended, so this row must be found from there)
    expect((await enforceRetention(db, later))['email bodies (sent or dropped, 30 days)']).toBe(1);
  });

  it(
    'removes the billing engine records past theirs: checkouts, delivered events, six-year-old accounting',
    {
      timeout: 60_000,
    },
    async () => {
      const { db } = database;
      const years = (n: number) => ago(n * 365);
      const customer = (id: string, createdAt: Date) => ({
        id,
        email: `${id}@example.com`,
        name: id,
        locale: 'en',
        createdAt,
      });
      await db
        .insert(billingCustomers)
        .values([customer('cus_gone', years(9)), customer('cus_paying', years(9)), customer('cus_recent', years(1))]);
      const subscription = (id: string, customerId: string, start: Date, endedAt: Date | null) => ({
        id,
        customerId,
        plan: 'starter',
        amount: 49900,
        currency: 'sgd',
        status: endedAt ? 'canceled' : 'active',
        billingAnchor: start,
        periodIndex: 1,
        currentPeriodStart: start,
        currentPeriodEnd: new Date(start.getTime() + 30 * DAY),
        cancelAtPeriodEnd: false,
        endedAt,
        createdAt: start,
      });
      await db.insert(billingSubscriptions).values([
        subscription('sub_gone', 'cus_gone', years(9), years(8)),
        // A client since nine years: their old invoices go, their subscription and newer invoices stay.
        subscription('sub_paying', 'cus_paying', years(9), null),
        subscription('sub_recent', 'cus_recent', years(1), ago(100)),
      ]);
      const invoice = (id: string, n: number, customerId: string, subscriptionId: string, createdAt: Date) => ({
        id,
        number: `BWB-2026-${String(n).padStart(4, '0')}`,
        sequence: 2026_000_000 + n,
        customerId,
        subscriptionId,
        status: 'paid',
        plan: 'starter',
        amount: 49900,
        currency: 'sgd',
        createdAt,
        periodStart: createdAt,
        periodEnd: new Date(createdAt.getTime() + 30 * DAY),
        paidAt: createdAt,
      });
      await db
        .insert(billingInvoices)
        .values([
          invoice('in_gone', 1, 'cus_gone', 'sub_gone', years(9)),
          invoice('in_paying_old', 2, 'cus_paying', 'sub_paying', years(9)),
          invoice('in_paying_new', 3, 'cus_paying', 'sub_paying', years(5)),
          invoice('in_recent', 4, 'cus_recent', 'sub_recent', years(1)),
        ]);
      const checkout = (id: string, status: 'open' | 'complete', expiresAt: Date) => ({
        id,
        plan: 'starter',
        locale: 'ar',
        amount: 49900,
        currency: 'sgd',
        status,
        email: 'typed@example.com',
        successUrl: '/account',
        cancelUrl: '/pricing',
        createdAt: ago(1, expiresAt),
        expiresAt,
        ...(status === 'complete'
          ? {
              completedAt: ago(1, expiresAt),
              resultCustomerId: 'cus_recent',
              resultSubscriptionId: 'sub_recent',
              resultInvoiceId: 'in_recent',
            }
          : {}),
      });
      await db
        .insert(billingCheckouts)
        .values([
          checkout('cs_open_old', 'open', ago(RETENTION_DAYS.checkoutsOpen + 1)),
          checkout('cs_open_recent', 'open', ago(RETENTION_DAYS.checkoutsOpen - 1)),
          checkout('cs_done_old', 'complete', ago(RETENTION_DAYS.checkoutsComplete + 1)),
          checkout('cs_done_recent', 'complete', ago(RETENTION_DAYS.checkoutsComplete - 1)),
        ]);
      const event = (id: string, deliveredAt: Date | null) => ({
        id,
        type: 'invoice.paid',
        createdAt: ago(400),
        event: { email: 'someone@example.com' },
        deliveredAt,
      });
      await db.insert(billingEvents).values([
        event('evt_delivered_old', ago(RETENTION_DAYS.billingEventsDelivered + 1)),
        event('evt_delivered_recent', ago(RETENTION_DAYS.billingEventsDelivered - 1)),
        // Never delivered: kept, however old, until it is.
        event('evt_undelivered', null),
      ]);

      const removed = await enforceRetention(db, NOW);
      expect(removed).toEqual({
        'checkouts (not completed, 7 days after expiry)': 1,
        'checkouts (completed, 90 days)': 1,
        'billing events (delivered, 30 days)': 1,
        // in_gone and in_paying_old, then sub_gone, then cus_gone
        [`invoices, ended subscriptions and customers (${RETENTION_DAYS.accounting} days)`]: 4,
      });
      const ids = async (table: Parameters<typeof sql>[1]) =>
        (await db.execute<{ id: string }>(sql`select id from ${table} order by id`)).rows.map((r) => r.id);
      expect(await ids(billingCheckouts)).toEqual(['cs_done_recent', 'cs_open_recent']);
      expect(await ids(billingEvents)).toEqual(['evt_delivered_recent', 'evt_undelivered']);
      expect(await ids(billingInvoices)).toEqual(['in_paying_new', 'in_recent']);
      expect(await ids(billingSubscriptions)).toEqual(['sub_paying', 'sub_recent']);
      expect(await ids(billingCustomers)).toEqual(['cus_paying', 'cus_recent']);
      expect(await enforceRetention(db, NOW)).toEqual({});
    },
  );

  it(
    'removes an account three years after its last subscription ended, unless billing says one runs',
    {
      timeout: 60_000,
    },
    async () => {
      const { db } = database;
      const days = RETENTION_DAYS.accountsWithoutSubscription;
      const account = (customerId: string, subscriptionEndedAt: Date | null) => ({
        customerId,
        email: `${customerId}@example.com`,
        name: customerId,
        locale: 'en',
        subscriptionEndedAt,
      });
      await db.insert(accounts).values([
        account('cus_left_long_ago', ago(days + 1)),
        account('cus_left_recently', ago(days - 1)),
        account('cus_paying', null),
        // Its end was recorded, but billing has a running subscription (an event out of order).
        account('cus_came_back', ago(days + 30)),
      ]);
      await db.insert(sessions).values({ idHash: 'session-old', customerId: 'cus_left_long_ago', expiresAt: ahead(1) });
      const asked: string[] = [];
      const deps = {
        subscribed: async (customerId: string) => {
          asked.push(customerId);
          return customerId === 'cus_came_back';
        },
      };
      const removed = await enforceRetention(db, NOW, deps);
      expect(removed).toEqual({ [`accounts (${days} days after their last subscription ended)`]: 1 });
      expect(asked.sort()).toEqual(['cus_came_back', 'cus_left_long_ago']);
      const left = await db
        .select({ customerId: accounts.customerId, ended: accounts.subscriptionEndedAt })
        .from(accounts)
        .orderBy(accounts.customerId);
      expect(left).toEqual([
        { customerId: 'cus_came_back', ended: null },
        { customerId: 'cus_left_recently', ended: ago(days - 1) },
        { customerId: 'cus_paying', ended: null },
      ]);
      // Its session went with it.
      expect(await count(db, sessions)).toBe(0);
      expect(await enforceRetention(db, NOW, deps)).toEqual({});
    },
  );

  it('works off a backlog in bounded statements: 500 rows each, at most 20 a run', { timeout: 120_000 }, async () => {
    const statements: string[] = [];
    const logged = await openTestDatabase(kind, { logQuery: (query) => statements.push(query) });
    try {
      const total = BATCH * MAX_BATCHES + 1;
      await logged.db.execute(
        sql`insert into ${handledEvents} (event_id, type, handled_at)
            select 'evt_' || g, 'invoice.paid', ${ago(RETENTION_DAYS.handledEvents + 5)}::timestamptz
            from generate_series(1, ${total}) g`,
      );
      statements.length = 0;
      expect(await enforceRetention(logged.db, NOW)).toEqual({ 'handled billing events (400 days)': total - 1 });
      const deletes = statements.filter((q) => /delete from "handled_events"/.test(q));
      expect(deletes).toHaveLength(MAX_BATCHES);
      expect(await count(logged.db, handledEvents)).toBe(1);
      // The next run takes the rest.
      expect(await enforceRetention(logged.db, NOW)).toEqual({ 'handled billing events (400 days)': 1 });
      expect(await count(logged.db, handledEvents)).toBe(0);
    } finally {
      await logged.close();
    }
  });
});
