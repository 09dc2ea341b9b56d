import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq, inArray, ne, and, sql } from 'drizzle-orm';
import { takeInvoiceNumber } from '~/billing/engine/transaction.server';
import { isId } from '~/billing/engine/ids.server';
import { isPlanKey } from '~/billing/types';
import type { SanityDocument } from '~/sanity/types';
import { WRITES_FILE } from '~/sanity/write-log';
import { readMovedRecords } from './import-log.server';
import {
  billingCheckouts,
  billingClock,
  billingCustomers,
  billingEvents,
  billingInvoiceCounters,
  billingInvoices,
  billingSubscriptions,
  dataImports,
  type BillingCard,
} from './schema.server';
import type { Db } from './types.server';
import { log as logger } from '~/lib/log.server';

/**
 * The embedded billing engine's state as the previous version kept it: private documents
 * `billing.*` of the write log (customers, subscriptions with their scheduled change, invoices,
 * checkouts, the invoice counters, the clock, the event outbox). On the first start of this
 * version on such a folder they become rows of the `billing_*` tables once, in one transaction
 * with the `data_imports` row that says so: a crash or an error part-way imports nothing, and the
 * next start tries again. After it no start reads them from the log (write-log.ts lists
 * `billing.` as moved). Ids, numbers, amounts, periods and the clock's offset are kept as they
 * were, so a paying client finds the same subscription and invoices, and renewals go on from
 * the same periods. The customer registry (`billing.counter.customers`, a count the old store
 * needed for its retries) has no row: the unique address does its work now.
 *
 * What the previous version could get wrong (two processes on one folder double-applied) is
 * settled here rather than refused, so the site still starts, and each settlement is logged
 * for the operator: an invoice number given twice keeps it on the first invoice issued and the
 * later one gets the next free number of its year; a second customer with the same address is
 * folded into the first (the old engine found an address's oldest customer); a second running
 * subscription of one customer is imported ended (only the newest one was shown to the client).
 * Records already in the database (the demo clients a start of this version seeded, with the
 * same fixed ids) are kept as they are. Whatever is imported, the next invoice number of a year
 * follows the highest one imported: no number is given twice.
 */
export const BILLING_IMPORT = 'content-writes:billing';

type Doc = SanityDocument & Record<string, unknown>;

const str = (v: unknown, max: number): string | null => (typeof v === 'string' && v.length <= max ? v : null);
const time = (v: unknown): Date | null => {
  if (typeof v !== 'string' && typeof v !== 'number') return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
};
const locale = (v: unknown) => (v === 'ar' ? 'ar' : 'en');
const INVOICE_NUMBER = /^[A-Z]{2,8}-(\d{4})-(\d{1,9})$/;

/** The card as the engine keeps it, or null when the document's card is not one. */
function card(v: unknown): BillingCard | null {
  if (!v || typeof v !== 'object') return null;
  const { brand, last4, expMonth, expYear, renewals } = v as Record<string, unknown>;
  if (
    typeof brand !== 'string' ||
    brand.length > 40 ||
    typeof last4 !== 'string' ||
    !/^\d{4}$/.test(last4) ||
    !Number.isInteger(expMonth) ||
    !Number.isInteger(expYear)
  )
    return null;
  return {
    brand,
    last4,
    expMonth: expMonth as number,
    expYear: expYear as number,
    renewals: renewals === 'fail' ? 'fail' : 'succeed',
  };
}

export interface BillingImportCounts extends Record<string, number> {
  customers: number;
  subscriptions: number;
  invoices: number;
  checkouts: number;
  events: number;
  counters: number;
  clock: number;
  /** Invoices that had a number given twice, given the next free number of their year. */
  renumbered: number;
  /** Customers folded into an earlier customer with the same address. */
  merged: number;
  /** Running subscriptions imported ended (the customer had a newer one). */
  ended: number;
  /** Records already in the database (kept as they are). */
  existing: number;
  /** Documents that were not whole or referred to something missing. */
  skipped: number;
}

type CustomerRow = typeof billingCustomers.$inferInsert;
type SubscriptionRow = typeof billingSubscriptions.$inferInsert;
type InvoiceRow = typeof billingInvoices.$inferInsert;
type CheckoutRow = typeof billingCheckouts.$inferInsert;
type EventRow = typeof billingEvents.$inferInsert;

async function inBatches<T>(rows: T[], run: (batch: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += 500) await run(rows.slice(i, i + 500));
}

/** Which of `ids` a table holds already, asked in batches by `read`. */
async function existingIds(ids: string[], read: (batch: string[]) => Promise<{ id: string }[]>): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += 1000) for (const row of await read(ids.slice(i, i + 1000))) found.add(row.id);
  return found;
}

/**
 * Imports the write log's billing documents once; returns what it did, or null when there was
 * nothing to do (done before). `now` is when a duplicate running subscription is ended.
 */
export async function importBillingLog(db: Db, dataDir: string, now = new Date()): Promise<BillingImportCounts | null> {
  const done = await db
    .select({ name: dataImports.name })
    .from(dataImports)
    .where(eq(dataImports.name, BILLING_IMPORT));
  if (done.length) return null;
  const file = path.join(path.resolve(dataDir), WRITES_FILE);
  const records = existsSync(file)
    ? await readMovedRecords(file, (id) => id.startsWith('billing.'))
    : new Map<string, SanityDocument>();
  const byType = (type: string) => [...records.values()].filter((d) => d._type === `billing.${type}`) as Doc[];
  const notes: string[] = [];
  const counts: BillingImportCounts = {
    customers: 0,
    subscriptions: 0,
    invoices: 0,
    checkouts: 0,
    events: 0,
    counters: 0,
    clock: 0,
    renumbered: 0,
    merged: 0,
    ended: 0,
    existing: 0,
    skipped: 0,
  };

  const imported = await db.transaction(async (tx) => {
    // First: a concurrent import (another process on the same database) waits here, then finds it done.
    const claimed = await tx
      .insert(dataImports)
      .values({ name: BILLING_IMPORT, counts: {} })
      .onConflictDoNothing()
      .returning({ name: dataImports.name });
    if (!claimed.length) return false;

    // ---- customers: one per address (the oldest keeps it, as the old engine looked addresses up)
    const customers: CustomerRow[] = [];
    for (const doc of byType('customer')) {
      const id = doc.customerId;
      const email = str(doc.email, 254)?.trim().toLowerCase();
      const created = time(doc.created);
      if (!isId('cus', id) || !email || !created) {
        counts.skipped++;
        continue;
      }
      customers.push({
        id,
        email,
        name: (str(doc.name, 10_000) ?? '').slice(0, 200),
        company: typeof doc.company === 'string' ? doc.company.slice(0, 200) : null,
        locale: locale(doc.locale),
        card: card(doc.card),
        createdAt: created,
      });
    }
    customers.sort((a, b) => a.createdAt!.getTime() - b.createdAt!.getTime());
    /** An imported customer id → the customer its records belong to now. */
    const customerOf = new Map<string, string>();
    const present = await existingIds(
      customers.map((c) => c.id),
      (batch) =>
        tx.select({ id: billingCustomers.id }).from(billingCustomers).where(inArray(billingCustomers.id, batch)),
    );
    const byEmail = new Map<string, string>();
    for (let i = 0; i < customers.length; i += 1000) {
      const emails = customers.slice(i, i + 1000).map((c) => c.email);
      for (const row of await tx
        .select({ id: billingCustomers.id, email: billingCustomers.email })
        .from(billingCustomers)
        .where(inArray(billingCustomers.email, emails)))
        byEmail.set(row.email, row.id);
    }
    const newCustomers: CustomerRow[] = [];
    for (const c of customers) {
      if (present.has(c.id)) {
        customerOf.set(c.id, c.id);
        counts.existing++;
        continue;
      }
      const owner = byEmail.get(c.email);
      if (owner) {
        customerOf.set(c.id, owner);
        counts.merged++;
        notes.push(`customer ${c.id} has the address of customer ${owner}: its records now belong to ${owner}`);
        continue;
      }
      byEmail.set(c.email, c.id);
      customerOf.set(c.id, c.id);
      newCustomers.push(c);
    }
    await inBatches(newCustomers, (b) => tx.insert(billingCustomers).values(b));
    counts.customers = newCustomers.length;

    // ---- subscriptions (with their scheduled change); at most one running per customer
    const subscriptions: SubscriptionRow[] = [];
    for (const doc of byType('subscription')) {
      const customerId = typeof doc.customerId === 'string' ? customerOf.get(doc.customerId) : undefined;
      const status = doc.status;
      const start = time(doc.currentPeriodStart);
      const end = time(doc.currentPeriodEnd);
      const anchor = time(doc.billingAnchor);
      const created = time(doc.created) ?? anchor;
      const amount = doc.amount;
      const periodIndex = doc.periodIndex;
      const change = doc.scheduledChange as { plan?: unknown; effectiveAt?: unknown; requestRef?: unknown } | null;
      const changeAt = change ? time(change.effectiveAt) : null;
      if (
        !isId('sub', doc.subscriptionId) ||
        !customerId ||
        !isPlanKey(doc.plan) ||
        (status !== 'active' && status !== 'past_due' && status !== 'canceled') ||
        !start ||
        !end ||
        end <= start ||
        !anchor ||
        !created ||
        !Number.isInteger(amount) ||
        (amount as number) < 0 ||
        !Number.isInteger(periodIndex) ||
        (periodIndex as number) < 1 ||
        (change && (!isPlanKey(change.plan) || !changeAt))
      ) {
        counts.skipped++;
        continue;
      }
      subscriptions.push({
        id: doc.subscriptionId,
        customerId,
        plan: doc.plan,
        amount: amount as number,
        currency: 'sgd',
        status,
        billingAnchor: anchor,
        periodIndex: periodIndex as number,
        currentPeriodStart: start,
        currentPeriodEnd: end,
        cancelAtPeriodEnd: doc.cancelAtPeriodEnd === true,
        canceledAt: time(doc.canceledAt),
        endedAt: time(doc.endedAt),
        scheduledPlan: change ? (change.plan as string) : null,
        scheduledEffectiveAt: change ? changeAt : null,
        scheduledRequestRef: change && typeof change.requestRef === 'string' ? change.requestRef.slice(0, 64) : null,
        card: card(doc.card),
        createdAt: created,
      });
    }
    const subsPresent = await existingIds(
      subscriptions.map((s) => s.id),
      (batch) =>
        tx
          .select({ id: billingSubscriptions.id })
          .from(billingSubscriptions)
          .where(inArray(billingSubscriptions.id, batch)),
    );
    const newSubs = subscriptions.filter((s) => !subsPresent.has(s.id));
    counts.existing += subscriptions.length - newSubs.length;
    // A customer's running subscription: the database's, else the newest imported one.
    const running = new Map<string, string>();
    const owners = [...new Set(newSubs.map((s) => s.customerId))];
    for (let i = 0; i < owners.length; i += 1000)
      for (const row of await tx
        .select({ id: billingSubscriptions.id, customerId: billingSubscriptions.customerId })
        .from(billingSubscriptions)
        .where(
          and(
            inArray(billingSubscriptions.customerId, owners.slice(i, i + 1000)),
            ne(billingSubscriptions.status, 'canceled'),
          ),
        ))
        running.set(row.customerId, row.id);
    newSubs.sort((a, b) => b.createdAt!.getTime() - a.createdAt!.getTime());
    for (const s of newSubs) {
      if (s.status === 'canceled') continue;
      const current = running.get(s.customerId);
      if (!current) {
        running.set(s.customerId, s.id);
        continue;
      }
      Object.assign(s, {
        status: 'canceled',
        cancelAtPeriodEnd: false,
        canceledAt: s.canceledAt ?? now,
        endedAt: now,
        scheduledPlan: null,
        scheduledEffectiveAt: null,
        scheduledRequestRef: null,
      });
      counts.ended++;
      notes.push(`subscription ${s.id} ended: its customer ${s.customerId} has the running subscription ${current}`);
    }
    newSubs.reverse();
    await inBatches(newSubs, (b) => tx.insert(billingSubscriptions).values(b));
    counts.subscriptions = newSubs.length;
    const subscriptionIds = new Set([...subsPresent, ...newSubs.map((s) => s.id)]);

    // ---- invoices: numbers kept; a number given twice stays with the first issued
    const invoices: (InvoiceRow & { year: number; n: number })[] = [];
    for (const doc of byType('invoice')) {
      const customerId = typeof doc.customerId === 'string' ? customerOf.get(doc.customerId) : undefined;
      const number = str(doc.number, 32);
      const parsed = number ? INVOICE_NUMBER.exec(number) : null;
      const created = time(doc.created);
      const periodStart = time(doc.periodStart);
      const periodEnd = time(doc.periodEnd);
      if (
        !isId('in', doc.invoiceId) ||
        !customerId ||
        typeof doc.subscriptionId !== 'string' ||
        !subscriptionIds.has(doc.subscriptionId) ||
        !parsed ||
        (doc.status !== 'paid' && doc.status !== 'open') ||
        !isPlanKey(doc.plan) ||
        !Number.isInteger(doc.amount) ||
        (doc.amount as number) < 0 ||
        !created ||
        !periodStart ||
        !periodEnd
      ) {
        counts.skipped++;
        continue;
      }
      const year = Number(parsed[1]);
      const n = Number(parsed[2]);
      invoices.push({
        id: doc.invoiceId,
        number: number!,
        sequence: Number.isSafeInteger(doc.sequence) ? (doc.sequence as number) : year * 1_000_000 + n,
        customerId,
        subscriptionId: doc.subscriptionId,
        status: doc.status,
        plan: doc.plan,
        amount: doc.amount as number,
        currency: 'sgd',
        createdAt: created,
        periodStart,
        periodEnd,
        paidAt: doc.status === 'paid' ? (time(doc.paidAt) ?? created) : null,
        year,
        n,
      });
    }
    invoices.sort((a, b) => a.sequence! - b.sequence! || a.createdAt!.getTime() - b.createdAt!.getTime());
    const invoicesPresent = await existingIds(
      invoices.map((i) => i.id),
      (batch) => tx.select({ id: billingInvoices.id }).from(billingInvoices).where(inArray(billingInvoices.id, batch)),
    );
    const taken = new Set<string>();
    for (let i = 0; i < invoices.length; i += 1000)
      for (const row of await tx
        .select({ number: billingInvoices.number })
        .from(billingInvoices)
        .where(
          inArray(
            billingInvoices.number,
            invoices.slice(i, i + 1000).map((inv) => inv.number),
          ),
        ))
        taken.add(row.number);
    const keep: InvoiceRow[] = [];
    const renumber: InvoiceRow[] = [];
    /** Per year, the highest number the previous version gave (its counter, or an invoice above it). */
    const highest = new Map<number, number>();
    const periods = new Set<string>();
    for (const { year, n, ...row } of invoices) {
      highest.set(year, Math.max(highest.get(year) ?? 0, n));
      if (invoicesPresent.has(row.id)) {
        counts.existing++;
        continue;
      }
      // One invoice per period: a second one for the same period (a double-applied renewal) is not a new debt.
      const period = `${row.subscriptionId} ${row.periodStart!.toISOString()}`;
      if (periods.has(period)) {
        counts.skipped++;
        notes.push(`invoice ${row.id} (${row.number}) left out: its period was invoiced already`);
        continue;
      }
      periods.add(period);
      if (taken.has(row.number)) renumber.push(row);
      else {
        taken.add(row.number);
        keep.push(row);
      }
    }
    // Invoices that exist already for a period are kept; an imported one for the same period is left out.
    const periodTaken = new Set<string>();
    const subs = [...new Set(keep.concat(renumber).map((r) => r.subscriptionId))];
    for (let i = 0; i < subs.length; i += 1000)
      for (const row of await tx
        .select({ subscriptionId: billingInvoices.subscriptionId, periodStart: billingInvoices.periodStart })
        .from(billingInvoices)
        .where(inArray(billingInvoices.subscriptionId, subs.slice(i, i + 1000))))
        periodTaken.add(`${row.subscriptionId} ${row.periodStart.toISOString()}`);
    const free = (row: InvoiceRow) => {
      if (!periodTaken.has(`${row.subscriptionId} ${row.periodStart!.toISOString()}`)) return true;
      counts.skipped++;
      notes.push(`invoice ${row.id} (${row.number}) left out: its period was invoiced already`);
      return false;
    };
    const keepFree = keep.filter(free);
    await inBatches(keepFree, (b) => tx.insert(billingInvoices).values(b));

    // ---- counters: each year's continues after the highest number the previous version gave
    for (const doc of byType('counter')) {
      const year = doc.year;
      if (!Number.isInteger(year) || (year as number) < 2000 || (year as number) > 9999 || !Number.isInteger(doc.last))
        continue; // the customer registry: no row now
      highest.set(year as number, Math.max(highest.get(year as number) ?? 0, doc.last as number));
    }
    for (const [year, last] of highest) {
      await tx
        .insert(billingInvoiceCounters)
        .values({ year, last })
        .onConflictDoUpdate({
          target: billingInvoiceCounters.year,
          set: { last: sql`greatest(${billingInvoiceCounters.last}, excluded.last)` },
        });
      counts.counters++;
    }
    // Numbers given twice: the later invoice takes the next free number of its year (after the counter).
    const renumbered = renumber.filter(free);
    for (const row of renumbered) {
      const fresh = await takeInvoiceNumber(tx, row.createdAt!);
      notes.push(`invoice ${row.id}: ${row.number} was given twice by the previous version; it is ${fresh.number} now`);
      await tx.insert(billingInvoices).values({ ...row, ...fresh });
    }
    counts.renumbered = renumbered.length;
    counts.invoices = keepFree.length + renumbered.length;
    const invoiceIds = new Set([...invoicesPresent, ...keepFree.map((r) => r.id), ...renumbered.map((r) => r.id)]);

    // ---- checkouts (a complete one names what it made; an open one may still be paid)
    const checkouts: CheckoutRow[] = [];
    for (const doc of byType('checkout')) {
      const created = time(doc.created);
      const expiresAt = time(doc.expiresAt);
      const result = doc.result as { customerId?: unknown; subscriptionId?: unknown; invoiceId?: unknown } | null;
      const complete = doc.status === 'complete';
      const resultCustomer =
        complete && typeof result?.customerId === 'string' ? customerOf.get(result.customerId) : null;
      const completedAt = complete ? time(doc.completedAt) : null;
      if (
        !isId('cs', doc.checkoutId) ||
        !isPlanKey(doc.plan) ||
        (doc.status !== 'open' && !complete) ||
        !Number.isInteger(doc.amount) ||
        (doc.amount as number) < 0 ||
        !created ||
        !expiresAt ||
        typeof doc.successUrl !== 'string' ||
        doc.successUrl.length > 2048 ||
        typeof doc.cancelUrl !== 'string' ||
        doc.cancelUrl.length > 2048 ||
        (complete &&
          (!resultCustomer ||
            !completedAt ||
            typeof result?.subscriptionId !== 'string' ||
            !subscriptionIds.has(result.subscriptionId) ||
            typeof result.invoiceId !== 'string' ||
            !invoiceIds.has(result.invoiceId)))
      ) {
        counts.skipped++;
        continue;
      }
      checkouts.push({
        id: doc.checkoutId,
        plan: doc.plan,
        locale: locale(doc.locale),
        amount: doc.amount as number,
        currency: 'sgd',
        status: doc.status as string,
        customerId: typeof doc.customerId === 'string' ? (customerOf.get(doc.customerId) ?? null) : null,
        email: str(doc.email, 254),
        successUrl: doc.successUrl,
        cancelUrl: doc.cancelUrl,
        createdAt: created,
        expiresAt,
        completedAt,
        resultCustomerId: complete ? resultCustomer : null,
        resultSubscriptionId: complete ? (result!.subscriptionId as string) : null,
        resultInvoiceId: complete ? (result!.invoiceId as string) : null,
      });
    }
    const checkoutsPresent = await existingIds(
      checkouts.map((c) => c.id),
      (batch) =>
        tx.select({ id: billingCheckouts.id }).from(billingCheckouts).where(inArray(billingCheckouts.id, batch)),
    );
    const newCheckouts = checkouts.filter((c) => !checkoutsPresent.has(c.id));
    counts.existing += checkouts.length - newCheckouts.length;
    await inBatches(newCheckouts, (b) => tx.insert(billingCheckouts).values(b));
    counts.checkouts = newCheckouts.length;

    // ---- events, in the order the previous version recorded them (its sort key); delivered ones stay delivered
    const events: (EventRow & { sortKey: string })[] = [];
    for (const doc of byType('event')) {
      const created = time(doc.created);
      const event = doc.event as Record<string, unknown> | null;
      if (
        !isId('evt', doc.eventId) ||
        typeof doc.eventType !== 'string' ||
        doc.eventType.length > 100 ||
        !created ||
        !event ||
        typeof event !== 'object'
      ) {
        counts.skipped++;
        continue;
      }
      events.push({
        id: doc.eventId,
        type: doc.eventType,
        createdAt: created,
        event,
        deliveredAt: doc.delivered === true ? (time(doc.deliveredAt) ?? created) : null,
        sortKey: typeof doc.sortKey === 'string' ? doc.sortKey : created.toISOString(),
      });
    }
    events.sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0));
    const eventsPresent = await existingIds(
      events.map((e) => e.id),
      (batch) => tx.select({ id: billingEvents.id }).from(billingEvents).where(inArray(billingEvents.id, batch)),
    );
    const newEvents = events.filter((e) => !eventsPresent.has(e.id)).map(({ sortKey: _, ...row }) => row);
    counts.existing += events.length - newEvents.length;
    // In order, one batch after another: the identity column numbers them as the old sort key did.
    await inBatches(newEvents, (b) => tx.insert(billingEvents).values(b));
    counts.events = newEvents.length;

    // ---- the clock: it never goes back
    const clock = records.get('billing.clock.main') as Doc | undefined;
    if (clock && Number.isFinite(clock.offsetMs) && (clock.offsetMs as number) > 0) {
      await tx
        .insert(billingClock)
        .values({ id: 1, offsetMs: Math.round(clock.offsetMs as number) })
        .onConflictDoUpdate({
          target: billingClock.id,
          set: { offsetMs: sql`greatest(${billingClock.offsetMs}, excluded.offset_ms)` },
        });
      counts.clock = 1;
    }

    await tx.update(dataImports).set({ counts }).where(eq(dataImports.name, BILLING_IMPORT));
    return true;
  });
  if (!imported) return null;
  if (records.size) {
    logger.info(
      `[db] imported from ${file}: ${counts.customers} billing customers, ${counts.subscriptions} subscriptions, ` +
        `${counts.invoices} invoices, ${counts.checkouts} checkouts, ${counts.events} events` +
        (counts.existing ? ` (${counts.existing} already in the database kept)` : '') +
        (counts.skipped ? ` (${counts.skipped} unusable left out)` : ''),
    );
    for (const note of notes) logger.info(`[db] billing import: ${note}`);
  }
  return counts;
}
