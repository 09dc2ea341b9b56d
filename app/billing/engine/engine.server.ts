import { and, asc, desc, eq, gt, inArray, isNull, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  billingCheckouts,
  billingClock,
  billingCreditNotes,
  billingCustomers,
  billingEvents,
  billingInvoices,
  billingSubscriptions,
  type BillingCard,
} from '~/db/schema.server';
import type { Db, Tx } from '~/db/types.server';
import type { Locale } from '~/i18n';
import { parseEmailAddress } from '~/lib/email';
import {
  BillingError,
  isPlanKey,
  type BillingEvent,
  type BillingPlan,
  type BillingProvider,
  type CheckoutRequest,
  type CreditNoteSummary,
  type Customer,
  type IssuedCreditNote,
  type InvoiceView,
  type PlanKey,
  type SubscriptionView,
} from '../types';
import { periodBounds } from './calendar';
import { checkCard, CheckoutError, normalizeCardNumber, type AcceptedCard } from './cards';
import { buildDemo } from './demo';
import { isId, newId, randomBase62 } from './ids.server';
import {
  checkoutView,
  customerView,
  invoiceView,
  localeOf,
  scheduledChangeOf,
  subscriptionView,
  type CheckoutRow,
  type CheckoutView,
  type CustomerRow,
  type InvoiceRow,
  type SubscriptionRow,
} from './rows.server';
import {
  recordEvents,
  takeCreditNoteNumber,
  takeInvoiceNumber,
  uniqueViolation,
  type EventBody,
  type Queryable,
} from './transaction.server';

import type { TaxProfile } from '../tax/profile';
import { addressLines, countryName, type BillingDetails } from '../tax/details';
import { buildCreditNote, checkReason, CreditNoteError, type CreditNoteSnapshot } from '../tax/credit-note';
import { rateInForce } from '../tax/rates.server';
import {
  buildSnapshot,
  completeSnapshot,
  DEMO_FIXTURE_RATE,
  needsAed,
  type Bilingual,
  type ExchangeRateUsed,
  type InvoiceSnapshot,
} from '../tax/snapshot';

export { CheckoutError, type CheckoutField, type DeclineCode } from './cards';
export type { CheckoutView } from './rows.server';
export { DEMO_CLIENT_EMAIL, DEMO_FORMER_EMAIL, DEMO_EMAILS } from './demo';

/** A credit note row as the provider shows it. */
function creditNoteSummary(
  row: Pick<
    typeof billingCreditNotes.$inferSelect,
    'id' | 'number' | 'customerId' | 'invoiceId' | 'amount' | 'createdAt' | 'snapshot'
  >,
  invoiceNumber: string,
): CreditNoteSummary {
  return {
    id: row.id,
    number: row.number,
    customerId: row.customerId,
    invoiceId: row.invoiceId,
    invoiceNumber,
    amount: row.amount,
    currency: 'sgd',
    created: row.createdAt.toISOString(),
    reason: row.snapshot.reason,
    pdfUrl: null,
  };
}

/** The engine's database: the Db itself, or how to get it (the process's database is opened on first use). */
export type BillingDatabase = Db | (() => Promise<Db>);

export interface EmbeddedBillingOptions {
  /** Prices per plan, from the CMS. */
  plans: () => Promise<BillingPlan[]>;
  log?: (message: string) => void;
  /** Real time (default Date.now); the engine's clock adds its durable offset to it. */
  now?: () => number;
  /** How long a claimed event is this dispatcher's before another may claim it (default 5 minutes). */
  eventLeaseMs?: number;
  /**
   * Tax invoices: the issuing entity's profile and the plans' names in both languages. Each
   * invoice issued then carries its snapshot (app/billing/tax/snapshot.ts); without this option
   * invoices are issued as before tax invoices (no snapshot).
   */
  tax?: EngineTaxOptions;
}

export interface EngineTaxOptions {
  profile: TaxProfile;
  /** The plan's name in English and Arabic (read from the CMS's cached published content). */
  describe: (plan: PlanKey) => Promise<Bilingual>;
}

export interface CheckoutInput {
  email: string;
  name: string;
  company: string | null;
  cardNumber: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  /**
   * A card this engine already accepted for this checkout (`checkPayment`), used instead of the
   * card fields when the payment is completed after the payer confirmed their address.
   */
  acceptedCard?: AcceptedCard;
  /**
   * Whether the payment may attach to a customer that already exists (the checkout's signed-in
   * customer, or the customer with this email). Off unless the caller has proven the payer is
   * that customer (their session, or a code emailed to the address): paying is never a way
   * into someone else's account.
   */
  allowExistingCustomer?: boolean;
  /**
   * The client's billing details given at checkout (already checked by the caller), recorded on
   * the customer in the same transaction, so the first invoice's snapshot carries them. None:
   * an existing customer keeps theirs.
   */
  billingDetails?: BillingDetails | null;
}

/** What `checkPayment` accepted: the card as the engine keeps it, for `completeCheckout` later. */
export interface CheckedPayment {
  email: string;
  name: string;
  company: string | null;
  card: AcceptedCard;
  plan: PlanKey;
  locale: Locale;
}

export interface CheckoutResult {
  customer: Customer;
  subscription: SubscriptionView;
  invoice: InvoiceView;
}

export interface DueReport {
  /** Periods renewed and paid. */
  renewed: number;
  /** Scheduled plan changes that took effect. */
  changed: number;
  /** Cancelling subscriptions that ended. */
  ended: number;
  /** Renewals whose payment failed (invoice left open, subscription past_due). */
  failed: number;
}

/** Operations the test-only failure switch can break. */
export type FailureOp = 'listInvoices';

const CHECKOUT_TTL_MS = 24 * 60 * 60 * 1000;
/** Most periods one subscription catches up in one run (50 years of months). */
const MAX_CATCH_UP = 600;
/** Due subscriptions read per query by `runDue`. */
const DUE_BATCH = 100;
/** Most subscriptions `listRenewing` answers (as the Stripe adapter): the reminder job runs again later. */
const RENEWING_MAX = 2000;
const DEFAULT_EVENT_LEASE_MS = 5 * 60 * 1000;
/** Attempts of a change that found its subscription's period ended (each settles it first). */
const SETTLE_ATTEMPTS = 4;

const notFound = (what: string) => new BillingError('not_found', `No such ${what}`);
const busy = () => new BillingError('unavailable', 'Billing is busy, please try again');

/** No scheduled change: the three columns of one, cleared. */
const NO_SCHEDULE = { scheduledPlan: null, scheduledEffectiveAt: null, scheduledRequestRef: null } as const;

type SubscriptionPrevious = Extract<BillingEvent, { type: 'customer.subscription.updated' }>['previous'];
type SubscriptionChange = { set: Partial<SubscriptionRow>; previous: SubscriptionPrevious } | null;
/** Prices in cents per plan (null: not offered), or null when the CMS could not be read. */
type PriceTable = ((plan: PlanKey) => number | null) | null;

/** The payer's email (lower case), name and company, checked (CheckoutError on a bad email or no name). */
function payer(input: Pick<CheckoutInput, 'email' | 'name' | 'company'>) {
  const email = parseEmailAddress(input.email);
  const name = String(input.name ?? '')
    .trim()
    .slice(0, 200);
  if (!email) throw new CheckoutError('invalid_request', 'email', 'The email address is not valid.');
  if (!name) throw new CheckoutError('invalid_request', 'name', 'The name is missing.');
  return { email, name, company: input.company?.trim().slice(0, 200) || null };
}

/** A card accepted earlier (`checkPayment`), as the caller kept it: only its known fields, checked. */
function acceptedCard(card: AcceptedCard): BillingCard {
  const { brand, last4, expMonth, expYear, renewals } = card;
  if (
    typeof brand !== 'string' ||
    brand.length > 40 ||
    !/^\d{4}$/.test(String(last4)) ||
    !Number.isInteger(expMonth) ||
    !Number.isInteger(expYear) ||
    (renewals !== 'succeed' && renewals !== 'fail')
  )
    throw new CheckoutError('invalid_request', 'number', 'The card is not valid.');
  return { brand, last4, expMonth, expYear, renewals };
}

/**
 * The embedded billing engine: Stripe's behaviour for this product (customers, monthly
 * subscriptions, schedules, invoices, a local checkout with Stripe's test cards, a movable
 * clock like Stripe's test clocks and an event outbox), its state in the database's `billing_*`
 * tables (app/db/schema.server.ts), on PGlite or PostgreSQL alike.
 *
 * Every state change is ONE transaction that locks the row it changes (`select … for no key
 * update` on the checkout, the customer or the subscription), computes the next state from what
 * it holds and writes it with its invoice number (the year's counter row, locked by the same
 * transaction) and its events. Concurrent requests and jobs, in this process or another on the
 * same database, wait for each other instead of retrying; unique constraints (one customer per
 * address, one current subscription per customer, one invoice per period, one number per
 * invoice) hold the rest. The row lock is `no key update` so that another transaction's
 * foreign-key check on the same row (which takes `key share`) does not wait for it.
 */
export class EmbeddedBilling implements BillingProvider {
  readonly kind = 'embedded' as const;
  private readonly database: BillingDatabase;
  private readonly plans: () => Promise<BillingPlan[]>;
  private readonly log: (message: string) => void;
  private readonly realNow: () => number;
  private readonly eventLeaseMs: number;
  private readonly tax: EngineTaxOptions | null;
  /** The test-only failure switch: in memory, per process; the portal exposes it only behind its test flag. */
  private failure: FailureOp | null = null;

  constructor(database: BillingDatabase, options: EmbeddedBillingOptions) {
    this.database = database;
    this.plans = options.plans;
    this.log = options.log ?? (() => {});
    this.realNow = options.now ?? Date.now;
    this.eventLeaseMs = options.eventLeaseMs ?? DEFAULT_EVENT_LEASE_MS;
    this.tax = options.tax ?? null;
  }

  private db(): Promise<Db> {
    return typeof this.database === 'function' ? this.database() : Promise.resolve(this.database);
  }

  // ------------------------------------------------------------------------------ clock

  /** Real time plus the clock's durable offset, read with `q` (inside a transaction: that transaction). */
  private async nowIn(q: Queryable): Promise<Date> {
    const [clock] = await q
      .select({ offsetMs: billingClock.offsetMs })
      .from(billingClock)
      .where(eq(billingClock.id, 1));
    return new Date(this.realNow() + (clock?.offsetMs ?? 0));
  }

  /** Real time plus the clock's durable offset (zero until the clock is advanced). */
  async now(): Promise<Date> {
    return this.nowIn(await this.db());
  }

  /** Moves the billing clock forward by `ms` (never back) and returns the new time. Run `runDue` to act on it. */
  async advanceClock(ms: number): Promise<Date> {
    if (!Number.isFinite(ms) || ms < 0) throw new BillingError('invalid_request', 'The clock only moves forward');
    const db = await this.db();
    // One statement: concurrent advances add up.
    const [clock] = await db
      .insert(billingClock)
      .values({ id: 1, offsetMs: Math.round(ms) })
      .onConflictDoUpdate({
        target: billingClock.id,
        set: { offsetMs: sql`${billingClock.offsetMs} + excluded.offset_ms` },
      })
      .returning({ offsetMs: billingClock.offsetMs });
    const now = new Date(this.realNow() + clock.offsetMs);
    this.log(`clock advanced by ${Math.round(ms)} ms to ${now.toISOString()}`);
    return now;
  }

  // ------------------------------------------------------------------------------ reads

  async getCustomer(customerId: string): Promise<Customer | null> {
    if (!isId('cus', customerId)) return null;
    const [row] = await (await this.db()).select().from(billingCustomers).where(eq(billingCustomers.id, customerId));
    return row ? customerView(row) : null;
  }

  async findCustomerByEmail(email: string): Promise<Customer | null> {
    const row = await this.customerByEmail(await this.db(), email);
    return row ? customerView(row) : null;
  }

  async getSubscription(customerId: string): Promise<SubscriptionView | null> {
    if (!isId('cus', customerId)) return null;
    const row = await this.currentSubscription(await this.db(), customerId);
    return row ? subscriptionView(row) : null;
  }

  /** Newest first, a page at a time (keyset: the page after `startingAfter`, by the customer's index). */
  async getInvoiceTax(customerId: string, invoiceId: string): Promise<InvoiceSnapshot | null> {
    if (!isId('cus', customerId) || !isId('in', invoiceId)) return null;
    const [row] = await (
      await this.db()
    )
      .select({ tax: billingInvoices.tax })
      .from(billingInvoices)
      .where(and(eq(billingInvoices.id, invoiceId), eq(billingInvoices.customerId, customerId)));
    return row?.tax ?? null;
  }

  async listInvoices(
    customerId: string,
    page: { limit: number; startingAfter?: string },
  ): Promise<{ invoices: InvoiceView[]; hasMore: boolean }> {
    if (this.failure === 'listInvoices')
      throw new BillingError('unavailable', 'Invoices are unavailable (test failure switch)');
    if (!isId('cus', customerId)) return { invoices: [], hasMore: false };
    if (page.startingAfter !== undefined && !isId('in', page.startingAfter)) return { invoices: [], hasMore: false };
    const limit = Math.max(1, Math.min(100, Math.floor(page.limit) || 10));
    const t = billingInvoices;
    // The cursor must be this customer's invoice; otherwise the comparison is with nothing (null) and no row matches.
    const after = page.startingAfter
      ? sql`(${t.createdAt}, ${t.sequence}) < (select c.created_at, c.sequence from billing_invoices c
          where c.id = ${page.startingAfter} and c.customer_id = ${customerId})`
      : undefined;
    const rows = await (
      await this.db()
    )
      .select()
      .from(t)
      .where(and(eq(t.customerId, customerId), after))
      .orderBy(desc(t.createdAt), desc(t.sequence))
      .limit(limit + 1);
    return { invoices: rows.slice(0, limit).map(invoiceView), hasMore: rows.length > limit };
  }

  async getInvoice(customerId: string, invoiceId: string): Promise<InvoiceView | null> {
    if (!isId('cus', customerId) || !isId('in', invoiceId)) return null;
    const [row] = await (
      await this.db()
    )
      .select()
      .from(billingInvoices)
      .where(and(eq(billingInvoices.id, invoiceId), eq(billingInvoices.customerId, customerId)));
    return row ? invoiceView(row) : null;
  }

  /** Active, not cancelling, renewing before `before`; soonest first, at most 2,000 (the job runs again later). */
  async listRenewing(before: Date): Promise<SubscriptionView[]> {
    const t = billingSubscriptions;
    const rows = await (
      await this.db()
    )
      .select()
      .from(t)
      .where(
        and(
          // Implied by `active`; said so the due index (on subscriptions that have not ended) serves it.
          ne(t.status, 'canceled'),
          eq(t.status, 'active'),
          eq(t.cancelAtPeriodEnd, false),
          lt(t.currentPeriodEnd, before),
        ),
      )
      .orderBy(asc(t.currentPeriodEnd), asc(t.id))
      .limit(RENEWING_MAX);
    return rows.map(subscriptionView);
  }

  // ------------------------------------------------------------------------------ subscription changes

  /** Schedules `plan` for the next billing date (no proration). The current plan withdraws a scheduled change; the same target again changes nothing. */
  async changePlan(customerId: string, subscriptionId: string, plan: PlanKey): Promise<SubscriptionView> {
    if (!isPlanKey(plan)) throw new BillingError('invalid_request', `Unknown plan ${String(plan)}`);
    if ((await this.priceCents(plan)) === null)
      throw new BillingError('invalid_request', `The plan ${plan} is not offered`);
    return this.updateSubscription(customerId, subscriptionId, (sub, now) => {
      if (sub.status === 'canceled') throw new BillingError('invalid_state', 'The subscription has ended');
      if (sub.cancelAtPeriodEnd)
        throw new BillingError('invalid_state', 'The subscription is cancelling; resume it before changing the plan');
      const scheduled = scheduledChangeOf(sub);
      if (plan === sub.plan) return scheduled ? { set: NO_SCHEDULE, previous: { scheduledChange: scheduled } } : null;
      if (scheduled?.plan === plan) return null;
      return {
        set: {
          scheduledPlan: plan,
          scheduledEffectiveAt: sub.currentPeriodEnd,
          scheduledRequestRef: now.toISOString(),
        },
        previous: { scheduledChange: scheduled },
      };
    });
  }

  async withdrawChange(customerId: string, subscriptionId: string): Promise<SubscriptionView> {
    return this.updateSubscription(customerId, subscriptionId, (sub) => {
      const scheduled = scheduledChangeOf(sub);
      return scheduled ? { set: NO_SCHEDULE, previous: { scheduledChange: scheduled } } : null;
    });
  }

  /** Cancels at the period end and releases a scheduled change. A second cancel changes nothing. */
  async cancel(customerId: string, subscriptionId: string): Promise<SubscriptionView> {
    return this.updateSubscription(customerId, subscriptionId, (sub, now) => {
      if (sub.status === 'canceled') throw new BillingError('invalid_state', 'The subscription has ended');
      if (sub.cancelAtPeriodEnd) return null;
      const scheduled = scheduledChangeOf(sub);
      return {
        set: { cancelAtPeriodEnd: true, canceledAt: now, ...NO_SCHEDULE },
        previous: { cancelAtPeriodEnd: false, ...(scheduled ? { scheduledChange: scheduled } : {}) },
      };
    });
  }

  /** Undoes a cancellation while the period runs; after its end the subscription has ended (invalid_state). */
  async resume(customerId: string, subscriptionId: string): Promise<SubscriptionView> {
    return this.updateSubscription(customerId, subscriptionId, (sub, now) => {
      if (sub.status === 'canceled' || now.getTime() >= sub.currentPeriodEnd.getTime())
        throw new BillingError('invalid_state', 'The subscription has ended');
      if (!sub.cancelAtPeriodEnd) return null;
      return { set: { cancelAtPeriodEnd: false, canceledAt: null }, previous: { cancelAtPeriodEnd: true } };
    });
  }

  /**
   * One change of one customer's subscription, with its `customer.subscription.updated` event,
   * in one transaction holding the subscription's row lock: concurrent changes wait for it and
   * then see its result (a second cancel finds the subscription cancelling and changes nothing).
   * A period that ended by the clock is settled first (renewal or end, in its own transactions),
   * so the change applies to the subscription as it is now. `change` returns null when there is
   * nothing to do.
   */
  private async updateSubscription(
    customerId: string,
    subscriptionId: string,
    change: (sub: SubscriptionRow, now: Date) => SubscriptionChange,
  ): Promise<SubscriptionView> {
    if (!isId('cus', customerId) || !isId('sub', subscriptionId)) throw notFound('subscription');
    const db = await this.db();
    for (let attempt = 1; ; attempt++) {
      const outcome = await db.transaction(async (tx) => {
        const [sub] = await tx
          .select()
          .from(billingSubscriptions)
          .where(and(eq(billingSubscriptions.id, subscriptionId), eq(billingSubscriptions.customerId, customerId)))
          .for('no key update');
        if (!sub) throw notFound('subscription');
        const now = await this.nowIn(tx);
        if (sub.status !== 'canceled' && now.getTime() >= sub.currentPeriodEnd.getTime())
          return 'settle first' as const;
        const result = change(sub, now);
        if (!result) return { view: subscriptionView(sub), changed: null };
        const [next] = await tx
          .update(billingSubscriptions)
          .set(result.set)
          .where(eq(billingSubscriptions.id, subscriptionId))
          .returning();
        const view = subscriptionView(next);
        await recordEvents(tx, now, [
          { type: 'customer.subscription.updated', subscription: view, previous: result.previous },
        ]);
        return { view, changed: result.previous };
      });
      if (outcome !== 'settle first') {
        if (outcome.changed)
          this.log(`subscription ${subscriptionId} updated: ${Object.keys(outcome.changed).join(', ')}`);
        return outcome.view;
      }
      if (attempt >= SETTLE_ATTEMPTS) throw busy();
      await this.settle(subscriptionId, { skipLocked: false });
    }
  }

  // ------------------------------------------------------------------------------ checkout

  /** Opens a local checkout for one plan, valid 24 hours; its page is on this site. */
  async startCheckout(request: CheckoutRequest): Promise<{ url: string }> {
    if (!isPlanKey(request.plan)) throw new BillingError('invalid_request', `Unknown plan ${String(request.plan)}`);
    const amount = await this.priceCents(request.plan);
    if (amount === null) throw new BillingError('invalid_request', `The plan ${request.plan} is not offered`);
    if (String(request.successUrl).length > 2048 || String(request.cancelUrl).length > 2048)
      throw new BillingError('invalid_request', 'The return address is too long');
    const locale: Locale = request.locale === 'ar' ? 'ar' : 'en';
    const db = await this.db();
    const customer =
      request.customerId && isId('cus', request.customerId)
        ? ((await db.select().from(billingCustomers).where(eq(billingCustomers.id, request.customerId)))[0] ?? null)
        : null;
    const typed = request.email?.trim().toLowerCase();
    const email = (typed && typed.length <= 254 ? typed : null) || customer?.email || null;
    const now = await this.nowIn(db);
    const id = newId('cs');
    await db.insert(billingCheckouts).values({
      id,
      plan: request.plan,
      locale,
      amount,
      currency: 'sgd',
      status: 'open',
      customerId: customer?.id ?? null,
      email,
      successUrl: request.successUrl,
      cancelUrl: request.cancelUrl,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CHECKOUT_TTL_MS),
    });
    this.log(`checkout ${id} opened for ${request.plan}`);
    return { url: `${locale === 'ar' ? '/ar' : ''}/checkout/${id}` };
  }

  async getCheckout(id: string): Promise<CheckoutView | null> {
    if (!isId('cs', id)) return null;
    const db = await this.db();
    const [row] = await db.select().from(billingCheckouts).where(eq(billingCheckouts.id, id));
    return row ? checkoutView(row, await this.nowIn(db)) : null;
  }

  /**
   * Checks a payment for an open checkout without taking it: the checkout is open, the email and
   * name are valid and the card is accepted (a declined or invalid card throws CheckoutError).
   * Nothing is stored. The portal calls it before it asks the payer to confirm their address.
   */
  async checkPayment(id: string, input: CheckoutInput): Promise<CheckedPayment> {
    if (!isId('cs', id)) throw notFound('checkout');
    const db = await this.db();
    const now = await this.nowIn(db);
    const [checkout] = await db.select().from(billingCheckouts).where(eq(billingCheckouts.id, id));
    if (!checkout || checkout.status !== 'open') throw notFound('checkout');
    if (now.getTime() >= checkout.expiresAt.getTime()) throw new BillingError('not_found', 'The checkout has expired');
    const { email, name, company } = payer(input);
    return {
      email,
      name,
      company,
      card: checkCard(input, now),
      plan: checkout.plan as PlanKey,
      locale: localeOf(checkout.locale),
    };
  }

  /**
   * Pays a local checkout with a test card. In ONE transaction, holding the checkout's row lock
   * (so one checkout completes once): the checkout completes, the customer is created (or, with
   * `allowExistingCustomer`, the signed-in one or the one with this email is reused, its row
   * locked; without it that is refused with `customer_exists` and nothing is stored), the
   * subscription starts (active, one month), the first invoice is paid with the next number, and
   * the events `customer.subscription.created`, `invoice.paid` and `checkout.session.completed`
   * are recorded. Concurrent checkouts for one new address: the unique address lets one insert
   * the customer; the others find it and are refused (or reuse it, when allowed). Completing it
   * again with the same email and card returns the same result; anyone else gets not_found,
   * like an expired or unknown checkout. A declined or invalid card (CheckoutError) stores
   * nothing. A customer with a current subscription gets invalid_state.
   */
  async completeCheckout(id: string, input: CheckoutInput): Promise<CheckoutResult> {
    if (!isId('cs', id)) throw notFound('checkout');
    const email = String(input.email ?? '')
      .trim()
      .toLowerCase();
    const last4 = input.acceptedCard?.last4 ?? normalizeCardNumber(String(input.cardNumber ?? ''))?.slice(-4);
    const db = await this.db();
    for (let attempt = 1; ; attempt++) {
      const outcome = await db
        .transaction(async (tx): Promise<{ done: CheckoutResult; replay: boolean } | { settle: string }> => {
          const [checkout] = await tx
            .select()
            .from(billingCheckouts)
            .where(eq(billingCheckouts.id, id))
            .for('no key update');
          if (!checkout) throw notFound('checkout');
          if (checkout.status === 'complete')
            return { done: await this.replayCheckout(tx, checkout, email, last4), replay: true };
          const now = await this.nowIn(tx);
          if (now.getTime() >= checkout.expiresAt.getTime())
            throw new BillingError('not_found', 'The checkout has expired');
          const { name, company } = payer(input);
          const card = input.acceptedCard ? acceptedCard(input.acceptedCard) : checkCard(input, now);

          let customer = checkout.customerId
            ? await this.lockCustomer(tx, eq(billingCustomers.id, checkout.customerId))
            : null;
          customer ??= await this.lockCustomer(tx, eq(billingCustomers.email, email));
          let isNew = false;
          if (!customer) {
            // The unique address decides between concurrent checkouts: one inserts, the others
            // wait for it and find its customer.
            const [inserted] = await tx
              .insert(billingCustomers)
              .values({
                id: newId('cus'),
                email,
                name,
                company,
                locale: checkout.locale,
                card,
                billingDetails: input.billingDetails ?? null,
                createdAt: now,
              })
              .onConflictDoNothing()
              .returning();
            if (inserted) {
              customer = inserted;
              isNew = true;
            } else customer = await this.lockCustomer(tx, eq(billingCustomers.email, email));
            if (!customer) throw busy();
          }
          if (!isNew && !input.allowExistingCustomer)
            throw new BillingError('customer_exists', 'The payment would attach to an existing customer');
          if (!isNew) {
            const current = await this.currentSubscription(tx, customer.id);
            if (current) {
              // A subscription whose last period has passed is settled first; it may have ended.
              if (now.getTime() >= current.currentPeriodEnd.getTime()) return { settle: current.id };
              throw new BillingError('invalid_state', 'This customer already has a subscription');
            }
            const details = input.billingDetails ? { billingDetails: input.billingDetails } : {};
            await tx
              .update(billingCustomers)
              .set({ card, ...details })
              .where(eq(billingCustomers.id, customer.id));
            customer = { ...customer, card, ...details };
          }

          const period = periodBounds(now, 1);
          const sub: SubscriptionRow = {
            id: newId('sub'),
            customerId: customer.id,
            plan: checkout.plan,
            amount: checkout.amount,
            currency: 'sgd',
            status: 'active',
            billingAnchor: now,
            periodIndex: 1,
            currentPeriodStart: period.start,
            currentPeriodEnd: period.end,
            cancelAtPeriodEnd: false,
            canceledAt: null,
            endedAt: null,
            ...NO_SCHEDULE,
            card,
            createdAt: now,
          };
          await tx.insert(billingSubscriptions).values(sub);
          const invoice = await this.issueInvoice(tx, sub, now, 'paid');
          await tx
            .update(billingCheckouts)
            .set({
              status: 'complete',
              completedAt: now,
              customerId: customer.id,
              email: customer.email,
              resultCustomerId: customer.id,
              resultSubscriptionId: sub.id,
              resultInvoiceId: invoice.id,
            })
            .where(eq(billingCheckouts.id, id));
          const result = {
            customer: customerView(customer),
            subscription: subscriptionView(sub),
            invoice: invoiceView(invoice),
          };
          await recordEvents(tx, now, [
            { type: 'customer.subscription.created', subscription: result.subscription },
            { type: 'invoice.paid', invoice: result.invoice },
            {
              type: 'checkout.session.completed',
              customer: result.customer,
              subscriptionId: sub.id,
              invoiceId: invoice.id,
            },
          ]);
          return { done: result, replay: false };
        })
        .catch((error: unknown) => {
          if (error instanceof CheckoutError && error.code === 'card_declined')
            this.log(`checkout ${id}: card declined (${error.declineCode ?? 'declined'})`);
          // One current subscription per customer, held by the database even if two slipped past the lock.
          if (uniqueViolation(error) === 'billing_subscriptions_one_current_idx')
            throw new BillingError('invalid_state', 'This customer already has a subscription');
          throw error;
        });
      if ('done' in outcome) {
        const { customer, subscription, invoice } = outcome.done;
        if (!outcome.replay)
          this.log(
            `checkout ${id} completed: customer ${customer.id}, subscription ${subscription.id}, invoice ${invoice.number}`,
          );
        return outcome.done;
      }
      if (attempt >= SETTLE_ATTEMPTS) throw busy();
      await this.settle(outcome.settle, { skipLocked: false });
    }
  }

  /** The result of a completed checkout, for the same email and card only. */
  private async replayCheckout(
    q: Queryable,
    checkout: CheckoutRow,
    email: string,
    last4: string | undefined,
  ): Promise<CheckoutResult> {
    const { resultCustomerId, resultSubscriptionId, resultInvoiceId } = checkout;
    if (!resultCustomerId || !resultSubscriptionId || !resultInvoiceId) throw notFound('checkout');
    const [[customer], [sub], [invoice]] = await Promise.all([
      q.select().from(billingCustomers).where(eq(billingCustomers.id, resultCustomerId)),
      q.select().from(billingSubscriptions).where(eq(billingSubscriptions.id, resultSubscriptionId)),
      q.select().from(billingInvoices).where(eq(billingInvoices.id, resultInvoiceId)),
    ]);
    if (!customer || !sub || !invoice || customer.email !== email || sub.card?.last4 !== last4)
      throw new BillingError('not_found', 'The checkout is already complete');
    return { customer: customerView(customer), subscription: subscriptionView(sub), invoice: invoiceView(invoice) };
  }

  // ------------------------------------------------------------------------------ jobs

  /**
   * Acts on every subscription whose period has ended by the clock, one period per transaction
   * (so a clock moved by months catches up with one invoice per period): a cancelling one ends
   * (`customer.subscription.deleted`); any other renews, first taking a scheduled plan change,
   * with a new invoice: paid (`invoice.paid`), or, when the card's charges fail (test card
   * 0341), left open with the subscription past_due (`invoice.payment_failed`); then
   * `customer.subscription.updated`. A past_due subscription keeps renewing each period the
   * same way (a new invoice each time; earlier open invoices stay open; payments are not
   * retried).
   *
   * Safe to run twice or concurrently, in one process or several: each period is settled in a
   * transaction that locks its subscription with `skip locked` (a subscription another run is
   * settling is left to that run, which goes on until it is up to date) and checks again, under
   * the lock, that the period is still due; one invoice per period is also a unique key. Due
   * subscriptions are read in pages of 100 by period end (an index), never all at once.
   */
  async runDue(): Promise<DueReport> {
    const db = await this.db();
    const now = await this.nowIn(db);
    const prices = await this.priceTable();
    const total: DueReport = { renewed: 0, changed: 0, ended: 0, failed: 0 };
    const t = billingSubscriptions;
    let cursor: { end: Date; id: string } | null = null;
    let firstError: unknown = null;
    for (;;) {
      const due: { id: string; end: Date }[] = await db
        .select({ id: t.id, end: t.currentPeriodEnd })
        .from(t)
        .where(
          and(
            ne(t.status, 'canceled'),
            lte(t.currentPeriodEnd, now),
            cursor
              ? or(gt(t.currentPeriodEnd, cursor.end), and(eq(t.currentPeriodEnd, cursor.end), gt(t.id, cursor.id)))
              : undefined,
          ),
        )
        .orderBy(asc(t.currentPeriodEnd), asc(t.id))
        .limit(DUE_BATCH);
      for (const { id } of due) {
        try {
          const report = await this.settle(id, { skipLocked: true, prices });
          for (const key of Object.keys(total) as (keyof DueReport)[]) total[key] += report[key];
        } catch (error) {
          this.log(`subscription ${id}: could not process its due periods: ${String(error)}`);
          firstError ??= error;
        }
      }
      if (due.length < DUE_BATCH) break;
      cursor = due[due.length - 1];
    }
    if (firstError) throw firstError;
    if (total.renewed || total.changed || total.ended || total.failed) this.log(`due: ${JSON.stringify(total)}`);
    return total;
  }

  /**
   * Brings one subscription up to the clock, one period per transaction. With `skipLocked`, a
   * subscription whose row another transaction holds is left to it (that one goes on until the
   * subscription is up to date); without, this waits for it.
   */
  private async settle(
    subscriptionId: string,
    options: { skipLocked: boolean; prices?: PriceTable },
  ): Promise<DueReport> {
    const report: DueReport = { renewed: 0, changed: 0, ended: 0, failed: 0 };
    const db = await this.db();
    const prices = options.prices !== undefined ? options.prices : await this.priceTable();
    for (let step = 0; step < MAX_CATCH_UP; step++) {
      const done = await db.transaction(async (tx) => {
        const locking = tx
          .select()
          .from(billingSubscriptions)
          .where(and(eq(billingSubscriptions.id, subscriptionId), ne(billingSubscriptions.status, 'canceled')));
        const [sub] = await (options.skipLocked
          ? locking.for('no key update', { skipLocked: true })
          : locking.for('no key update'));
        if (!sub) return null;
        return this.settleOnePeriod(tx, sub, await this.nowIn(tx), prices);
      });
      if (!done) break;
      for (const key of done) report[key] += 1;
    }
    return report;
  }

  /** Ends or renews the locked subscription if its period has ended by `now`; null when nothing is due. */
  private async settleOnePeriod(
    tx: Tx,
    sub: SubscriptionRow,
    now: Date,
    prices: PriceTable,
  ): Promise<(keyof DueReport)[] | null> {
    if (sub.status === 'canceled' || now.getTime() < sub.currentPeriodEnd.getTime()) return null;
    const t = billingSubscriptions;

    if (sub.cancelAtPeriodEnd) {
      const [ended] = await tx
        .update(t)
        .set({ status: 'canceled', endedAt: sub.currentPeriodEnd })
        .where(eq(t.id, sub.id))
        .returning();
      await recordEvents(tx, now, [{ type: 'customer.subscription.deleted', subscription: subscriptionView(ended) }]);
      this.log(`subscription ${sub.id} ended at ${sub.currentPeriodEnd.toISOString()}`);
      return ['ended'];
    }

    const counted: (keyof DueReport)[] = [];
    const scheduled = scheduledChangeOf(sub);
    const change =
      scheduled && sub.scheduledEffectiveAt && sub.scheduledEffectiveAt.getTime() <= sub.currentPeriodEnd.getTime()
        ? scheduled
        : null;
    let amount = sub.amount;
    if (change) {
      if (!prices) throw new BillingError('unavailable', 'The plans could not be read for a scheduled change');
      amount = prices(change.plan) ?? sub.amount;
      counted.push('changed');
    }
    const plan = change?.plan ?? (sub.plan as PlanKey);
    const index = sub.periodIndex + 1;
    const period = periodBounds(sub.billingAnchor, index);
    const fails = sub.card?.renewals === 'fail';
    const [next] = await tx
      .update(t)
      .set({
        plan,
        amount,
        periodIndex: index,
        currentPeriodStart: period.start,
        currentPeriodEnd: period.end,
        status: fails ? 'past_due' : 'active',
        ...(change ? NO_SCHEDULE : {}),
      })
      .where(eq(t.id, sub.id))
      .returning();
    // The renewal invoice is issued when the new period starts.
    const invoice = await this.issueInvoice(tx, next, period.start, fails ? 'open' : 'paid');
    const previous: SubscriptionPrevious = { currentPeriodEnd: sub.currentPeriodEnd.toISOString() };
    if (plan !== sub.plan) previous.plan = sub.plan as PlanKey;
    if (next.status !== sub.status) previous.status = sub.status as SubscriptionView['status'];
    if (change) previous.scheduledChange = change;
    const events: EventBody[] = [
      fails
        ? { type: 'invoice.payment_failed', invoice: invoiceView(invoice) }
        : { type: 'invoice.paid', invoice: invoiceView(invoice) },
      { type: 'customer.subscription.updated', subscription: subscriptionView(next), previous },
    ];
    await recordEvents(tx, now, events);
    counted.push(fails ? 'failed' : 'renewed');
    this.log(
      `subscription ${sub.id} renewed to ${next.currentPeriodEnd.toISOString()} on ${plan}: invoice ${invoice.number} ${invoice.status}`,
    );
    return counted;
  }

  /** The invoice of the subscription's current period, numbered from the year's counter in this transaction. */
  private async issueInvoice(
    tx: Tx,
    sub: SubscriptionRow,
    created: Date,
    status: 'paid' | 'open',
  ): Promise<InvoiceRow> {
    const tax = await this.taxSnapshot(
      tx,
      { ...sub, periodStart: sub.currentPeriodStart, periodEnd: sub.currentPeriodEnd },
      created,
    );
    const row: InvoiceRow = {
      id: newId('in'),
      ...(await takeInvoiceNumber(tx, created)),
      customerId: sub.customerId,
      subscriptionId: sub.id,
      status,
      plan: sub.plan,
      // The amount charged is the invoice's gross: with prices that exclude tax, price plus tax.
      amount: tax ? tax.totals.gross : sub.amount,
      currency: 'sgd',
      createdAt: created,
      periodStart: sub.currentPeriodStart,
      periodEnd: sub.currentPeriodEnd,
      paidAt: status === 'paid' ? created : null,
      tax,
    };
    await tx.insert(billingInvoices).values(row);
    if (tax?.status === 'waiting')
      this.log(
        `invoice ${row.number} waits for an SGD→AED rate for ${created.toISOString().slice(0, 10)} (npm run rates -- add …)`,
      );
    return row;
  }

  /** The tax snapshot of an invoice issued now for the subscription's current period, or null without tax options. */
  private async taxSnapshot(
    tx: Tx,
    sub: Pick<InvoiceRow, 'customerId' | 'plan' | 'amount' | 'periodStart' | 'periodEnd'>,
    supply: Date,
  ): Promise<InvoiceSnapshot | null> {
    if (!this.tax) return null;
    const [customer] = await tx.select().from(billingCustomers).where(eq(billingCustomers.id, sub.customerId));
    const details = customer?.billingDetails ?? null;
    const profile = this.tax.profile;
    return buildSnapshot({
      profile,
      client: {
        name: details?.legalName ?? customer?.name ?? '',
        company: details ? null : (customer?.company ?? null),
        email: customer?.email ?? '',
        address: details ? addressLines(details) : null,
        country: details?.country ?? null,
        ...(details ? { countryName: countryName(details.country) } : {}),
        registrationNumber: details?.registrationNumber ?? null,
      },
      lines: [
        {
          description: await this.tax.describe(sub.plan as PlanKey),
          plan: sub.plan as PlanKey,
          quantity: 1,
          price: sub.amount,
        },
      ],
      supplyDate: supply,
      periodStart: sub.periodStart,
      periodEnd: sub.periodEnd,
      now: supply,
      exchangeRate: needsAed(profile) ? await this.rateFor(tx, supply) : null,
    });
  }

  /** The SGD→AED rate in force on the day of supply; a demo profile falls back to its marked fixture rate. */
  private async rateFor(q: Queryable, supply: Date): Promise<ExchangeRateUsed | null> {
    const recorded = await rateInForce(q, 'SGD', supply);
    if (recorded || !this.tax?.profile.demo) return recorded;
    return { ...DEMO_FIXTURE_RATE, date: supply.toISOString().slice(0, 10) };
  }

  /**
   * Completes the invoices that wait for an exchange rate, now that one may be recorded: each
   * gets the rate in force on its date of supply and its issue date (the engine's clock). Returns
   * the invoices still waiting, oldest first, for the jobs' report and the operator's email.
   */
  async completeWaitingInvoices(): Promise<{ completed: string[]; waiting: { number: string; supplyDate: string }[] }> {
    const db = await this.db();
    const t = billingInvoices;
    const rows = await db
      .select({ id: t.id })
      .from(t)
      .where(sql`${t.tax} ->> 'status' = 'waiting'`)
      .orderBy(asc(t.createdAt))
      .limit(500);
    const completed: string[] = [];
    const waiting: { number: string; supplyDate: string }[] = [];
    for (const { id } of rows) {
      await db.transaction(async (tx) => {
        const [row] = await tx.select().from(t).where(eq(t.id, id)).for('no key update');
        if (!row?.tax || row.tax.status !== 'waiting') return;
        const rate = await this.rateFor(tx, new Date(row.tax.supplyDate));
        if (!rate) {
          waiting.push({ number: row.number, supplyDate: row.tax.supplyDate.slice(0, 10) });
          return;
        }
        const tax = completeSnapshot(row.tax, rate, await this.nowIn(tx));
        await tx.update(t).set({ tax }).where(eq(t.id, id));
        completed.push(row.number);
        this.log(`invoice ${row.number} issued with the AED rate ${rate.rate} of ${rate.date} (${rate.source})`);
      });
    }
    return { completed, waiting };
  }

  /** The client's billing details, or null when they have given none yet (a client from before they were asked). */
  async getBillingDetails(customerId: string): Promise<BillingDetails | null> {
    if (!isId('cus', customerId)) return null;
    const [row] = await (
      await this.db()
    )
      .select({ details: billingCustomers.billingDetails })
      .from(billingCustomers)
      .where(eq(billingCustomers.id, customerId));
    return row?.details ?? null;
  }

  /** Records the client's billing details for their future invoices (issued invoices keep theirs). */
  async setBillingDetails(customerId: string, details: BillingDetails | null): Promise<void> {
    if (!isId('cus', customerId)) throw notFound('customer');
    const updated = await (
      await this.db()
    )
      .update(billingCustomers)
      .set({ billingDetails: details })
      .where(eq(billingCustomers.id, customerId))
      .returning({ id: billingCustomers.id });
    if (!updated.length) throw notFound('customer');
  }

  // ------------------------------------------------------------------------------ credit notes

  /** Credit notes with the number of the invoice each corrects (what a summary shows). */
  private creditNotesWithInvoiceNumber(db: Db) {
    const c = billingCreditNotes;
    return db
      .select({ row: c, invoiceNumber: billingInvoices.number })
      .from(c)
      .innerJoin(billingInvoices, eq(billingInvoices.id, c.invoiceId))
      .$dynamic();
  }

  async listCreditNotes(customerId: string, invoiceIds: string[]): Promise<CreditNoteSummary[]> {
    const ids = invoiceIds.filter((id) => isId('in', id)).slice(0, 100);
    if (!isId('cus', customerId) || !ids.length) return [];
    const c = billingCreditNotes;
    const rows = await this.creditNotesWithInvoiceNumber(await this.db())
      .where(and(eq(c.customerId, customerId), inArray(c.invoiceId, ids)))
      .orderBy(asc(c.createdAt), asc(c.sequence));
    return rows.map(({ row, invoiceNumber }) => creditNoteSummary(row, invoiceNumber));
  }

  async getCreditNote(
    customerId: string,
    creditNoteId: string,
  ): Promise<{ note: CreditNoteSummary; snapshot: CreditNoteSnapshot } | null> {
    if (!isId('cus', customerId) || !isId('cn', creditNoteId)) return null;
    const c = billingCreditNotes;
    const [found] = await this.creditNotesWithInvoiceNumber(await this.db()).where(
      and(eq(c.id, creditNoteId), eq(c.customerId, customerId)),
    );
    return found ? { note: creditNoteSummary(found.row, found.invoiceNumber), snapshot: found.row.snapshot } : null;
  }

  /**
   * Credits an issued invoice in full, in one transaction: the invoice row is locked (so two
   * runs for it wait for each other), a note that exists already is returned as it is
   * (created: false), else the note takes the next CN number of its year, its snapshot copies
   * the invoice's, and an unpaid invoice becomes `void` (a paid one is refunded: the engine
   * holds no real money, so the note records it). The invoice's snapshot is never touched.
   */
  async issueCreditNote(invoiceNumber: string, reason: string): Promise<IssuedCreditNote> {
    const number = String(invoiceNumber ?? '')
      .trim()
      .toUpperCase();
    if (!/^[A-Z]{2,5}-\d{4}-\d{4,6}$/.test(number))
      throw new CreditNoteError(
        'not_found',
        `no invoice numbered ${JSON.stringify(invoiceNumber)} (e.g. BWB-2026-0001)`,
      );
    const text = checkReason(reason);
    const db = await this.db();
    return db.transaction(async (tx) => {
      const [invoice] = await tx
        .select()
        .from(billingInvoices)
        .where(eq(billingInvoices.number, number))
        .for('no key update');
      if (!invoice) throw new CreditNoteError('not_found', `no invoice numbered ${number}`);
      const [existing] = await tx.select().from(billingCreditNotes).where(eq(billingCreditNotes.invoiceId, invoice.id));
      if (existing) return { note: creditNoteSummary(existing, invoice.number), created: false };
      const now = await this.nowIn(tx);
      const taken = await takeCreditNoteNumber(tx, now);
      const snapshot = buildCreditNote({
        number: taken.number,
        now,
        reason: text,
        invoice: { number: invoice.number, tax: invoice.tax },
      });
      const row = {
        id: newId('cn'),
        ...taken,
        invoiceId: invoice.id,
        customerId: invoice.customerId,
        createdAt: now,
        amount: snapshot.credited.gross,
        outcome: invoice.status === 'paid' ? 'refunded' : 'voided',
        snapshot,
      };
      await tx.insert(billingCreditNotes).values(row);
      if (invoice.status === 'open')
        await tx.update(billingInvoices).set({ status: 'void' }).where(eq(billingInvoices.id, invoice.id));
      this.log(`credit note ${row.number} issued for invoice ${invoice.number} (${row.outcome})`);
      return { note: creditNoteSummary(row, invoice.number), created: true };
    });
  }

  async recentCreditNotes(limit: number): Promise<CreditNoteSummary[]> {
    const c = billingCreditNotes;
    const rows = await this.creditNotesWithInvoiceNumber(await this.db())
      .orderBy(desc(c.createdAt), desc(c.sequence))
      .limit(Math.max(1, Math.min(500, Math.floor(limit) || 30)));
    return rows.map(({ row, invoiceNumber }) => creditNoteSummary(row, invoiceNumber));
  }

  // ------------------------------------------------------------------------------ event outbox

  /** Recorded events not yet marked delivered, oldest first (a read: nothing is claimed). */
  async undeliveredEvents(limit: number): Promise<BillingEvent[]> {
    const n = Math.max(1, Math.min(1000, Math.floor(limit) || 50));
    const rows = await (
      await this.db()
    )
      .select({ event: billingEvents.event })
      .from(billingEvents)
      .where(isNull(billingEvents.deliveredAt))
      .orderBy(asc(billingEvents.seq))
      .limit(n);
    return rows.map((row) => row.event as unknown as BillingEvent);
  }

  /** Marks an event delivered; again, or for an unknown id, it does nothing. */
  async markDelivered(eventId: string): Promise<void> {
    if (!isId('evt', eventId)) return;
    await (
      await this.db()
    )
      .update(billingEvents)
      .set({ deliveredAt: new Date(this.realNow()), claimedBy: null, claimedUntil: null })
      .where(and(eq(billingEvents.id, eventId), isNull(billingEvents.deliveredAt)));
  }

  /**
   * Delivers up to `limit` undelivered events to `handle`, oldest first, each to one dispatcher
   * only: the batch is claimed in one statement (`for update skip locked`, so a concurrent
   * dispatcher, in this process or another, skips these rows and claims the next ones) with a
   * lease of `eventLeaseMs`; each event is marked delivered after `handle` returns. A claim whose
   * dispatcher died is claimed again once its lease has passed (so `handle` must be idempotent,
   * as the portal's handler is: it handles each event id once). When `handle` throws, this
   * batch's remaining claims are released and the error is thrown. Returns how many were
   * delivered.
   */
  async deliverEvents(handle: (event: BillingEvent) => Promise<unknown>, limit = 50): Promise<number> {
    const n = Math.max(1, Math.min(1000, Math.floor(limit) || 50));
    const db = await this.db();
    const e = billingEvents;
    const claimer = randomBase62(24);
    const claimedAt = this.realNow();
    const leaseEnd = new Date(claimedAt + this.eventLeaseMs);
    const claimable = db
      .select({ id: e.id })
      .from(e)
      .where(and(isNull(e.deliveredAt), or(isNull(e.claimedUntil), lt(e.claimedUntil, new Date(claimedAt)))))
      .orderBy(asc(e.seq))
      .limit(n)
      .for('update', { skipLocked: true });
    const claimed = await db
      .update(e)
      .set({ claimedBy: claimer, claimedUntil: leaseEnd })
      .where(inArray(e.id, claimable))
      .returning({ id: e.id, seq: e.seq, event: e.event });
    claimed.sort((a, b) => a.seq - b.seq);
    let delivered = 0;
    for (const row of claimed) {
      // Past (or near) the lease: keep the event only if no one has claimed it since.
      if (this.realNow() >= leaseEnd.getTime() - 1000) {
        const kept = await db
          .update(e)
          .set({ claimedUntil: new Date(this.realNow() + this.eventLeaseMs) })
          .where(and(eq(e.id, row.id), eq(e.claimedBy, claimer), isNull(e.deliveredAt)))
          .returning({ id: e.id });
        if (!kept.length) continue;
      }
      try {
        await handle(row.event as unknown as BillingEvent);
      } catch (error) {
        await db
          .update(e)
          .set({ claimedBy: null, claimedUntil: null })
          .where(and(eq(e.claimedBy, claimer), isNull(e.deliveredAt)));
        throw error;
      }
      const marked = await db
        .update(e)
        .set({ deliveredAt: new Date(this.realNow()), claimedBy: null, claimedUntil: null })
        .where(and(eq(e.id, row.id), eq(e.claimedBy, claimer), isNull(e.deliveredAt)))
        .returning({ id: e.id });
      if (marked.length) delivered++;
    }
    return delivered;
  }

  // ------------------------------------------------------------------------------ demo data and test switch

  /**
   * The demo clients (fixed ids), once: Layla Haddad with an active Business subscription and
   * her paid invoices, and Omar Saleh whose Starter subscription ended a month ago. One
   * transaction, no events. Each client's customer is inserted `on conflict do nothing` (its
   * fixed id and its address are unique): a client that exists already, or whose address
   * belongs to another customer, is left out, and a concurrent seeding waits for this one and
   * then finds both. Invoices are numbered in the order they were issued, across both clients.
   */
  async seedDemo(): Promise<void> {
    const plans = await this.plans();
    const price = (plan: PlanKey) => {
      const found = plans.find((p) => p.key === plan);
      return found ? Math.round(found.priceSgd * 100) : null;
    };
    const db = await this.db();
    const created = await db.transaction(async (tx) => {
      const demo = buildDemo(await this.nowIn(tx), price);
      let count = 0;
      const invoices: (typeof demo)[number]['invoices'] = [];
      for (const client of demo) {
        const inserted = await tx
          .insert(billingCustomers)
          .values(client.customer)
          .onConflictDoNothing()
          .returning({ id: billingCustomers.id });
        if (!inserted.length) continue;
        await tx.insert(billingSubscriptions).values(client.subscription);
        invoices.push(...client.invoices);
        count++;
      }
      invoices.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
      for (const invoice of invoices) {
        const tax = await this.taxSnapshot(tx, invoice, invoice.createdAt);
        await tx.insert(billingInvoices).values({
          ...invoice,
          ...(await takeInvoiceNumber(tx, invoice.createdAt)),
          ...(tax ? { tax, amount: tax.totals.gross } : {}),
        });
      }
      return count;
    });
    if (created) this.log(`demo clients seeded (${created})`);
  }

  /**
   * The test-only failure switch: `listInvoices` makes listInvoices throw BillingError
   * unavailable until it is set back to null. In memory, in this process only; the portal
   * exposes it only behind its test flag.
   */
  setFailure(op: FailureOp | null): void {
    this.failure = op;
  }

  // ------------------------------------------------------------------------------ helpers

  private async priceCents(plan: PlanKey): Promise<number | null> {
    const found = (await this.plans()).find((p) => p.key === plan);
    return found && Number.isFinite(found.priceSgd) && found.priceSgd > 0 ? Math.round(found.priceSgd * 100) : null;
  }

  /** The plans' prices read once (for a run of renewals), or null when the CMS cannot be read now. */
  private async priceTable(): Promise<PriceTable> {
    try {
      const plans = await this.plans();
      return (plan) => {
        const found = plans.find((p) => p.key === plan);
        return found && Number.isFinite(found.priceSgd) && found.priceSgd > 0 ? Math.round(found.priceSgd * 100) : null;
      };
    } catch (error) {
      this.log(`plans unavailable: ${String(error)}`);
      return null;
    }
  }

  private async customerByEmail(q: Queryable, email: string): Promise<CustomerRow | null> {
    const normalized = String(email ?? '')
      .trim()
      .toLowerCase();
    if (!normalized) return null;
    const [row] = await q.select().from(billingCustomers).where(eq(billingCustomers.email, normalized));
    return row ?? null;
  }

  /** A customer row, locked for this transaction (`no key update`: other transactions' foreign-key checks pass). */
  private async lockCustomer(tx: Tx, where: SQL): Promise<CustomerRow | null> {
    const [row] = await tx.select().from(billingCustomers).where(where).for('no key update');
    return row ?? null;
  }

  /** The customer's subscription that has not ended (at most one: a unique index). */
  private async currentSubscription(q: Queryable, customerId: string): Promise<SubscriptionRow | null> {
    const [row] = await q
      .select()
      .from(billingSubscriptions)
      .where(and(eq(billingSubscriptions.customerId, customerId), ne(billingSubscriptions.status, 'canceled')))
      .limit(1);
    return row ?? null;
  }
}
