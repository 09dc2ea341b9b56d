import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '~/db/client.server';
import { openTestDatabase, testDatabaseKinds } from '~/db/test-support';
import type { Database, Db } from '~/db/types.server';
import { BillingError, type BillingEvent, type BillingPlan, type PlanKey } from '../types';
import { DEMO_CLIENT_EMAIL, DEMO_FORMER_EMAIL, EmbeddedBilling, type CheckoutInput } from './engine.server';

/**
 * The engine as a state machine over a moving clock, against a real database: PGlite always,
 * and a real PostgreSQL when TEST_DATABASE_URL is set (db/test-support.ts). The tests read the
 * state with SQL where they check what is stored.
 */
const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const PLANS: BillingPlan[] = [
  { key: 'starter', priceSgd: 500 },
  { key: 'business', priceSgd: 1500 },
  { key: 'enterprise', priceSgd: 4000 },
];
const cents = (plan: PlanKey) => PLANS.find((p) => p.key === plan)!.priceSgd * 100;
const BILLING_TABLES = [
  'billing_clock',
  'billing_customers',
  'billing_subscriptions',
  'billing_invoices',
  'billing_invoice_counters',
  'billing_checkouts',
  'billing_events',
] as const;

describe.each(testDatabaseKinds())('the embedded billing engine (%s)', (kind) => {
  let dir: string;
  let database: Database;
  /** More connections to the same database (a second server process's pool), closed after each test. */
  const others: Database[] = [];
  /** The real time the engines see; the billing clock adds its offset to it. */
  let realNow: number;

  const engineOn = (db: Db, options: { eventLeaseMs?: number } = {}) =>
    new EmbeddedBilling(db, { plans: async () => PLANS, now: () => realNow, ...options });

  /** An engine on the test's database (a second one on the same database is another request handler, or a restart). */
  function open(db = database.db) {
    return { db, engine: engineOn(db) };
  }

  /**
   * The same database as another server process reaches it: on PostgreSQL, a pool of its own
   * (its own connections and transactions); on PGlite, which one process opens at a time, the
   * same database.
   */
  async function secondProcess(): Promise<Db> {
    if (kind === 'pglite') return database.db;
    return (await reopen(database)).db;
  }

  /** A new pool on the database `of` (PostgreSQL only); closed after the test unless `track` is false. */
  async function reopen(of: Database, track = true): Promise<Database> {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = of.where.slice(of.where.indexOf('/'));
    const other = await openDatabase({ kind: 'postgres', url: url.toString() });
    if (track) others.push(other);
    return other;
  }

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'billing-'));
    database = await openTestDatabase(kind);
    realNow = Date.UTC(2026, 2, 10, 9, 0, 0); // 2026-03-10 09:00 UTC
  });

  afterEach(async () => {
    for (const other of others.splice(0)) await other.close();
    await database.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function rows<T extends Record<string, unknown>>(query: SQL, db: Db = database.db): Promise<T[]> {
    return (await db.execute<T>(query)).rows as T[];
  }

  async function count(table: (typeof BILLING_TABLES)[number], db: Db = database.db): Promise<number> {
    const [row] = await rows<{ n: string | number }>(sql`select count(*) as n from ${sql.identifier(table)}`, db);
    return Number(row.n);
  }

  async function invoiceNumbers(db: Db = database.db): Promise<string[]> {
    return (await rows<{ number: string }>(sql`select number from billing_invoices order by number`, db)).map(
      (r) => r.number,
    );
  }

  async function counter(year: number, db: Db = database.db): Promise<number | null> {
    const [row] = await rows<{ last: number }>(sql`select last from billing_invoice_counters where year = ${year}`, db);
    return row ? Number(row.last) : null;
  }

  const input = (
    email: string,
    cardNumber = '4242 4242 4242 4242',
    over: Partial<CheckoutInput> = {},
  ): CheckoutInput => ({
    email,
    name: 'Test Client',
    company: 'Test Co',
    cardNumber,
    expMonth: 12,
    expYear: 2034,
    cvc: '123',
    ...over,
  });

  async function subscribe(engine: EmbeddedBilling, email: string, plan: PlanKey = 'business', card?: string) {
    const { url } = await engine.startCheckout({
      plan,
      locale: 'en',
      successUrl: 'http://127.0.0.1/ok',
      cancelUrl: 'http://127.0.0.1/pricing',
    });
    const id = url.split('/').pop()!;
    return { checkoutId: id, ...(await engine.completeCheckout(id, input(email, card))) };
  }

  async function allEvents(engine: EmbeddedBilling): Promise<BillingEvent[]> {
    return engine.undeliveredEvents(1000);
  }

  async function deliverAll(engine: EmbeddedBilling) {
    for (const e of await allEvents(engine)) await engine.markDelivered(e.id);
  }

  async function caught(promise: Promise<unknown>): Promise<BillingError & { field?: string; declineCode?: string }> {
    try {
      await promise;
    } catch (error) {
      expect(error).toBeInstanceOf(BillingError);
      return error as BillingError;
    }
    throw new Error('expected a BillingError');
  }

  /** An error's message and its causes' (a database error is the cause of the query's error). */
  function messages(error: unknown): string {
    let out = '';
    for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++)
      out += `${(e as Error).message}\n`;
    return out;
  }

  async function invoices(engine: EmbeddedBilling, customerId: string) {
    return (await engine.listInvoices(customerId, { limit: 100 })).invoices;
  }

  describe('clock', () => {
    it('is real time plus a durable offset that only moves forward', async () => {
      const { engine } = open();
      expect((await engine.now()).getTime()).toBe(realNow);
      const moved = await engine.advanceClock(5 * DAY);
      expect(moved.getTime()).toBe(realNow + 5 * DAY);
      realNow += 1000;
      expect((await engine.now()).getTime()).toBe(realNow + 5 * DAY);
      expect((await caught(engine.advanceClock(-1))).code).toBe('invalid_request');
      // Another engine on the same database (a restart) sees the same clock.
      const again = open().engine;
      expect((await again.now()).getTime()).toBe(realNow + 5 * DAY);
    });
  });

  describe('local checkout', () => {
    it('with 4242: an active subscription, a paid invoice BWB-YYYY-0001 and its events, in one go', async () => {
      const { engine } = open();
      const en = await engine.startCheckout({
        plan: 'business',
        locale: 'en',
        successUrl: 'http://127.0.0.1/ok',
        cancelUrl: 'http://127.0.0.1/pricing',
      });
      expect(en.url).toMatch(/^\/checkout\/cs_[A-Za-z0-9]{24}$/);
      const ar = await engine.startCheckout({ plan: 'starter', locale: 'ar', successUrl: 'a', cancelUrl: 'b' });
      expect(ar.url).toMatch(/^\/ar\/checkout\/cs_[A-Za-z0-9]{24}$/);
      const id = en.url.split('/').pop()!;
      expect(await engine.getCheckout(id)).toEqual({
        id,
        plan: 'business',
        locale: 'en',
        amount: cents('business'),
        currency: 'sgd',
        status: 'open',
        email: null,
        customerId: null,
        successUrl: 'http://127.0.0.1/ok',
        cancelUrl: 'http://127.0.0.1/pricing',
        expiresAt: new Date(realNow + DAY).toISOString(),
      });

      const result = await engine.completeCheckout(id, input('New.Client@Example.com', '4242-4242-4242-4242'));
      expect(result.customer).toMatchObject({
        email: 'new.client@example.com',
        name: 'Test Client',
        company: 'Test Co',
        locale: 'en',
      });
      expect(result.customer.id).toMatch(/^cus_[A-Za-z0-9]{24}$/);
      expect(result.subscription).toMatchObject({
        customerId: result.customer.id,
        plan: 'business',
        status: 'active',
        amount: cents('business'),
        currentPeriodStart: '2026-03-10T09:00:00.000Z',
        currentPeriodEnd: '2026-04-10T09:00:00.000Z',
        cancelAtPeriodEnd: false,
        canceledAt: null,
        endedAt: null,
        scheduledChange: null,
        card: { brand: 'Visa', last4: '4242' },
      });
      expect(result.subscription.id).toMatch(/^sub_/);
      expect(result.invoice).toMatchObject({
        number: 'BWB-2026-0001',
        status: 'paid',
        amount: 150000,
        currency: 'sgd',
        plan: 'business',
        subscriptionId: result.subscription.id,
        periodStart: '2026-03-10T09:00:00.000Z',
        periodEnd: '2026-04-10T09:00:00.000Z',
        hostedUrl: null,
        pdfUrl: null,
      });
      expect(result.invoice.id).toMatch(/^in_/);
      expect((await engine.getCheckout(id))?.status).toBe('complete');
      expect(await engine.getSubscription(result.customer.id)).toEqual(result.subscription);
      expect(await engine.findCustomerByEmail('NEW.client@example.COM')).toEqual(result.customer);

      const events = await allEvents(engine);
      expect(events.map((e) => e.type)).toEqual([
        'customer.subscription.created',
        'invoice.paid',
        'checkout.session.completed',
      ]);
      for (const e of events) expect(e.id).toMatch(/^evt_[A-Za-z0-9]{24}$/);
      const completed = events[2] as Extract<BillingEvent, { type: 'checkout.session.completed' }>;
      expect(completed).toMatchObject({
        customer: result.customer,
        subscriptionId: result.subscription.id,
        invoiceId: result.invoice.id,
      });

      // Completing it again with the same email and card returns the same result and records nothing.
      const again = await engine.completeCheckout(id, input('new.client@example.com'));
      expect(again).toEqual(result);
      expect(await allEvents(engine)).toHaveLength(3);
      // Anyone else gets not_found (a completed checkout is no way into another's account).
      expect((await caught(engine.completeCheckout(id, input('someone@else.com')))).code).toBe('not_found');

      // Neither the card number nor the email is in any id; no card number is stored anywhere.
      let stored = '';
      for (const table of BILLING_TABLES)
        for (const row of await rows<{ j: unknown }>(
          sql`select row_to_json(t)::text as j from ${sql.identifier(table)} t`,
        ))
          stored += `${String(row.j)}\n`;
      expect(stored).toContain('new.client@example.com');
      expect(stored).not.toContain('4242424242424242');
      expect(stored).not.toContain('4242-4242');
      for (const table of BILLING_TABLES.filter((t) => !['billing_clock', 'billing_invoice_counters'].includes(t)))
        for (const row of await rows<{ id: string }>(sql`select id from ${sql.identifier(table)}`))
          expect(row.id).not.toMatch(/@|example/);
    });

    it('declined cards (0002, 9995, any real number) throw card_declined and store nothing', async () => {
      const { engine } = open();
      for (const number of ['4000 0000 0000 0002', '4000 0000 0000 9995', '4111 1111 1111 1111']) {
        const { url } = await engine.startCheckout({ plan: 'starter', locale: 'en', successUrl: 'a', cancelUrl: 'b' });
        const id = url.split('/').pop()!;
        const error = await caught(engine.completeCheckout(id, input('declined@example.com', number)));
        expect(error.code).toBe('card_declined');
        expect((await engine.getCheckout(id))?.status).toBe('open');
      }
      expect(await engine.findCustomerByEmail('declined@example.com')).toBeNull();
      for (const table of ['billing_customers', 'billing_subscriptions', 'billing_invoices', 'billing_events'] as const)
        expect(await count(table)).toBe(0);
    });

    it('invalid card input names the field: number, expiry, cvc (and email)', async () => {
      const { engine } = open();
      const { url } = await engine.startCheckout({ plan: 'starter', locale: 'en', successUrl: 'a', cancelUrl: 'b' });
      const id = url.split('/').pop()!;
      expect(await caught(engine.completeCheckout(id, input('a@example.com', '4242 4242 4242 4241')))).toMatchObject({
        code: 'invalid_request',
        field: 'number',
      });
      expect(
        await caught(engine.completeCheckout(id, input('a@example.com', undefined, { expMonth: 2, expYear: 2026 }))),
      ).toMatchObject({ code: 'invalid_request', field: 'expiry' });
      expect(await caught(engine.completeCheckout(id, input('a@example.com', undefined, { cvc: '1' })))).toMatchObject({
        code: 'invalid_request',
        field: 'cvc',
      });
      expect(await caught(engine.completeCheckout(id, input('not-an-email')))).toMatchObject({
        code: 'invalid_request',
        field: 'email',
      });
      // The expiry is judged by the billing clock: a card good through 2026-03 is refused once it is April.
      expect(
        (await engine.completeCheckout(id, input('a@example.com', undefined, { expMonth: 3, expYear: 2026 }))).customer
          .email,
      ).toBe('a@example.com');
      await engine.advanceClock(30 * DAY);
      const later = (await engine.startCheckout({ plan: 'starter', locale: 'en', successUrl: 'a', cancelUrl: 'b' })).url
        .split('/')
        .pop()!;
      expect(
        await caught(engine.completeCheckout(later, input('b@example.com', undefined, { expMonth: 3, expYear: 2026 }))),
      ).toMatchObject({ code: 'invalid_request', field: 'expiry' });
    });

    it('an expired checkout (after 24 h by the clock) is refused; an unknown one is not_found', async () => {
      const { engine } = open();
      const { url } = await engine.startCheckout({ plan: 'starter', locale: 'en', successUrl: 'a', cancelUrl: 'b' });
      const id = url.split('/').pop()!;
      await engine.advanceClock(DAY + MINUTE);
      expect((await engine.getCheckout(id))?.status).toBe('expired');
      expect((await caught(engine.completeCheckout(id, input('late@example.com')))).code).toBe('not_found');
      expect(await engine.findCustomerByEmail('late@example.com')).toBeNull();
      expect(await engine.getCheckout('cs_doesNotExist000000')).toBeNull();
      expect((await caught(engine.completeCheckout('cs_doesNotExist000000', input('x@example.com')))).code).toBe(
        'not_found',
      );
    });

    it('a customer with a current subscription cannot start a second one; after it ended they can, as the same customer', async () => {
      const { engine } = open();
      const first = await subscribe(engine, 'twice@example.com', 'starter');
      const start = async () =>
        (await engine.startCheckout({ plan: 'enterprise', locale: 'ar', successUrl: 'a', cancelUrl: 'b' })).url
          .split('/')
          .pop()!;
      const refused = await start();
      // Without proof that the payer is that customer, paying never attaches to them (nor replaces their card).
      expect(
        (await caught(engine.completeCheckout(refused, input('TWICE@example.com', '5555 5555 5555 4444')))).code,
      ).toBe('customer_exists');
      expect((await engine.getSubscription(first.customer.id))?.card).toMatchObject({ last4: '4242' });
      expect(
        (await caught(engine.completeCheckout(refused, { ...input('TWICE@example.com'), allowExistingCustomer: true })))
          .code,
      ).toBe('invalid_state');
      expect((await engine.getCheckout(refused))?.status).toBe('open');
      expect(await invoices(engine, first.customer.id)).toHaveLength(1);

      await engine.cancel(first.customer.id, first.subscription.id);
      await engine.advanceClock(31 * DAY);
      const id = await start();
      // The period has passed but no job ran yet: the checkout settles it first.
      const second = await engine.completeCheckout(id, {
        ...input('twice@example.com', '5555 5555 5555 4444'),
        allowExistingCustomer: true,
      });
      expect(second.customer.id).toBe(first.customer.id);
      expect(second.subscription).toMatchObject({
        plan: 'enterprise',
        status: 'active',
        card: { brand: 'Mastercard', last4: '4444' },
      });
      expect((await engine.getSubscription(first.customer.id))?.id).toBe(second.subscription.id);
      expect(second.invoice.number).toBe('BWB-2026-0002');
    });

    it('a checkout, a cancel and a renewal are one transaction each, of a few statements (measured)', async () => {
      const statements: string[] = [];
      const measured = await openTestDatabase(kind, { logQuery: (query) => statements.push(query) });
      try {
        const engine = engineOn(measured.db);
        const id = (await engine.startCheckout({ plan: 'starter', locale: 'en', successUrl: 'a', cancelUrl: 'b' })).url
          .split('/')
          .pop()!;
        // Statements the engine sends (PGlite opens and ends a transaction itself; node-postgres sends begin and commit).
        const measure = async (task: () => Promise<unknown>) => {
          statements.length = 0;
          await task();
          return statements.filter((q) => !/^(begin|commit|rollback)\b/i.test(q)).length;
        };
        const checkout = await measure(() => engine.completeCheckout(id, input('measured@example.com')));
        const { id: customerId } = (await engine.findCustomerByEmail('measured@example.com'))!;
        const { id: subscriptionId } = (await engine.getSubscription(customerId))!;
        await engine.advanceClock(31 * DAY);
        const renewal = await measure(() => engine.runDue());
        const cancel = await measure(() => engine.cancel(customerId, subscriptionId));
        console.info(`[${kind}] statements: checkout ${checkout}, renewal run ${renewal}, cancel ${cancel}`);
        // Lock the checkout, clock, customer by address, insert it, subscription, counter, invoice, checkout, events.
        expect(checkout).toBeLessThanOrEqual(9);
        // Due page, lock + clock + update + counter + invoice + events, then the lock that finds nothing due.
        expect(renewal).toBeLessThanOrEqual(11);
        // Lock, clock, update, event.
        expect(cancel).toBeLessThanOrEqual(4);
      } finally {
        await measured.close();
      }
    });

    it('concurrent checkouts with one new email make one customer and one subscription', async () => {
      const { engine } = open();
      const ids = await Promise.all(
        [0, 1, 2, 3, 4].map(async () =>
          (await engine.startCheckout({ plan: 'starter', locale: 'en', successUrl: 'a', cancelUrl: 'b' })).url
            .split('/')
            .pop()!,
        ),
      );
      const results = await Promise.allSettled(ids.map((id) => engine.completeCheckout(id, input('race@example.com'))));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      // The others find the customer the winner created, and attach to no one.
      for (const r of results)
        if (r.status === 'rejected') expect((r.reason as BillingError).code).toBe('customer_exists');
      expect(await count('billing_customers')).toBe(1);
      expect(await count('billing_subscriptions')).toBe(1);
      expect(await invoiceNumbers()).toEqual(['BWB-2026-0001']);
    });
  });

  describe('renewals over a moving clock', () => {
    it('renews after a month: a new paid invoice numbered +1, the period moved, its events', async () => {
      const { engine } = open();
      const { customer, subscription } = await subscribe(engine, 'renew@example.com');
      await deliverAll(engine);
      expect(await engine.runDue()).toEqual({ renewed: 0, changed: 0, ended: 0, failed: 0 });
      await engine.advanceClock(31 * DAY);
      expect(await engine.runDue()).toEqual({ renewed: 1, changed: 0, ended: 0, failed: 0 });
      const sub = await engine.getSubscription(customer.id);
      expect(sub).toMatchObject({
        id: subscription.id,
        status: 'active',
        currentPeriodStart: '2026-04-10T09:00:00.000Z',
        currentPeriodEnd: '2026-05-10T09:00:00.000Z',
      });
      const list = await invoices(engine, customer.id);
      expect(list.map((i) => i.number)).toEqual(['BWB-2026-0002', 'BWB-2026-0001']);
      expect(list[0]).toMatchObject({
        status: 'paid',
        amount: cents('business'),
        periodStart: '2026-04-10T09:00:00.000Z',
        periodEnd: '2026-05-10T09:00:00.000Z',
        created: '2026-04-10T09:00:00.000Z',
      });
      const events = await allEvents(engine);
      expect(events.map((e) => e.type)).toEqual(['invoice.paid', 'customer.subscription.updated']);
      expect((events[1] as Extract<BillingEvent, { type: 'customer.subscription.updated' }>).previous).toEqual({
        currentPeriodEnd: '2026-04-10T09:00:00.000Z',
      });
    });

    it('catches up one period at a time when the clock moved three months (three invoices)', async () => {
      const { engine } = open();
      const { customer } = await subscribe(engine, 'catchup@example.com', 'starter');
      await engine.advanceClock(3 * 31 * DAY);
      expect(await engine.runDue()).toEqual({ renewed: 3, changed: 0, ended: 0, failed: 0 });
      const list = await invoices(engine, customer.id);
      expect(list.map((i) => [i.number, i.periodStart, i.periodEnd])).toEqual([
        ['BWB-2026-0004', '2026-06-10T09:00:00.000Z', '2026-07-10T09:00:00.000Z'],
        ['BWB-2026-0003', '2026-05-10T09:00:00.000Z', '2026-06-10T09:00:00.000Z'],
        ['BWB-2026-0002', '2026-04-10T09:00:00.000Z', '2026-05-10T09:00:00.000Z'],
        ['BWB-2026-0001', '2026-03-10T09:00:00.000Z', '2026-04-10T09:00:00.000Z'],
      ]);
      expect((await engine.getSubscription(customer.id))?.currentPeriodEnd).toBe('2026-07-10T09:00:00.000Z');
    });

    it('a subscription started on Jan 31 renews on Feb 28, then on Mar 31 (UTC)', async () => {
      realNow = Date.UTC(2026, 0, 31, 15, 0, 0);
      const { engine } = open();
      const { customer, subscription } = await subscribe(engine, 'monthend@example.com', 'starter');
      expect(subscription.currentPeriodEnd).toBe('2026-02-28T15:00:00.000Z');
      await engine.advanceClock(29 * DAY);
      await engine.runDue();
      expect((await engine.getSubscription(customer.id))?.currentPeriodEnd).toBe('2026-03-31T15:00:00.000Z');
      await engine.advanceClock(31 * DAY);
      await engine.runDue();
      expect((await engine.getSubscription(customer.id))?.currentPeriodEnd).toBe('2026-04-30T15:00:00.000Z');
    });

    it('numbers invoices per year: the first of a new year is 0001 again', async () => {
      realNow = Date.UTC(2026, 11, 20, 9, 0, 0);
      const { engine } = open();
      const { customer, invoice } = await subscribe(engine, 'newyear@example.com', 'starter');
      expect(invoice.number).toBe('BWB-2026-0001');
      await engine.advanceClock(31 * DAY);
      await engine.runDue();
      expect((await invoices(engine, customer.id))[0].number).toBe('BWB-2027-0001');
    });

    it('a plan change takes effect exactly at the next billing date, at the new price', async () => {
      const { engine } = open();
      const { customer, subscription } = await subscribe(engine, 'change@example.com', 'business');
      await deliverAll(engine);
      const scheduled = await engine.changePlan(customer.id, subscription.id, 'enterprise');
      expect(scheduled).toMatchObject({
        plan: 'business',
        scheduledChange: { plan: 'enterprise', effectiveAt: '2026-04-10T09:00:00.000Z' },
      });
      const [event] = await allEvents(engine);
      expect(event).toMatchObject({ type: 'customer.subscription.updated', previous: { scheduledChange: null } });
      await deliverAll(engine);

      // One minute before the billing date: still the old plan.
      const end = Date.parse('2026-04-10T09:00:00.000Z');
      await engine.advanceClock(end - MINUTE - realNow);
      expect(await engine.runDue()).toEqual({ renewed: 0, changed: 0, ended: 0, failed: 0 });
      expect((await engine.getSubscription(customer.id))?.plan).toBe('business');

      await engine.advanceClock(2 * MINUTE);
      expect(await engine.runDue()).toEqual({ renewed: 1, changed: 1, ended: 0, failed: 0 });
      const sub = await engine.getSubscription(customer.id);
      expect(sub).toMatchObject({
        plan: 'enterprise',
        amount: cents('enterprise'),
        scheduledChange: null,
        currentPeriodStart: '2026-04-10T09:00:00.000Z',
      });
      const [latest] = await invoices(engine, customer.id);
      expect(latest).toMatchObject({ number: 'BWB-2026-0002', plan: 'enterprise', amount: cents('enterprise') });
      const updated = (await allEvents(engine)).find((e) => e.type === 'customer.subscription.updated') as Extract<
        BillingEvent,
        { type: 'customer.subscription.updated' }
      >;
      expect(updated.previous).toMatchObject({ plan: 'business', scheduledChange: { plan: 'enterprise' } });
    });

    it('withdrawing a change, choosing the current plan, and asking twice for the same target', async () => {
      const { engine } = open();
      const { customer, subscription } = await subscribe(engine, 'withdraw@example.com', 'business');
      await deliverAll(engine);
      await engine.changePlan(customer.id, subscription.id, 'starter');
      await engine.changePlan(customer.id, subscription.id, 'starter');
      expect(await allEvents(engine)).toHaveLength(1);
      expect((await engine.withdrawChange(customer.id, subscription.id)).scheduledChange).toBeNull();
      expect((await engine.withdrawChange(customer.id, subscription.id)).scheduledChange).toBeNull();
      expect(await allEvents(engine)).toHaveLength(2);
      await engine.changePlan(customer.id, subscription.id, 'enterprise');
      expect((await engine.changePlan(customer.id, subscription.id, 'business')).scheduledChange).toBeNull();
      const events = (await allEvents(engine)) as Extract<BillingEvent, { type: 'customer.subscription.updated' }>[];
      expect(events.map((e) => e.previous.scheduledChange?.plan ?? null)).toEqual([
        null,
        'starter',
        null,
        'enterprise',
      ]);
      // The withdrawn change does not apply at renewal.
      await engine.advanceClock(31 * DAY);
      await engine.runDue();
      expect((await engine.getSubscription(customer.id))?.plan).toBe('business');
    });

    it('cancel at period end (releasing a scheduled change) and resume; no plan change while cancelling', async () => {
      const { engine } = open();
      const { customer, subscription } = await subscribe(engine, 'cancel@example.com', 'business');
      await engine.changePlan(customer.id, subscription.id, 'starter');
      await deliverAll(engine);
      realNow += HOUR;
      const cancelled = await engine.cancel(customer.id, subscription.id);
      expect(cancelled).toMatchObject({
        status: 'active',
        cancelAtPeriodEnd: true,
        canceledAt: new Date(realNow).toISOString(),
        scheduledChange: null,
        currentPeriodEnd: '2026-04-10T09:00:00.000Z',
      });
      expect((await caught(engine.changePlan(customer.id, subscription.id, 'enterprise'))).code).toBe('invalid_state');
      expect(await engine.cancel(customer.id, subscription.id)).toEqual(cancelled);
      const resumed = await engine.resume(customer.id, subscription.id);
      expect(resumed).toMatchObject({ cancelAtPeriodEnd: false, canceledAt: null, status: 'active' });
      expect(await engine.resume(customer.id, subscription.id)).toEqual(resumed);
      const events = (await allEvents(engine)) as Extract<BillingEvent, { type: 'customer.subscription.updated' }>[];
      expect(events.map((e) => e.previous)).toEqual([
        {
          cancelAtPeriodEnd: false,
          scheduledChange: {
            plan: 'starter',
            effectiveAt: '2026-04-10T09:00:00.000Z',
            requestRef: '2026-03-10T09:00:00.000Z',
          },
        },
        { cancelAtPeriodEnd: true },
      ]);
    });

    it('cancelled, then the period ends: canceled, no renewal invoice, resume refused', async () => {
      const { engine } = open();
      const { customer, subscription } = await subscribe(engine, 'ends@example.com', 'starter');
      await engine.cancel(customer.id, subscription.id);
      await deliverAll(engine);
      await engine.advanceClock(31 * DAY);
      expect(await engine.runDue()).toEqual({ renewed: 0, changed: 0, ended: 1, failed: 0 });
      expect(await engine.getSubscription(customer.id)).toBeNull();
      expect(await invoices(engine, customer.id)).toHaveLength(1);
      const events = await allEvents(engine);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        type: 'customer.subscription.deleted',
        subscription: {
          id: subscription.id,
          status: 'canceled',
          endedAt: '2026-04-10T09:00:00.000Z',
          cancelAtPeriodEnd: true,
        },
      });
      expect((await caught(engine.resume(customer.id, subscription.id))).code).toBe('invalid_state');
      expect((await caught(engine.cancel(customer.id, subscription.id))).code).toBe('invalid_state');
      expect((await caught(engine.changePlan(customer.id, subscription.id, 'business'))).code).toBe('invalid_state');
      await engine.advanceClock(62 * DAY);
      expect(await engine.runDue()).toEqual({ renewed: 0, changed: 0, ended: 0, failed: 0 });
      expect(await invoices(engine, customer.id)).toHaveLength(1);
    });

    it('resume after the period end (before the job ran) is refused: the subscription has ended', async () => {
      const { engine } = open();
      const { customer, subscription } = await subscribe(engine, 'late-resume@example.com', 'starter');
      await engine.cancel(customer.id, subscription.id);
      await engine.advanceClock(31 * DAY);
      expect((await caught(engine.resume(customer.id, subscription.id))).code).toBe('invalid_state');
      expect(await engine.getSubscription(customer.id)).toBeNull();
    });

    it('the 0341 card: checkout succeeds, the renewal fails: open invoice, past_due, invoice.payment_failed', async () => {
      const { engine } = open();
      const { customer, subscription, invoice } = await subscribe(
        engine,
        'fails@example.com',
        'starter',
        '4000 0000 0000 0341',
      );
      expect(invoice.status).toBe('paid');
      expect(subscription.status).toBe('active');
      await deliverAll(engine);
      await engine.advanceClock(31 * DAY);
      expect(await engine.runDue()).toEqual({ renewed: 0, changed: 0, ended: 0, failed: 1 });
      expect(await engine.getSubscription(customer.id)).toMatchObject({
        status: 'past_due',
        currentPeriodEnd: '2026-05-10T09:00:00.000Z',
      });
      const [latest] = await invoices(engine, customer.id);
      expect(latest).toMatchObject({ number: 'BWB-2026-0002', status: 'open' });
      const events = await allEvents(engine);
      expect(events.map((e) => e.type)).toEqual(['invoice.payment_failed', 'customer.subscription.updated']);
      expect(events[0]).toMatchObject({ invoice: { id: latest.id, status: 'open' } });
      expect((events[1] as Extract<BillingEvent, { type: 'customer.subscription.updated' }>).previous).toMatchObject({
        status: 'active',
      });
      // A past_due subscription is not in the reminder list (it is not active).
      expect(await engine.listRenewing(new Date(Date.UTC(2027, 0, 1)))).toEqual([]);
    });
  });

  describe('idempotency and concurrency', () => {
    it('runDue twice does nothing twice; concurrent runs give one invoice per period', async () => {
      const { engine } = open();
      const a = await subscribe(engine, 'a@example.com', 'starter');
      const b = await subscribe(engine, 'b@example.com', 'business');
      await engine.advanceClock(2 * 31 * DAY);
      // Three runs of this engine and one of another engine (another server process) on the same database, at once.
      const other = engineOn(await secondProcess());
      const reports = await Promise.all([engine.runDue(), engine.runDue(), engine.runDue(), other.runDue()]);
      expect(reports.reduce((n, r) => n + r.renewed, 0)).toBe(4);
      expect(await engine.runDue()).toEqual({ renewed: 0, changed: 0, ended: 0, failed: 0 });
      expect(await invoices(engine, a.customer.id)).toHaveLength(3);
      expect(await invoices(engine, b.customer.id)).toHaveLength(3);
      const numbers = await invoiceNumbers();
      expect(numbers).toEqual([
        'BWB-2026-0001',
        'BWB-2026-0002',
        'BWB-2026-0003',
        'BWB-2026-0004',
        'BWB-2026-0005',
        'BWB-2026-0006',
      ]);
      expect(await counter(2026)).toBe(6);
      const paid = (await allEvents(engine)).filter((e) => e.type === 'invoice.paid');
      expect(paid).toHaveLength(6);
    });

    it('10 concurrent cancels: one transition, one event, the same final state', async () => {
      const { engine } = open();
      const { customer, subscription } = await subscribe(engine, 'tencancels@example.com');
      await deliverAll(engine);
      const results = await Promise.all(Array.from({ length: 10 }, () => engine.cancel(customer.id, subscription.id)));
      for (const r of results) expect(r).toEqual(results[0]);
      expect(results[0].cancelAtPeriodEnd).toBe(true);
      const events = await allEvents(engine);
      expect(events.map((e) => e.type)).toEqual(['customer.subscription.updated']);
    });

    it('concurrent cancels from two engines on the same database still give one event', async () => {
      const first = open();
      const { customer, subscription } = await subscribe(first.engine, 'two-engines@example.com');
      await deliverAll(first.engine);
      // A second engine on the same database (another server process: on PostgreSQL, its own pool).
      const second = engineOn(await secondProcess());
      await Promise.all([
        first.engine.cancel(customer.id, subscription.id),
        second.cancel(customer.id, subscription.id),
        second.cancel(customer.id, subscription.id),
      ]);
      expect(await allEvents(first.engine)).toHaveLength(1);
    });

    it('a crash mid-transaction (its last write refused) leaves the state before it, consistent', async () => {
      const statements: string[] = [];
      const dataDir = path.join(dir, 'data');
      // PGlite in a folder, so that a restart reopens it; PostgreSQL: a restart is a new pool on the database.
      const owner = await openTestDatabase(kind, {
        ...(kind === 'pglite' ? { dataDir } : {}),
        logQuery: (query) => statements.push(query),
      });
      const pools: Database[] = [];
      let current = owner;
      const restart = async () => {
        if (kind === 'pglite') {
          await current.close();
          current = await openTestDatabase('pglite', { dataDir });
        } else {
          current = await reopen(owner, false);
          pools.push(current);
        }
        return open(current.db);
      };
      try {
        const { engine } = open(owner.db);
        const { customer } = await subscribe(engine, 'crash@example.com', 'starter');
        await engine.advanceClock(31 * DAY);
        // The renewal's last write fails, as a crash before its commit would end it.
        await owner.db.execute(
          sql.raw(
            `create function billing_test_crash() returns trigger language plpgsql as $$ begin raise exception 'crash before commit'; end $$`,
          ),
        );
        await owner.db.execute(
          sql.raw(
            `create trigger billing_test_crash before insert on billing_events for each statement execute function billing_test_crash()`,
          ),
        );
        statements.length = 0;
        const crash = await engine.runDue().then(
          () => null,
          (error: unknown) => error,
        );
        expect(messages(crash)).toContain('crash before commit');
        // The renewal is one transaction: the subscription, the year's counter, the invoice and its two events.
        const writes = statements.flatMap((q) => /^(?:insert into|update) "(\w+)"/i.exec(q)?.[1] ?? []);
        expect([...writes].sort()).toEqual([
          'billing_events',
          'billing_invoice_counters',
          'billing_invoices',
          'billing_subscriptions',
        ]);
        expect(statements.find((q) => q.startsWith('insert into "billing_events"'))?.match(/\), \(/g)).toHaveLength(1);
        await owner.db.execute(sql.raw(`drop trigger billing_test_crash on billing_events`));

        const restarted = await restart();
        // The state before the renewal: no invoice without its counter or subscription update.
        expect((await invoices(restarted.engine, customer.id)).map((i) => i.number)).toEqual(['BWB-2026-0001']);
        expect(await counter(2026, restarted.db)).toBe(1);
        expect((await restarted.engine.getSubscription(customer.id))?.currentPeriodEnd).toBe(
          '2026-04-10T09:00:00.000Z',
        );
        expect((await restarted.engine.undeliveredEvents(100)).filter((e) => e.type === 'invoice.paid')).toHaveLength(
          1,
        );
        // The job runs again after the restart: the renewal happens once, with the next number.
        expect(await restarted.engine.runDue()).toMatchObject({ renewed: 1 });
        expect((await invoices(restarted.engine, customer.id)).map((i) => i.number)).toEqual([
          'BWB-2026-0002',
          'BWB-2026-0001',
        ]);
        // And it survives another restart.
        const again = await restart();
        expect((await invoices(again.engine, customer.id)).map((i) => i.number)).toEqual([
          'BWB-2026-0002',
          'BWB-2026-0001',
        ]);
      } finally {
        for (const pool of pools) await pool.close();
        await (kind === 'pglite' ? current : owner).close();
      }
    });

    it('two concurrent checkouts for new customers in two server processes get distinct invoice numbers', async () => {
      const first = open().engine;
      const second = engineOn(await secondProcess());
      const engines = [first, second, first, second, first, second];
      const ids = await Promise.all(
        engines.map(async (engine) =>
          (await engine.startCheckout({ plan: 'starter', locale: 'en', successUrl: 'a', cancelUrl: 'b' })).url
            .split('/')
            .pop()!,
        ),
      );
      const results = await Promise.all(
        engines.map((engine, i) => engine.completeCheckout(ids[i], input(`new${i}@example.com`))),
      );
      const expected = [
        'BWB-2026-0001',
        'BWB-2026-0002',
        'BWB-2026-0003',
        'BWB-2026-0004',
        'BWB-2026-0005',
        'BWB-2026-0006',
      ];
      expect(results.map((r) => r.invoice.number).sort()).toEqual(expected);
      expect(await invoiceNumbers()).toEqual(expected);
      expect(await counter(2026)).toBe(6);
      expect(await count('billing_customers')).toBe(6);
    });

    it('two engines (two server processes) running runDue and the event dispatch at once: each renewal invoiced once, each event delivered once', async () => {
      const first = open().engine;
      const second = engineOn(await secondProcess());
      const subscriptions = [];
      for (let i = 0; i < 6; i++)
        subscriptions.push(await subscribe(i % 2 ? first : second, `both${i}@example.com`, 'starter'));
      await first.advanceClock(2 * 31 * DAY);

      const delivered: string[] = [];
      const handle = async (event: BillingEvent) => {
        delivered.push(event.id);
        await new Promise((resolve) => setTimeout(resolve, 1));
      };
      let renewing = true;
      const dispatch = async (engine: EmbeddedBilling) => {
        for (;;) {
          const got = await engine.deliverEvents(handle, 4);
          if (got) continue;
          if (!renewing && !(await engine.undeliveredEvents(1)).length) return;
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      };
      const runs = Promise.all([first.runDue(), second.runDue(), first.runDue(), second.runDue()]).finally(() => {
        renewing = false;
      });
      const [reports] = await Promise.all([runs, dispatch(first), dispatch(second)]);

      // Two periods for each of six subscriptions: twelve renewals, each invoiced once, numbers in one sequence.
      expect(reports.reduce((n, r) => n + r.renewed, 0)).toBe(12);
      for (const { customer } of subscriptions) expect(await invoices(first, customer.id)).toHaveLength(3);
      expect(await invoiceNumbers()).toEqual(
        Array.from({ length: 18 }, (_, i) => `BWB-2026-${String(i + 1).padStart(4, '0')}`),
      );
      expect(
        await rows(sql`select subscription_id, period_start from billing_invoices group by 1, 2 having count(*) > 1`),
      ).toEqual([]);
      // Every event delivered once: three per checkout, two per renewal.
      const recorded = (await rows<{ id: string }>(sql`select id from billing_events order by seq`)).map((r) => r.id);
      expect(recorded).toHaveLength(6 * 3 + 12 * 2);
      expect(new Set(delivered).size).toBe(delivered.length);
      expect([...delivered].sort()).toEqual([...recorded].sort());
      expect(await first.undeliveredEvents(10)).toEqual([]);
    });
  });

  describe('one customer cannot reach another', () => {
    it("another customer's subscription and invoice ids are not found", async () => {
      const { engine } = open();
      const a = await subscribe(engine, 'owner@example.com');
      const b = await subscribe(engine, 'other@example.com');
      // Called one at a time (each awaited before the next starts: a rejection is never left unhandled).
      for (const call of [
        () => engine.changePlan(b.customer.id, a.subscription.id, 'starter'),
        () => engine.withdrawChange(b.customer.id, a.subscription.id),
        () => engine.cancel(b.customer.id, a.subscription.id),
        () => engine.resume(b.customer.id, a.subscription.id),
        () => engine.cancel(b.customer.id, 'sub_doesNotExist0000000'),
        () => engine.cancel('not-a-customer', a.subscription.id),
      ]) {
        expect((await caught(call())).code).toBe('not_found');
      }
      expect(await engine.getInvoice(b.customer.id, a.invoice.id)).toBeNull();
      expect(await engine.getInvoice(a.customer.id, a.invoice.id)).toEqual(a.invoice);
      expect(await engine.getInvoice(a.customer.id, '../billing.invoice.x')).toBeNull();
      expect(await engine.listInvoices(b.customer.id, { limit: 10, startingAfter: a.invoice.id })).toEqual({
        invoices: [],
        hasMore: false,
      });
      expect((await engine.getSubscription(a.customer.id))?.cancelAtPeriodEnd).toBe(false);
    });
  });

  describe('reads', () => {
    it('lists invoices newest first, a page at a time', async () => {
      const { engine } = open();
      const { customer } = await subscribe(engine, 'pages@example.com', 'starter');
      await engine.advanceClock(4 * 31 * DAY);
      await engine.runDue();
      const first = await engine.listInvoices(customer.id, { limit: 2 });
      expect(first.invoices.map((i) => i.number)).toEqual(['BWB-2026-0005', 'BWB-2026-0004']);
      expect(first.hasMore).toBe(true);
      const second = await engine.listInvoices(customer.id, { limit: 2, startingAfter: first.invoices[1].id });
      expect(second.invoices.map((i) => i.number)).toEqual(['BWB-2026-0003', 'BWB-2026-0002']);
      const third = await engine.listInvoices(customer.id, { limit: 2, startingAfter: second.invoices[1].id });
      expect(third).toMatchObject({ hasMore: false });
      expect(third.invoices.map((i) => i.number)).toEqual(['BWB-2026-0001']);
    });

    it('listRenewing: active, not cancelling, renewing before the date', async () => {
      const { engine } = open();
      const a = await subscribe(engine, 'r1@example.com', 'starter');
      const b = await subscribe(engine, 'r2@example.com', 'starter');
      await engine.cancel(b.customer.id, b.subscription.id);
      expect((await engine.listRenewing(new Date('2026-04-11T00:00:00.000Z'))).map((s) => s.id)).toEqual([
        a.subscription.id,
      ]);
      expect(await engine.listRenewing(new Date('2026-04-10T09:00:00.000Z'))).toEqual([]);
    });

    it('the failure switch makes listInvoices unavailable until it is cleared', async () => {
      const { engine } = open();
      const { customer } = await subscribe(engine, 'switch@example.com', 'starter');
      engine.setFailure('listInvoices');
      expect((await caught(engine.listInvoices(customer.id, { limit: 10 }))).code).toBe('unavailable');
      engine.setFailure(null);
      expect(await invoices(engine, customer.id)).toHaveLength(1);
    });
  });

  describe('event outbox', () => {
    it('gives undelivered events oldest first, up to the limit; marking is idempotent', async () => {
      const { engine } = open();
      const { customer, subscription } = await subscribe(engine, 'outbox@example.com', 'starter');
      // In the same millisecond as the checkout: its event still comes after the checkout's three.
      await engine.cancel(customer.id, subscription.id);
      const all = await engine.undeliveredEvents(10);
      expect(all.map((e) => e.type)).toEqual([
        'customer.subscription.created',
        'invoice.paid',
        'checkout.session.completed',
        'customer.subscription.updated',
      ]);
      expect((await engine.undeliveredEvents(2)).map((e) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
      await engine.markDelivered(all[0].id);
      await engine.markDelivered(all[0].id);
      await engine.markDelivered('evt_unknown000000000000');
      expect((await engine.undeliveredEvents(10)).map((e) => e.id)).toEqual(all.slice(1).map((e) => e.id));
      // Marks survive a restart.
      expect((await open().engine.undeliveredEvents(10)).map((e) => e.id)).toEqual(all.slice(1).map((e) => e.id));
    });

    it("deliverEvents: a claim is one dispatcher's until its lease passes; a failed handler releases it", async () => {
      const lease = 60_000;
      const first = engineOn(database.db, { eventLeaseMs: lease });
      const second = engineOn(await secondProcess(), { eventLeaseMs: lease });
      const { customer, subscription } = await subscribe(first, 'lease@example.com', 'starter');
      const ids = (await first.undeliveredEvents(10)).map((e) => e.id);
      expect(ids).toHaveLength(3);

      // The first dispatcher claims all three and stalls in its handler on the first (a process that hangs or died).
      let resume!: () => void;
      const stalled = new Promise<void>((resolve) => (resume = resolve));
      const firstSaw: string[] = [];
      const firstRun = first.deliverEvents(async (event) => {
        firstSaw.push(event.id);
        if (firstSaw.length === 1) await stalled;
      }, 10);
      while (!firstSaw.length) await new Promise((resolve) => setTimeout(resolve, 1));
      const secondSaw: string[] = [];
      const record = async (event: BillingEvent) => void secondSaw.push(event.id);
      // Claimed: the other dispatcher gets none of them while the lease runs.
      expect(await second.deliverEvents(record, 10)).toBe(0);
      // After the lease, the other dispatcher takes them over and delivers them in order.
      realNow += lease + 1;
      expect(await second.deliverEvents(record, 10)).toBe(3);
      expect(secondSaw).toEqual(ids);
      // The stalled one wakes up: it delivered only the event it was in (at least once), and marks nothing.
      resume();
      expect(await firstRun).toBe(0);
      expect(firstSaw).toEqual([ids[0]]);
      expect(await first.undeliveredEvents(10)).toEqual([]);

      // A handler that fails releases its claims at once: the next dispatch delivers them.
      await first.cancel(customer.id, subscription.id);
      const failing = first.deliverEvents(async () => {
        throw new Error('handler down');
      }, 10);
      await expect(failing).rejects.toThrow('handler down');
      secondSaw.length = 0;
      expect(await second.deliverEvents(record, 10)).toBe(1);
      expect(secondSaw).toHaveLength(1);
    });
  });

  describe('demo data', () => {
    it('seeds the two demo clients once (twice, and concurrently, gives one set), with no events', async () => {
      const { engine } = open();
      await engine.seedDemo();
      await Promise.all([engine.seedDemo(), engineOn(await secondProcess()).seedDemo()]);
      // After a restart too.
      await open().engine.seedDemo();
      expect(await count('billing_customers')).toBe(2);
      expect(await engine.undeliveredEvents(10)).toEqual([]);

      const layla = (await engine.findCustomerByEmail(DEMO_CLIENT_EMAIL))!;
      expect(layla).toMatchObject({ name: 'Layla Haddad', company: 'Haddad Trading LLC', locale: 'en' });
      const sub = (await engine.getSubscription(layla.id))!;
      expect(sub).toMatchObject({
        plan: 'business',
        status: 'active',
        cancelAtPeriodEnd: false,
        amount: cents('business'),
        card: { brand: 'Visa', last4: '4242' },
      });
      const untilRenewal = Date.parse(sub.currentPeriodEnd) - realNow;
      expect(untilRenewal).toBeGreaterThan(17 * DAY);
      expect(untilRenewal).toBeLessThan(23 * DAY);
      const laylaInvoices = await invoices(engine, layla.id);
      expect(laylaInvoices.length).toBeGreaterThanOrEqual(3);
      expect(laylaInvoices.every((i) => i.status === 'paid' && i.amount === cents('business'))).toBe(true);
      // The periods follow each other up to the current one.
      const chronological = [...laylaInvoices].reverse();
      for (let i = 1; i < chronological.length; i++)
        expect(chronological[i].periodStart).toBe(chronological[i - 1].periodEnd);
      expect(chronological[chronological.length - 1].periodEnd).toBe(sub.currentPeriodEnd);

      const omar = (await engine.findCustomerByEmail(DEMO_FORMER_EMAIL))!;
      expect(omar).toMatchObject({ name: 'Omar Saleh', company: 'Saleh Logistics', locale: 'ar' });
      expect(await engine.getSubscription(omar.id)).toBeNull();
      const omarInvoices = await invoices(engine, omar.id);
      expect(omarInvoices).toHaveLength(1);
      expect(omarInvoices[0]).toMatchObject({ plan: 'starter', status: 'paid' });
      const ended = Date.parse(omarInvoices[0].periodEnd);
      expect(realNow - ended).toBeGreaterThan(27 * DAY);
      expect(realNow - ended).toBeLessThan(32 * DAY);

      // One numbering sequence across both, in issue order, counters matching.
      const all = await rows<{ number: string }>(
        sql`select number from billing_invoices order by created_at, sequence`,
      );
      const byYear = new Map<string, number>();
      for (const inv of all) {
        const year = inv.number.slice(4, 8);
        byYear.set(year, (byYear.get(year) ?? 0) + 1);
        expect(inv.number).toBe(`BWB-${year}-${String(byYear.get(year)).padStart(4, '0')}`);
      }
      for (const [year, count] of byYear) expect(await counter(Number(year))).toBe(count);

      // The demo client's renewal continues the sequence.
      await engine.advanceClock(Date.parse(sub.currentPeriodEnd) - realNow);
      expect(await engine.runDue()).toMatchObject({ renewed: 1 });
      expect((await invoices(engine, layla.id))[0].number).toBe(
        `BWB-2026-${String((byYear.get('2026') ?? 0) + 1).padStart(4, '0')}`,
      );
    });
  });
});
