import { and, eq, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { purgeExpiredFormTokens } from '~/features/forms/submissions.server';
import { expiredSignups, UNSUBSCRIBED_KEEP_DAYS } from '~/features/newsletter/newsletter.server';
import { CONFIRM_LINK_DAYS } from '~/features/newsletter/wording';
import { billing } from '~/billing/billing.server';
import {
  accounts,
  billingCheckouts,
  billingCustomers,
  consentRecords,
  billingEvents,
  billingCreditNotes,
  billingInvoices,
  billingSubscriptions,
  faqQuestions,
  handledEvents,
  mailQueue,
  newsletterSignups,
  renewalReminders,
  sessions,
  signinCodes,
} from '~/db/schema.server';
import type { Db } from '~/db/types.server';
import { purgeExpiredLimits } from './limits.server';

/**
 * Retention, enforced (the table and the reasons are in docs/portal.md): every kind of record
 * the database holds about a person goes when its purpose has passed. The clean-up job
 * (jobs.server.ts) runs every rule: each statement touches at most BATCH rows, found through
 * the index on the column the rule reads (every one is indexed), and a rule stops after MAX_BATCHES a run, so a
 * backlog (a first run on old data) is worked off over a few runs instead of one long one.
 */
const DAY = 24 * 60 * 60 * 1000;

export const RETENTION_DAYS = {
  /** A sent or dropped email's content (names, plan, amounts); its row stays (below). */
  mailBody: 30,
  /** A queued email's row: address, kind, key (so a fact is never mailed twice), when sent. */
  mailRow: 365,
  /** Handled billing event ids and renewal-reminder markers. */
  handledEvents: 400,
  renewalReminders: 400,
  /** FAQ questions (name, email, phone, question). */
  faqQuestions: 730,
  /**
   * Cookie choices (no personal details; the proof of a consent): the cookie lives six months,
   * and a choice is kept well beyond that, so that a complaint about it can still be answered.
   */
  consentRecords: 3 * 365,
  /** The billing engine's checkouts never completed (an address typed in), after their expiry. */
  checkoutsOpen: 7,
  /** Completed checkouts, after their expiry: the subscription and invoice they made are the record. */
  checkoutsComplete: 90,
  /** The engine's events once delivered (handled_events keeps their ids against redelivery). */
  billingEventsDelivered: 30,
  /**
   * The engine's invoices, and then ended subscriptions and customers with nothing left: tax
   * records (UAE VAT: five years from the end of the tax period, which can last a year).
   */
  accounting: 6 * 365 + 2,
  /** Accounts (and so their sessions and codes) after the client's last subscription ended. */
  accountsWithoutSubscription: 3 * 365 + 1,
} as const;

/** What a rule may ask beyond the database: whether billing has a running subscription for a customer. */
export interface RetentionDeps {
  subscribed(customerId: string): Promise<boolean>;
}

const billingDeps = (): RetentionDeps => ({
  subscribed: async (customerId) => (await billing().getSubscription(customerId)) !== null,
});

/** Rows a statement touches at most. */
export const BATCH = 500;
/** Statements a rule runs at most in one run (10,000 rows). */
export const MAX_BATCHES = 20;

async function inBatches(step: () => Promise<number>): Promise<number> {
  let total = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const n = await step();
    total += n;
    if (n < BATCH) break;
  }
  return total;
}

/** Deletes up to BATCH rows of `table` matching `where` (rows picked by the index `where` reads). */
async function deleteBatch(db: Db, table: PgTable, where: SQL): Promise<number> {
  const result = await db.execute<{ n: number }>(sql`
    with gone as (
      delete from ${table}
      where ctid = any(array(select ctid from ${table} where ${where} limit ${BATCH}))
      returning 1
    )
    select count(*)::int as n from gone`);
  return Number(result.rows[0]?.n ?? 0);
}

/** Rows whose `column` is before `now` minus `days` (0: rows whose expiry has passed). */
const before = (column: PgColumn, now: Date, days = 0) => lt(column, new Date(now.getTime() - days * DAY));

/**
 * The body of a sent or dropped email is removed after 30 days. The scan starts where the last
 * complete one in this process ended (less a day), so a run reads the newly eligible rows, not
 * a year of emptied ones; the first run of a process reads them all once.
 */
const bodiesClearedBefore = new WeakMap<Db, Date>();

async function clearMailBodies(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - RETENTION_DAYS.mailBody * DAY);
  const from = bodiesClearedBefore.get(db);
  const eligible = and(
    lt(mailQueue.createdAt, cutoff),
    from ? sql`${mailQueue.createdAt} >= ${from}` : undefined,
    inArray(mailQueue.status, ['sent', 'dropped']),
    isNotNull(mailQueue.message),
  )!;
  let complete = false;
  const cleared = await inBatches(async () => {
    const result = await db.execute<{ n: number }>(sql`
      with emptied as (
        update ${mailQueue} set message = null
        where ctid = any(array(select ctid from ${mailQueue} where ${eligible} limit ${BATCH}))
        returning 1
      )
      select count(*)::int as n from emptied`);
    const n = Number(result.rows[0]?.n ?? 0);
    if (n < BATCH) complete = true;
    return n;
  });
  if (complete) bodiesClearedBefore.set(db, new Date(cutoff.getTime() - DAY));
  return cleared;
}

export interface RetentionRule {
  /** What it removes, for the job's log and the report. */
  name: string;
  run(db: Db, now: Date, deps: RetentionDeps): Promise<number>;
}

/**
 * One rule per kind of record the database holds. Confirmed newsletter sign-ups have none (kept
 * until the person unsubscribes or is erased); pending ones go when their last link expires,
 * unsubscribed ones 30 days after; accounts go three years after their last subscription.
 */
export const RETENTION_RULES: readonly RetentionRule[] = [
  {
    name: 'sign-in codes (expired)',
    run: (db, now) => inBatches(() => deleteBatch(db, signinCodes, before(signinCodes.expiresAt, now))),
  },
  {
    name: 'sessions (expired)',
    run: (db, now) => inBatches(() => deleteBatch(db, sessions, before(sessions.expiresAt, now))),
  },
  {
    name: 'rate-limit windows (ended)',
    run: (db, now) => inBatches(() => purgeExpiredLimits(db, now.getTime(), BATCH)),
  },
  {
    name: 'form tokens (expired)',
    run: (db, now) => inBatches(() => purgeExpiredFormTokens(db, now.getTime(), BATCH)),
  },
  {
    name: `newsletter sign-ups (never confirmed: ${CONFIRM_LINK_DAYS} days; unsubscribed: ${UNSUBSCRIBED_KEEP_DAYS} days)`,
    run: (db, now) => inBatches(() => deleteBatch(db, newsletterSignups, expiredSignups(now))),
  },
  {
    name: `emails (${RETENTION_DAYS.mailRow} days)`,
    run: (db, now) =>
      inBatches(() => deleteBatch(db, mailQueue, before(mailQueue.createdAt, now, RETENTION_DAYS.mailRow))),
  },
  // Rows first: an email past a year is deleted, not emptied and then deleted.
  { name: `email bodies (sent or dropped, ${RETENTION_DAYS.mailBody} days)`, run: clearMailBodies },
  {
    name: `handled billing events (${RETENTION_DAYS.handledEvents} days)`,
    run: (db, now) =>
      inBatches(() =>
        deleteBatch(db, handledEvents, before(handledEvents.handledAt, now, RETENTION_DAYS.handledEvents)),
      ),
  },
  {
    name: `renewal reminder markers (${RETENTION_DAYS.renewalReminders} days)`,
    run: (db, now) =>
      inBatches(() =>
        deleteBatch(db, renewalReminders, before(renewalReminders.queuedAt, now, RETENTION_DAYS.renewalReminders)),
      ),
  },
  {
    name: `FAQ questions (${RETENTION_DAYS.faqQuestions} days)`,
    run: (db, now) =>
      inBatches(() =>
        deleteBatch(db, faqQuestions, before(faqQuestions.submittedAt, now, RETENTION_DAYS.faqQuestions)),
      ),
  },
  {
    name: `cookie choices (${RETENTION_DAYS.consentRecords} days)`,
    run: (db, now) =>
      inBatches(() =>
        deleteBatch(db, consentRecords, before(consentRecords.recordedAt, now, RETENTION_DAYS.consentRecords)),
      ),
  },
  {
    name: `checkouts (not completed, ${RETENTION_DAYS.checkoutsOpen} days after expiry)`,
    run: (db, now) =>
      inBatches(() =>
        deleteBatch(
          db,
          billingCheckouts,
          and(
            before(billingCheckouts.expiresAt, now, RETENTION_DAYS.checkoutsOpen),
            sql`${billingCheckouts.status} = 'open'`,
          )!,
        ),
      ),
  },
  {
    name: `checkouts (completed, ${RETENTION_DAYS.checkoutsComplete} days)`,
    run: (db, now) =>
      inBatches(() =>
        deleteBatch(db, billingCheckouts, before(billingCheckouts.expiresAt, now, RETENTION_DAYS.checkoutsComplete)),
      ),
  },
  {
    name: `billing events (delivered, ${RETENTION_DAYS.billingEventsDelivered} days)`,
    run: (db, now) =>
      inBatches(() =>
        deleteBatch(db, billingEvents, before(billingEvents.deliveredAt, now, RETENTION_DAYS.billingEventsDelivered)),
      ),
  },
  { name: `invoices, ended subscriptions and customers (${RETENTION_DAYS.accounting} days)`, run: expireAccounting },
  {
    name: `accounts (${RETENTION_DAYS.accountsWithoutSubscription} days after their last subscription ended)`,
    run: expireAccounts,
  },
];

/**
 * The engine's accounting records past their retention: invoices, then ended subscriptions with
 * no invoice left, then customers with no subscription, invoice or checkout left. Invoices are
 * one per client a month, so the invoice scan reads a small table; the others go by primary key.
 */
async function expireAccounting(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - RETENTION_DAYS.accounting * DAY);
  // A credit note is kept as long as an invoice (its own date counts); its invoice waits for it.
  const creditNotes = await inBatches(() =>
    deleteBatch(db, billingCreditNotes, sql`${billingCreditNotes.createdAt} < ${cutoff}`),
  );
  const invoices = await inBatches(() =>
    deleteBatch(
      db,
      billingInvoices,
      sql`${billingInvoices.createdAt} < ${cutoff}
        and not exists (select 1 from ${billingCheckouts} c where c.result_invoice_id = ${billingInvoices.id})
        and not exists (select 1 from ${billingCreditNotes} n where n.invoice_id = ${billingInvoices.id})`,
    ),
  );
  const subscriptions = await inBatches(() =>
    deleteBatch(
      db,
      billingSubscriptions,
      sql`${billingSubscriptions.status} = 'canceled' and ${billingSubscriptions.endedAt} < ${cutoff}
        and not exists (select 1 from ${billingInvoices} i where i.subscription_id = ${billingSubscriptions.id})
        and not exists (select 1 from ${billingCheckouts} c where c.result_subscription_id = ${billingSubscriptions.id})`,
    ),
  );
  const customers = await inBatches(() =>
    deleteBatch(
      db,
      billingCustomers,
      sql`${billingCustomers.createdAt} < ${cutoff}
        and not exists (select 1 from ${billingSubscriptions} s where s.customer_id = ${billingCustomers.id})
        and not exists (select 1 from ${billingInvoices} i where i.customer_id = ${billingCustomers.id})
        and not exists (select 1 from ${billingCheckouts} c
          where c.customer_id = ${billingCustomers.id} or c.result_customer_id = ${billingCustomers.id})`,
    ),
  );
  return creditNotes + invoices + subscriptions + customers;
}

/**
 * Accounts whose client's last subscription ended three years ago: billing is asked first (an
 * event may have come out of order, or been missed), and an account with a running subscription
 * is kept and its mark cleared. Deleting an account deletes its sessions and codes (cascade).
 */
async function expireAccounts(db: Db, now: Date, deps: RetentionDeps): Promise<number> {
  const cutoff = new Date(now.getTime() - RETENTION_DAYS.accountsWithoutSubscription * DAY);
  let removed = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const due = await db
      .select({ customerId: accounts.customerId })
      .from(accounts)
      .where(lt(accounts.subscriptionEndedAt, cutoff))
      .limit(BATCH);
    // One account at a time, its deletion right after billing's answer (a client who subscribes
    // again meanwhile is kept), and never while the embedded engine has a running subscription.
    for (const { customerId } of due) {
      if (await deps.subscribed(customerId)) {
        await db.update(accounts).set({ subscriptionEndedAt: null }).where(eq(accounts.customerId, customerId));
        continue;
      }
      const deleted = await db
        .delete(accounts)
        .where(
          and(
            eq(accounts.customerId, customerId),
            lt(accounts.subscriptionEndedAt, cutoff),
            sql`not exists (select 1 from ${billingSubscriptions} s
              where s.customer_id = ${accounts.customerId} and s.status <> 'canceled')`,
          ),
        )
        .returning({ customerId: accounts.customerId });
      removed += deleted.length;
    }
    if (due.length < BATCH) break;
  }
  return removed;
}

/** Runs every rule once; returns what each removed (rules that removed nothing are left out). */
export async function enforceRetention(
  db: Db,
  now = new Date(),
  deps: RetentionDeps = billingDeps(),
): Promise<Record<string, number>> {
  const removed: Record<string, number> = {};
  for (const rule of RETENTION_RULES) {
    const n = await rule.run(db, now, deps);
    if (n > 0) removed[rule.name] = n;
  }
  return removed;
}
