import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddedBilling } from '~/billing/engine/engine.server';
import type { BillingPlan, Customer, InvoiceView, SubscriptionView } from '~/billing/types';
import { EmbeddedContentClient } from '~/sanity/embedded.server';
import { openDatabase } from './client.server';
import { BILLING_IMPORT, importBillingLog } from './import-billing.server';
import { openTestDatabase, testDatabaseKinds } from './test-support';
import type { Db } from './types.server';

/**
 * The embedded billing engine's state from a data folder the previous version (e014f8a, the
 * billing engine on the content store) wrote: fixtures/billing-data was made by starting that
 * version on an empty folder and driving it over HTTP (see its README.md): the two demo clients
 * it seeds; Amira (English) subscribed with 4242…, signed in again after a month's renewal and
 * scheduled a plan change; Karim subscribed with 0341…, whose renewal failed (an open invoice,
 * past due); Sara (Arabic) subscribed and cancelled. Its clock was moved 32 days forward.
 * What the old version showed each client is computed here from the log itself, the way it
 * computed it (documents.ts of that version), and the engine must show the same after import.
 */
const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'billing-data');
const PLANS: BillingPlan[] = [
  { key: 'starter', priceSgd: 950 },
  { key: 'business', priceSgd: 1900 },
  { key: 'enterprise', priceSgd: 3800 },
];
const TABLES = [
  'billing_clock',
  'billing_customers',
  'billing_subscriptions',
  'billing_invoices',
  'billing_invoice_counters',
  'billing_checkouts',
  'billing_events',
] as const;
/** The real time the engine sees in these tests (its clock adds the imported offset). */
const REAL_NOW = Date.parse('2026-11-26T09:00:00.000Z');

type Doc = Record<string, unknown> & { _id: string; _type: string };

/** The log's final documents, read line by line as the old store did. */
function finalDocs(file: string): Map<string, Doc> {
  const docs = new Map<string, Doc>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as { docs: Doc[]; deleted: string[] };
    for (const id of entry.deleted) docs.delete(id);
    for (const doc of entry.docs) docs.set(doc._id, doc);
  }
  return docs;
}

/** What the previous version showed: its documents.ts views, field for field. */
const oldCustomerView = (d: Doc): Customer => ({
  id: d.customerId as string,
  email: d.email as string,
  name: d.name as string,
  company: d.company as string | null,
  locale: d.locale as 'en' | 'ar',
});
const oldSubscriptionView = (d: Doc): SubscriptionView => {
  const change = d.scheduledChange as SubscriptionView['scheduledChange'];
  const card = d.card as { brand: string; last4: string } | null;
  return {
    id: d.subscriptionId as string,
    customerId: d.customerId as string,
    plan: d.plan as SubscriptionView['plan'],
    status: d.status as SubscriptionView['status'],
    amount: d.amount as number,
    currency: 'sgd',
    currentPeriodStart: d.currentPeriodStart as string,
    currentPeriodEnd: d.currentPeriodEnd as string,
    cancelAtPeriodEnd: d.cancelAtPeriodEnd as boolean,
    canceledAt: d.canceledAt as string | null,
    endedAt: d.endedAt as string | null,
    scheduledChange: change
      ? {
          plan: change.plan,
          effectiveAt: change.effectiveAt,
          ...(change.requestRef ? { requestRef: change.requestRef } : {}),
        }
      : null,
    card: card ? { brand: card.brand, last4: card.last4 } : null,
  };
};
const oldInvoiceView = (d: Doc): InvoiceView => ({
  id: d.invoiceId as string,
  number: d.number as string,
  customerId: d.customerId as string,
  subscriptionId: d.subscriptionId as string,
  status: d.status as 'paid' | 'open',
  plan: d.plan as InvoiceView['plan'],
  amount: d.amount as number,
  currency: 'sgd',
  created: d.created as string,
  periodStart: d.periodStart as string,
  periodEnd: d.periodEnd as string,
  hostedUrl: null,
  pdfUrl: null,
});

async function dump(db: Db): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of TABLES)
    out[table] = (await db.execute(sql.raw(`select * from ${table} order by 1`))).rows as unknown[];
  return out;
}

const engineOn = (db: Db) => new EmbeddedBilling(db, { plans: async () => PLANS, now: () => REAL_NOW });

async function subscribeNew(engine: EmbeddedBilling, email: string) {
  const { url } = await engine.startCheckout({
    plan: 'starter',
    locale: 'en',
    successUrl: 'http://127.0.0.1/ok',
    cancelUrl: 'http://127.0.0.1/pricing',
  });
  return engine.completeCheckout(url.split('/').pop()!, {
    email,
    name: 'New Client',
    company: null,
    cardNumber: '4242 4242 4242 4242',
    expMonth: 12,
    expYear: 2034,
    cvc: '123',
  });
}

let dir: string;
let dataDir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'import-billing-'));
  dataDir = path.join(dir, 'data');
  cpSync(FIXTURE, dataDir, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const docs = finalDocs(path.join(FIXTURE, 'content-writes.ndjson'));
const ofType = (type: string) => [...docs.values()].filter((d) => d._type === `billing.${type}`);

describe.each(testDatabaseKinds())('the billing records of the previous version (%s)', (kind) => {
  it('are imported: the engine shows every customer, subscription, schedule and invoice as the old version did', async () => {
    const database = await openTestDatabase(kind);
    try {
      const counts = await importBillingLog(database.db, dataDir);
      expect(counts).toMatchObject({
        customers: ofType('customer').length,
        subscriptions: ofType('subscription').length,
        invoices: ofType('invoice').length,
        checkouts: ofType('checkout').length,
        events: ofType('event').length,
        renumbered: 0,
        merged: 0,
        ended: 0,
        skipped: 0,
      });
      const engine = engineOn(database.db);
      const customers = ofType('customer');
      expect(customers.length).toBe(5);
      for (const c of customers) {
        const id = c.customerId as string;
        expect(await engine.getCustomer(id)).toEqual(oldCustomerView(c));
        expect(await engine.findCustomerByEmail(c.email as string)).toEqual(oldCustomerView(c));
        // The old engine's current subscription: the newest that has not ended.
        const current = ofType('subscription')
          .filter((s) => s.customerId === id && s.status !== 'canceled')
          .sort((a, b) => String(b.created).localeCompare(String(a.created)))[0];
        expect(await engine.getSubscription(id)).toEqual(current ? oldSubscriptionView(current) : null);
        const invoices = ofType('invoice')
          .filter((i) => i.customerId === id)
          .sort(
            (a, b) =>
              String(b.created).localeCompare(String(a.created)) || (b.sequence as number) - (a.sequence as number),
          )
          .map(oldInvoiceView);
        expect((await engine.listInvoices(id, { limit: 100 })).invoices).toEqual(invoices);
        for (const invoice of invoices) expect(await engine.getInvoice(id, invoice.id)).toEqual(invoice);
      }
      // What each client had, said plainly.
      const byEmail = async (email: string) => (await engine.findCustomerByEmail(email))!.id;
      const amira = await engine.getSubscription(await byEmail('upgrade.amira@example.com'));
      expect(amira).toMatchObject({ plan: 'starter', status: 'active', scheduledChange: { plan: 'enterprise' } });
      expect(amira!.scheduledChange!.effectiveAt).toBe(amira!.currentPeriodEnd);
      const sara = await engine.getSubscription(await byEmail('upgrade.sara@example.ae'));
      expect(sara).toMatchObject({ plan: 'business', status: 'active', cancelAtPeriodEnd: true });
      const karim = await byEmail('upgrade.pastdue@example.com');
      expect(await engine.getSubscription(karim)).toMatchObject({ status: 'past_due' });
      expect((await engine.listInvoices(karim, { limit: 10 })).invoices.map((i) => [i.number, i.status])).toEqual([
        ['BWB-2026-0010', 'open'],
        ['BWB-2026-0007', 'paid'],
      ]);
      expect(await engine.getSubscription(await byEmail('former@example.com'))).toBeNull();
      // The billing clock keeps its offset: the same engine time as before the upgrade.
      const clock = docs.get('billing.clock.main')!;
      expect((await engine.now()).getTime()).toBe(REAL_NOW + (clock.offsetMs as number));
      // Every event was delivered by the old version: none is delivered again.
      expect(await engine.undeliveredEvents(100)).toEqual([]);
      // Renewals go on from the imported periods: a month on, Amira's scheduled plan takes effect.
      const later = new EmbeddedBilling(database.db, {
        plans: async () => PLANS,
        now: () => Date.parse(amira!.currentPeriodEnd) - (clock.offsetMs as number) + 1000,
      });
      const due = await later.runDue();
      expect(due.changed).toBe(1);
      expect(await later.getSubscription(await byEmail('upgrade.amira@example.com'))).toMatchObject({
        plan: 'enterprise',
        scheduledChange: null,
      });
    } finally {
      await database.close();
    }
  });

  it('once: a second import changes nothing, and the next invoice number follows the imported counter', async () => {
    const database = await openTestDatabase(kind);
    try {
      await importBillingLog(database.db, dataDir);
      const before = await dump(database.db);
      expect(await importBillingLog(database.db, dataDir)).toBeNull();
      expect(await dump(database.db)).toEqual(before);
      const marker = await database.db.execute<{ counts: Record<string, number> }>(
        sql`select counts from data_imports where name = ${BILLING_IMPORT}`,
      );
      expect(marker.rows[0].counts.invoices).toBe(11);

      const engine = engineOn(database.db);
      // The demo seeding of this version finds its clients there already and issues nothing.
      await engine.seedDemo();
      expect(await dump(database.db)).toEqual(before);
      const counter = docs.get('billing.counter.invoices-2026')!;
      expect(counter.last).toBe(11);
      const result = await subscribeNew(engine, 'after.upgrade@example.com');
      expect(result.invoice.number).toBe('BWB-2026-0012');
      const numbers = await database.db.execute<{ n: number; distinct: number }>(
        sql`select count(*)::int as n, count(distinct number)::int as distinct from billing_invoices`,
      );
      expect(numbers.rows[0]).toEqual({ n: 12, distinct: 12 });
    } finally {
      await database.close();
    }
  });

  it('a failure in the middle leaves nothing imported, and the next start imports it all', async () => {
    const database = await openTestDatabase(kind);
    try {
      // The events are written after the customers, subscriptions, invoices and counters.
      await database.db.execute(
        sql.raw(`create function refuse_event() returns trigger language plpgsql as
          $$ begin raise exception 'disk full (test)'; end $$`),
      );
      await database.db.execute(
        sql.raw(
          `create trigger refuse_event before insert on billing_events for each row execute function refuse_event()`,
        ),
      );
      const empty = await dump(database.db);
      await expect(importBillingLog(database.db, dataDir)).rejects.toThrow();
      expect(await dump(database.db)).toEqual(empty);
      expect(Object.values(empty).every((rows) => rows.length === 0)).toBe(true);
      const marker = await database.db.execute(sql`select 1 from data_imports where name = ${BILLING_IMPORT}`);
      expect(marker.rows).toEqual([]);

      await database.db.execute(sql.raw(`drop trigger refuse_event on billing_events`));
      const counts = await importBillingLog(database.db, dataDir);
      expect(counts).toMatchObject({ customers: 5, invoices: 11, events: ofType('event').length });
    } finally {
      await database.close();
    }
  });

  it('an invoice number the old version gave twice keeps it on the first invoice; the second gets the next free number', async () => {
    // Two processes on one folder (the previous version had no lock) both took BWB-2026-0006.
    const created = '2026-11-25T13:52:56.000Z';
    const periodEnd = '2026-12-25T13:52:56.000Z';
    appendFileSync(
      path.join(dataDir, 'content-writes.ndjson'),
      JSON.stringify({
        _tx: 'twice',
        docs: [
          {
            _id: 'billing.customer.cus_SecondProcess000001',
            _type: 'billing.customer',
            customerId: 'cus_SecondProcess000001',
            email: 'Second.Process@Example.com',
            name: 'Second Process',
            company: null,
            locale: 'ar',
            card: { brand: 'Visa', last4: '4242', expMonth: 12, expYear: 2034, renewals: 'succeed' },
            created,
          },
          {
            _id: 'billing.subscription.sub_SecondProcess000001',
            _type: 'billing.subscription',
            subscriptionId: 'sub_SecondProcess000001',
            customerId: 'cus_SecondProcess000001',
            plan: 'starter',
            amount: 95000,
            currency: 'sgd',
            status: 'active',
            billingAnchor: created,
            periodIndex: 1,
            currentPeriodStart: created,
            currentPeriodEnd: periodEnd,
            cancelAtPeriodEnd: false,
            canceledAt: null,
            endedAt: null,
            scheduledChange: null,
            card: { brand: 'Visa', last4: '4242', expMonth: 12, expYear: 2034, renewals: 'succeed' },
            created,
          },
          {
            _id: 'billing.invoice.in_SecondProcess000001',
            _type: 'billing.invoice',
            invoiceId: 'in_SecondProcess000001',
            number: 'BWB-2026-0006',
            sequence: 2026000006,
            customerId: 'cus_SecondProcess000001',
            subscriptionId: 'sub_SecondProcess000001',
            status: 'paid',
            plan: 'starter',
            amount: 95000,
            currency: 'sgd',
            created,
            periodStart: created,
            periodEnd,
            paidAt: created,
          },
        ],
        deleted: [],
      }) + '\n',
    );
    const database = await openTestDatabase(kind);
    try {
      expect(await importBillingLog(database.db, dataDir)).toMatchObject({ invoices: 12, renumbered: 1 });
      const engine = engineOn(database.db);
      const first = ofType('invoice').find((i) => i.number === 'BWB-2026-0006')!;
      expect((await engine.getInvoice(first.customerId as string, first.invoiceId as string))?.number).toBe(
        'BWB-2026-0006',
      );
      const second = await engine.getInvoice('cus_SecondProcess000001', 'in_SecondProcess000001');
      expect(second).toMatchObject({ number: 'BWB-2026-0012', amount: 95000, status: 'paid' });
      expect(await engine.findCustomerByEmail('second.process@example.com')).toMatchObject({ locale: 'ar' });
      expect((await subscribeNew(engine, 'after.twice@example.com')).invoice.number).toBe('BWB-2026-0013');
    } finally {
      await database.close();
    }
  });

  it('a second customer the old version made for one address is folded into the first; only the newest subscription runs', async () => {
    // Two processes each made a customer for Amira's address (in another case), each with a running subscription.
    const amira = ofType('customer').find((c) => c.email === 'upgrade.amira@example.com')!;
    const amiraSub = ofType('subscription').find((s) => s.customerId === amira.customerId)!;
    const created = '2026-11-20T10:00:00.000Z';
    const periodEnd = '2026-12-20T10:00:00.000Z';
    const card = { brand: 'Visa', last4: '4242', expMonth: 12, expYear: 2034, renewals: 'succeed' };
    appendFileSync(
      path.join(dataDir, 'content-writes.ndjson'),
      JSON.stringify({
        _tx: 'twin',
        docs: [
          {
            _id: 'billing.customer.cus_TwinOfAmira00000001',
            _type: 'billing.customer',
            customerId: 'cus_TwinOfAmira00000001',
            email: 'Upgrade.Amira@Example.com',
            name: 'Amira N.',
            company: null,
            locale: 'en',
            card,
            created: '2026-11-25T13:59:00.000Z',
          },
          {
            _id: 'billing.subscription.sub_TwinOfAmira00000001',
            _type: 'billing.subscription',
            subscriptionId: 'sub_TwinOfAmira00000001',
            customerId: 'cus_TwinOfAmira00000001',
            plan: 'business',
            amount: 190000,
            currency: 'sgd',
            status: 'active',
            billingAnchor: created,
            periodIndex: 1,
            currentPeriodStart: created,
            currentPeriodEnd: periodEnd,
            cancelAtPeriodEnd: false,
            canceledAt: null,
            endedAt: null,
            scheduledChange: null,
            card,
            created,
          },
          {
            _id: 'billing.invoice.in_TwinOfAmira00000001',
            _type: 'billing.invoice',
            invoiceId: 'in_TwinOfAmira00000001',
            number: 'BWB-2026-0012',
            sequence: 2026000012,
            customerId: 'cus_TwinOfAmira00000001',
            subscriptionId: 'sub_TwinOfAmira00000001',
            status: 'paid',
            plan: 'business',
            amount: 190000,
            currency: 'sgd',
            created,
            periodStart: created,
            periodEnd,
            paidAt: created,
          },
        ],
        deleted: [],
      }) + '\n',
    );
    const database = await openTestDatabase(kind);
    try {
      expect(await importBillingLog(database.db, dataDir, new Date(REAL_NOW))).toMatchObject({
        customers: 5,
        merged: 1,
        ended: 1,
        invoices: 12,
      });
      const engine = engineOn(database.db);
      expect(await engine.getCustomer('cus_TwinOfAmira00000001')).toBeNull();
      expect(await engine.findCustomerByEmail('upgrade.amira@example.com')).toEqual(oldCustomerView(amira));
      // Amira's own subscription (the newer one, which she saw) runs; the twin's ended at the import.
      expect(await engine.getSubscription(amira.customerId as string)).toEqual(oldSubscriptionView(amiraSub));
      const ended = await database.db.execute<{ status: string; ended_at: Date; customer_id: string }>(
        sql`select status, ended_at, customer_id from billing_subscriptions where id = 'sub_TwinOfAmira00000001'`,
      );
      expect(ended.rows[0]).toMatchObject({ status: 'canceled', customer_id: amira.customerId });
      expect(new Date(ended.rows[0].ended_at).getTime()).toBe(REAL_NOW);
      // Her invoices include the twin's: paid money is never dropped, and the counter follows it.
      const numbers = (await engine.listInvoices(amira.customerId as string, { limit: 10 })).invoices.map(
        (i) => i.number,
      );
      expect(numbers.sort()).toEqual(['BWB-2026-0006', 'BWB-2026-0009', 'BWB-2026-0012']);
      expect((await subscribeNew(engine, 'after.twin@example.com')).invoice.number).toBe('BWB-2026-0013');
    } finally {
      await database.close();
    }
  });

  it('a database where this version already seeded its demo clients keeps them, and takes the rest', async () => {
    const database = await openTestDatabase(kind);
    try {
      // A start of this version before the billing import existed: the same demo clients, numbered 0001-0005.
      await engineOn(database.db).seedDemo();
      const counts = await importBillingLog(database.db, dataDir);
      expect(counts).toMatchObject({ customers: 3, merged: 0, renumbered: 0, skipped: 0 });
      expect(counts!.existing).toBeGreaterThanOrEqual(2 + 2);
      const engine = engineOn(database.db);
      for (const email of ['upgrade.amira@example.com', 'upgrade.sara@example.ae', 'client@example.com'])
        expect(await engine.findCustomerByEmail(email)).not.toBeNull();
      const numbers = await database.db.execute<{ n: number; distinct: number }>(
        sql`select count(*)::int as n, count(distinct number)::int as distinct from billing_invoices`,
      );
      expect(numbers.rows[0].n).toBe(numbers.rows[0].distinct);
      expect((await subscribeNew(engine, 'after.demo@example.com')).invoice.number).toBe('BWB-2026-0012');
    } finally {
      await database.close();
    }
  });
});

describe('a start of this version on a folder of the previous version', () => {
  it('imports the billing records with the rest, and the content store no longer serves them', async () => {
    const database = await openDatabase({ kind: 'pglite', dataDir });
    try {
      const engine = engineOn(database.db);
      const amira = await engine.findCustomerByEmail('upgrade.amira@example.com');
      expect(amira).toMatchObject({ name: 'Amira Nasser', locale: 'en' });
      expect((await engine.listInvoices(amira!.id, { limit: 10 })).invoices.map((i) => i.number)).toEqual([
        'BWB-2026-0009',
        'BWB-2026-0006',
      ]);
      // The portal account came along too (the portal import), so the client can sign in.
      const account = await database.db.execute<{ email: string }>(
        sql`select email from accounts where customer_id = ${amira!.id}`,
      );
      expect(account.rows).toEqual([{ email: 'upgrade.amira@example.com' }]);
    } finally {
      await database.close();
    }
    const store = new EmbeddedContentClient({
      datasetFile: path.resolve('studio/dataset/production.ndjson'),
      dataDir,
    });
    await store.whenReady();
    try {
      for (const id of docs.keys()) if (id.startsWith('billing.')) expect(await store.getDocument(id)).toBeNull();
    } finally {
      store.close();
    }
  });
});
