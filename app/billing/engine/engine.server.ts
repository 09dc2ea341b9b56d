import type { Locale } from '~/i18n';
import { parseEmailAddress } from '~/lib/email';
import type { PrivateStore, StoredDocument } from '~/sanity/types';
import {
  BillingError,
  isPlanKey,
  type BillingEvent,
  type BillingPlan,
  type BillingProvider,
  type CheckoutRequest,
  type Customer,
  type InvoiceView,
  type PlanKey,
  type SubscriptionView,
} from '../types';
import { periodBounds } from './calendar';
import { checkCard, CheckoutError, normalizeCardNumber, type AcceptedCard } from './cards';
import {
  DOC,
  TYPE,
  checkoutView,
  customerView,
  invoiceView,
  subscriptionView,
  type CheckoutDoc,
  type CheckoutView,
  type ClockDoc,
  type CounterDoc,
  type CustomerDoc,
  type EventDoc,
  type InvoiceDoc,
  type SubscriptionDoc,
} from './documents';
import { buildDemo } from './demo';
import { isId, newId } from './ids.server';
import { Tx, withRetry } from './transaction.server';

export { CheckoutError, type CheckoutField, type DeclineCode } from './cards';
export type { CheckoutView } from './documents';
export { DEMO_CLIENT_EMAIL, DEMO_FORMER_EMAIL, DEMO_EMAILS } from './demo';

export interface EmbeddedBillingOptions {
  /** Prices per plan, from the CMS. */
  plans: () => Promise<BillingPlan[]>;
  log?: (message: string) => void;
  /** Real time (default Date.now); the engine's clock adds its durable offset to it. */
  now?: () => number;
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

const notFound = (what: string) => new BillingError('not_found', `No such ${what}`);

/** The payer's email (lower case), name and company, checked (CheckoutError on a bad email or no name). */
function payer(input: Pick<CheckoutInput, 'email' | 'name' | 'company'>) {
  const email = parseEmailAddress(input.email);
  const name = String(input.name ?? '').trim();
  if (!email) throw new CheckoutError('invalid_request', 'email', 'The email address is not valid.');
  if (!name) throw new CheckoutError('invalid_request', 'name', 'The name is missing.');
  return { email, name, company: input.company?.trim() || null };
}

/**
 * The embedded billing engine: Stripe's behaviour for this product (customers, monthly
 * subscriptions, schedules, invoices, a local checkout with Stripe's test cards, a movable
 * clock like Stripe's test clocks and an event outbox), with every piece of state in private
 * documents `billing.*` of the PrivateStore. Every state change reads its documents, computes
 * the next state and writes it in ONE transaction conditioned on the revisions it read,
 * together with its invoice number and its events; a conflict re-reads and tries again, so
 * concurrent requests and jobs (in this or another process) never apply a change twice.
 */
export class EmbeddedBilling implements BillingProvider {
  readonly kind = 'embedded' as const;
  private readonly store: PrivateStore;
  private readonly plans: () => Promise<BillingPlan[]>;
  private readonly log: (message: string) => void;
  private readonly realNow: () => number;
  /** The test-only failure switch: in memory, per process; the portal exposes it only behind its test flag. */
  private failure: FailureOp | null = null;

  constructor(store: PrivateStore, options: EmbeddedBillingOptions) {
    this.store = store;
    this.plans = options.plans;
    this.log = options.log ?? (() => {});
    this.realNow = options.now ?? Date.now;
  }

  // ------------------------------------------------------------------------------ clock

  /** Real time plus the clock's durable offset (zero until the clock is advanced). */
  async now(): Promise<Date> {
    const clock = await this.store.getDocument<ClockDoc>(DOC.clock);
    return new Date(this.realNow() + (clock?.offsetMs ?? 0));
  }

  /** Moves the billing clock forward by `ms` (never back) and returns the new time. Run `runDue` to act on it. */
  async advanceClock(ms: number): Promise<Date> {
    if (!Number.isFinite(ms) || ms < 0) throw new BillingError('invalid_request', 'The clock only moves forward');
    const offset = await withRetry(async () => {
      const clock = await this.store.getDocument<ClockDoc>(DOC.clock);
      const next = (clock?.offsetMs ?? 0) + Math.round(ms);
      if (clock)
        await this.store.mutate([{ patch: { id: DOC.clock, ifRevisionID: clock._rev, set: { offsetMs: next } } }]);
      else await this.store.mutate([{ create: { _id: DOC.clock, _type: TYPE.clock, offsetMs: next } }]);
      return next;
    });
    const now = new Date(this.realNow() + offset);
    this.log(`clock advanced by ${Math.round(ms)} ms to ${now.toISOString()}`);
    return now;
  }

  // ------------------------------------------------------------------------------ reads

  async getCustomer(customerId: string): Promise<Customer | null> {
    const doc = await this.customerDoc(customerId);
    return doc ? customerView(doc) : null;
  }

  async findCustomerByEmail(email: string): Promise<Customer | null> {
    const doc = await this.customerByEmail(email);
    return doc ? customerView(doc) : null;
  }

  async getSubscription(customerId: string): Promise<SubscriptionView | null> {
    if (!isId('cus', customerId)) return null;
    const doc = await this.currentSubscriptionDoc(customerId);
    return doc ? subscriptionView(doc) : null;
  }

  async listInvoices(
    customerId: string,
    page: { limit: number; startingAfter?: string },
  ): Promise<{ invoices: InvoiceView[]; hasMore: boolean }> {
    if (this.failure === 'listInvoices')
      throw new BillingError('unavailable', 'Invoices are unavailable (test failure switch)');
    if (!isId('cus', customerId)) return { invoices: [], hasMore: false };
    const limit = Math.max(1, Math.min(100, Math.floor(page.limit) || 10));
    const all = await this.store.queryPrivate<InvoiceDoc[]>(
      `*[_type == $type && customerId == $customerId] | order(created desc, sequence desc)`,
      { type: TYPE.invoice, customerId },
    );
    let from = 0;
    if (page.startingAfter) {
      const at = all.findIndex((doc) => doc.invoiceId === page.startingAfter);
      if (at < 0) return { invoices: [], hasMore: false };
      from = at + 1;
    }
    const slice = all.slice(from, from + limit);
    return { invoices: slice.map(invoiceView), hasMore: from + limit < all.length };
  }

  async getInvoice(customerId: string, invoiceId: string): Promise<InvoiceView | null> {
    if (!isId('cus', customerId) || !isId('in', invoiceId)) return null;
    const doc = await this.store.getDocument<InvoiceDoc>(DOC.invoice(invoiceId));
    return doc && doc._type === TYPE.invoice && doc.customerId === customerId ? invoiceView(doc) : null;
  }

  async listRenewing(before: Date): Promise<SubscriptionView[]> {
    const docs = await this.store.queryPrivate<SubscriptionDoc[]>(
      `*[_type == $type && status == "active" && cancelAtPeriodEnd != true && currentPeriodEnd < $before] | order(currentPeriodEnd asc)`,
      { type: TYPE.subscription, before: before.toISOString() },
    );
    return docs.map(subscriptionView);
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
      if (plan === sub.plan)
        return sub.scheduledChange
          ? { set: { scheduledChange: null }, previous: { scheduledChange: sub.scheduledChange } }
          : null;
      if (sub.scheduledChange?.plan === plan) return null;
      return {
        set: { scheduledChange: { plan, effectiveAt: sub.currentPeriodEnd, requestRef: now.toISOString() } },
        previous: { scheduledChange: sub.scheduledChange },
      };
    });
  }

  async withdrawChange(customerId: string, subscriptionId: string): Promise<SubscriptionView> {
    return this.updateSubscription(customerId, subscriptionId, (sub) =>
      sub.scheduledChange
        ? { set: { scheduledChange: null }, previous: { scheduledChange: sub.scheduledChange } }
        : null,
    );
  }

  /** Cancels at the period end and releases a scheduled change. A second cancel changes nothing. */
  async cancel(customerId: string, subscriptionId: string): Promise<SubscriptionView> {
    return this.updateSubscription(customerId, subscriptionId, (sub, now) => {
      if (sub.status === 'canceled') throw new BillingError('invalid_state', 'The subscription has ended');
      if (sub.cancelAtPeriodEnd) return null;
      return {
        set: { cancelAtPeriodEnd: true, canceledAt: now.toISOString(), scheduledChange: null },
        previous: {
          cancelAtPeriodEnd: false,
          ...(sub.scheduledChange ? { scheduledChange: sub.scheduledChange } : {}),
        },
      };
    });
  }

  /** Undoes a cancellation while the period runs; after its end the subscription has ended (invalid_state). */
  async resume(customerId: string, subscriptionId: string): Promise<SubscriptionView> {
    return this.updateSubscription(customerId, subscriptionId, (sub, now) => {
      if (sub.status === 'canceled' || now.getTime() >= Date.parse(sub.currentPeriodEnd))
        throw new BillingError('invalid_state', 'The subscription has ended');
      if (!sub.cancelAtPeriodEnd) return null;
      return { set: { cancelAtPeriodEnd: false, canceledAt: null }, previous: { cancelAtPeriodEnd: true } };
    });
  }

  /**
   * One change of one customer's subscription, recorded with its `customer.subscription.updated`
   * event. Periods that ended by the clock are settled first (renewal or end), so the change
   * applies to the subscription as it is now. `change` returns null when there is nothing to do.
   */
  private async updateSubscription(
    customerId: string,
    subscriptionId: string,
    change: (
      sub: SubscriptionDoc,
      now: Date,
    ) => {
      set: Partial<SubscriptionDoc>;
      previous: Extract<BillingEvent, { type: 'customer.subscription.updated' }>['previous'];
    } | null,
  ): Promise<SubscriptionView> {
    if (!isId('cus', customerId) || !isId('sub', subscriptionId)) throw notFound('subscription');
    await this.settle(subscriptionId);
    return withRetry(async () => {
      const sub = await this.subscriptionDoc(subscriptionId);
      if (!sub || sub.customerId !== customerId) throw notFound('subscription');
      const now = await this.now();
      if (sub.status !== 'canceled' && now.getTime() >= Date.parse(sub.currentPeriodEnd)) {
        // A period ended since the settle above: settle again and compute from the new state.
        await this.settle(subscriptionId);
        throw Object.assign(new Error('period ended meanwhile'), { conflict: true });
      }
      const result = change(sub, now);
      if (!result) return subscriptionView(sub);
      const tx = new Tx(this.store, now);
      tx.patch(sub, result.set);
      const next = subscriptionView({ ...sub, ...result.set });
      tx.event({ type: 'customer.subscription.updated', subscription: next, previous: result.previous });
      await tx.commit();
      this.log(`subscription ${subscriptionId} updated: ${Object.keys(result.previous).join(', ')}`);
      return next;
    });
  }

  // ------------------------------------------------------------------------------ checkout

  /** Opens a local checkout for one plan, valid 24 hours; its page is on this site. */
  async startCheckout(request: CheckoutRequest): Promise<{ url: string }> {
    if (!isPlanKey(request.plan)) throw new BillingError('invalid_request', `Unknown plan ${String(request.plan)}`);
    const amount = await this.priceCents(request.plan);
    if (amount === null) throw new BillingError('invalid_request', `The plan ${request.plan} is not offered`);
    const locale: Locale = request.locale === 'ar' ? 'ar' : 'en';
    const customer = request.customerId ? await this.customerDoc(request.customerId) : null;
    const email = request.email?.trim().toLowerCase() || customer?.email || null;
    const now = await this.now();
    const id = newId('cs');
    const doc: CheckoutDoc = {
      _id: DOC.checkout(id),
      _type: TYPE.checkout,
      checkoutId: id,
      plan: request.plan,
      locale,
      amount,
      currency: 'sgd',
      status: 'open',
      customerId: customer?.customerId ?? null,
      email,
      successUrl: request.successUrl,
      cancelUrl: request.cancelUrl,
      created: now.toISOString(),
      expiresAt: new Date(now.getTime() + CHECKOUT_TTL_MS).toISOString(),
      completedAt: null,
      result: null,
    };
    await this.store.mutate([{ create: doc }]);
    this.log(`checkout ${id} opened for ${request.plan}`);
    return { url: `${locale === 'ar' ? '/ar' : ''}/checkout/${id}` };
  }

  async getCheckout(id: string): Promise<CheckoutView | null> {
    if (!isId('cs', id)) return null;
    const doc = await this.store.getDocument<CheckoutDoc>(DOC.checkout(id));
    if (!doc || doc._type !== TYPE.checkout) return null;
    return checkoutView(doc, await this.now());
  }

  /**
   * Checks a payment for an open checkout without taking it: the checkout is open, the email and
   * name are valid and the card is accepted (a declined or invalid card throws CheckoutError).
   * Nothing is stored. The portal calls it before it asks the payer to confirm their address.
   */
  async checkPayment(id: string, input: CheckoutInput): Promise<CheckedPayment> {
    if (!isId('cs', id)) throw notFound('checkout');
    const now = await this.now();
    const checkout = await this.store.getDocument<CheckoutDoc>(DOC.checkout(id));
    if (!checkout || checkout._type !== TYPE.checkout || checkout.status !== 'open') throw notFound('checkout');
    if (now.getTime() >= Date.parse(checkout.expiresAt))
      throw new BillingError('not_found', 'The checkout has expired');
    const { email, name, company } = payer(input);
    return { email, name, company, card: checkCard(input, now), plan: checkout.plan, locale: checkout.locale };
  }

  /**
   * Pays a local checkout with a test card. In ONE transaction: the checkout completes, the
   * customer is created (or, with `allowExistingCustomer`, the signed-in one or the one with
   * this email is reused; without it that is refused with `customer_exists` and nothing is
   * stored), the subscription starts (active, one month), the first invoice is paid, and the
   * events `customer.subscription.created`, `invoice.paid` and `checkout.session.completed` are
   * recorded. Completing it again with the same email and card returns the same result; anyone
   * else gets not_found, like an expired or unknown checkout. A declined or invalid card
   * (CheckoutError) stores nothing. A customer with a current subscription gets invalid_state.
   */
  async completeCheckout(id: string, input: CheckoutInput): Promise<CheckoutResult> {
    if (!isId('cs', id)) throw notFound('checkout');
    const email = String(input.email ?? '')
      .trim()
      .toLowerCase();
    const last4 = input.acceptedCard?.last4 ?? normalizeCardNumber(String(input.cardNumber ?? ''))?.slice(-4);
    for (let attempt = 0; ; attempt++) {
      const outcome = await withRetry(async (): Promise<{ done: CheckoutResult } | { again: true }> => {
        const now = await this.now();
        const checkout = await this.store.getDocument<CheckoutDoc>(DOC.checkout(id));
        if (!checkout || checkout._type !== TYPE.checkout) throw notFound('checkout');
        if (checkout.status === 'complete') return { done: await this.replayCheckout(checkout, email, last4) };
        if (now.getTime() >= Date.parse(checkout.expiresAt))
          throw new BillingError('not_found', 'The checkout has expired');
        const { name, company } = payer(input);
        const card = input.acceptedCard ?? checkCard(input, now);

        // Read the customer registry before looking the email up: a customer created after this
        // read changes its revision and makes this transaction retry (one customer per email).
        const registry = await this.store.getDocument<CounterDoc>(DOC.customerRegistry);
        let customer = checkout.customerId ? await this.customerDoc(checkout.customerId) : null;
        customer ??= await this.customerByEmail(email);
        if (customer && !input.allowExistingCustomer)
          throw new BillingError('customer_exists', 'The payment would attach to an existing customer');
        if (customer) {
          const current = await this.currentSubscriptionDoc(customer.customerId);
          if (current) {
            // A subscription whose last period has passed is settled first; it may have ended.
            if (
              now.getTime() >= Date.parse(current.currentPeriodEnd) &&
              (await this.settle(current.subscriptionId)).ended
            )
              return { again: true };
            throw new BillingError('invalid_state', 'This customer already has a subscription');
          }
        }

        const tx = new Tx(this.store, now);
        let customerDoc: CustomerDoc;
        if (customer) {
          // Conditional on the customer's revision: two checkouts for one customer cannot both start a subscription.
          tx.patch(customer as StoredDocument<CustomerDoc>, { card });
          customerDoc = { ...customer, card };
        } else {
          const customerId = newId('cus');
          customerDoc = {
            _id: DOC.customer(customerId),
            _type: TYPE.customer,
            customerId,
            email,
            name,
            company,
            locale: checkout.locale,
            card,
            created: now.toISOString(),
          };
          tx.create(customerDoc);
          if (registry) tx.patch(registry, { last: registry.last + 1 });
          else tx.create({ _id: DOC.customerRegistry, _type: TYPE.counter, last: 1 });
        }
        const subscriptionId = newId('sub');
        const period = periodBounds(now, 1);
        const sub: SubscriptionDoc = {
          _id: DOC.subscription(subscriptionId),
          _type: TYPE.subscription,
          subscriptionId,
          customerId: customerDoc.customerId,
          plan: checkout.plan,
          amount: checkout.amount,
          currency: 'sgd',
          status: 'active',
          billingAnchor: now.toISOString(),
          periodIndex: 1,
          currentPeriodStart: period.start.toISOString(),
          currentPeriodEnd: period.end.toISOString(),
          cancelAtPeriodEnd: false,
          canceledAt: null,
          endedAt: null,
          scheduledChange: null,
          card,
          created: now.toISOString(),
        };
        tx.create(sub);
        const invoice = await this.newInvoice(tx, sub, now, 'paid');
        tx.patch(checkout, {
          status: 'complete',
          completedAt: now.toISOString(),
          customerId: customerDoc.customerId,
          email: customerDoc.email,
          result: { customerId: customerDoc.customerId, subscriptionId, invoiceId: invoice.invoiceId },
        });
        const subscription = subscriptionView(sub);
        tx.event({ type: 'customer.subscription.created', subscription });
        tx.event({ type: 'invoice.paid', invoice: invoiceView(invoice) });
        tx.event({
          type: 'checkout.session.completed',
          customer: customerView(customerDoc),
          subscriptionId,
          invoiceId: invoice.invoiceId,
        });
        await tx.commit();
        this.log(
          `checkout ${id} completed: customer ${customerDoc.customerId}, subscription ${subscriptionId}, invoice ${invoice.number}`,
        );
        return { done: { customer: customerView(customerDoc), subscription, invoice: invoiceView(invoice) } };
      }).catch((error: unknown) => {
        if (error instanceof CheckoutError && error.code === 'card_declined')
          this.log(`checkout ${id}: card declined (${error.declineCode ?? 'declined'})`);
        throw error;
      });
      if ('done' in outcome) return outcome.done;
      if (attempt > 3) throw new BillingError('unavailable', 'Billing is busy, please try again');
    }
  }

  /** The result of a completed checkout, for the same email and card only. */
  private async replayCheckout(
    checkout: CheckoutDoc,
    email: string,
    last4: string | undefined,
  ): Promise<CheckoutResult> {
    const result = checkout.result;
    if (!result) throw notFound('checkout');
    const [customer, sub, invoice] = await Promise.all([
      this.customerDoc(result.customerId),
      this.subscriptionDoc(result.subscriptionId),
      this.store.getDocument<InvoiceDoc>(DOC.invoice(result.invoiceId)),
    ]);
    if (!customer || !sub || !invoice || customer.email !== email || sub.card?.last4 !== last4)
      throw new BillingError('not_found', 'The checkout is already complete');
    return { customer: customerView(customer), subscription: subscriptionView(sub), invoice: invoiceView(invoice) };
  }

  // ------------------------------------------------------------------------------ jobs

  /**
   * Acts on every subscription whose period has ended by the clock, one period per
   * transaction (so a clock moved by months catches up with one invoice per period):
   * a cancelling one ends (`customer.subscription.deleted`); any other renews, first taking a
   * scheduled plan change, with a new invoice: paid (`invoice.paid`), or, when the card's
   * charges fail (test card 0341), left open with the subscription past_due
   * (`invoice.payment_failed`); then `customer.subscription.updated`. A past_due subscription
   * keeps renewing each period the same way (a new invoice each time; earlier open invoices stay
   * open; payments are not retried). Safe to run twice or concurrently: each step is
   * conditional on the subscription's revision.
   */
  async runDue(): Promise<DueReport> {
    const now = await this.now();
    const ids = await this.store.queryPrivate<string[]>(
      `*[_type == $type && status != "canceled" && currentPeriodEnd <= $now] | order(currentPeriodEnd asc).subscriptionId`,
      { type: TYPE.subscription, now: now.toISOString() },
    );
    const total: DueReport = { renewed: 0, changed: 0, ended: 0, failed: 0 };
    let firstError: unknown = null;
    for (const id of ids) {
      try {
        const report = await this.settle(id);
        for (const key of Object.keys(total) as (keyof DueReport)[]) total[key] += report[key];
      } catch (error) {
        this.log(`subscription ${id}: could not process its due periods: ${String(error)}`);
        firstError ??= error;
      }
    }
    if (firstError) throw firstError;
    if (total.renewed || total.changed || total.ended || total.failed) this.log(`due: ${JSON.stringify(total)}`);
    return total;
  }

  /** Brings one subscription up to the clock, one period per transaction. */
  private async settle(subscriptionId: string): Promise<DueReport> {
    const report: DueReport = { renewed: 0, changed: 0, ended: 0, failed: 0 };
    for (let step = 0; step < MAX_CATCH_UP; step++) {
      const done = await withRetry(() => this.settleOnePeriod(subscriptionId));
      if (!done) break;
      for (const key of done) report[key] += 1;
    }
    return report;
  }

  /** Ends or renews the subscription if its period has ended; null when nothing is due. */
  private async settleOnePeriod(subscriptionId: string): Promise<(keyof DueReport)[] | null> {
    const sub = await this.subscriptionDoc(subscriptionId);
    if (!sub || sub.status === 'canceled') return null;
    const now = await this.now();
    if (now.getTime() < Date.parse(sub.currentPeriodEnd)) return null;
    const tx = new Tx(this.store, now);

    if (sub.cancelAtPeriodEnd) {
      const set = { status: 'canceled' as const, endedAt: sub.currentPeriodEnd };
      tx.patch(sub, set);
      tx.event({ type: 'customer.subscription.deleted', subscription: subscriptionView({ ...sub, ...set }) });
      await tx.commit();
      this.log(`subscription ${subscriptionId} ended at ${sub.currentPeriodEnd}`);
      return ['ended'];
    }

    const counted: (keyof DueReport)[] = [];
    const change =
      sub.scheduledChange && Date.parse(sub.scheduledChange.effectiveAt) <= Date.parse(sub.currentPeriodEnd)
        ? sub.scheduledChange
        : null;
    const plan = change?.plan ?? sub.plan;
    const amount = change ? ((await this.priceCents(change.plan)) ?? sub.amount) : sub.amount;
    if (change) counted.push('changed');
    const index = sub.periodIndex + 1;
    const period = periodBounds(new Date(sub.billingAnchor), index);
    const fails = sub.card?.renewals === 'fail';
    const set: Partial<SubscriptionDoc> = {
      plan,
      amount,
      periodIndex: index,
      currentPeriodStart: period.start.toISOString(),
      currentPeriodEnd: period.end.toISOString(),
      status: fails ? 'past_due' : 'active',
      ...(change ? { scheduledChange: null } : {}),
    };
    const next: SubscriptionDoc = { ...sub, ...set };
    tx.patch(sub, set);
    // The renewal invoice is issued when the new period starts.
    const invoice = await this.newInvoice(tx, next, period.start, fails ? 'open' : 'paid');
    tx.event(
      fails
        ? { type: 'invoice.payment_failed', invoice: invoiceView(invoice) }
        : { type: 'invoice.paid', invoice: invoiceView(invoice) },
    );
    const previous: Extract<BillingEvent, { type: 'customer.subscription.updated' }>['previous'] = {
      currentPeriodEnd: sub.currentPeriodEnd,
    };
    if (plan !== sub.plan) previous.plan = sub.plan;
    if (next.status !== sub.status) previous.status = sub.status;
    if (change) previous.scheduledChange = change;
    tx.event({ type: 'customer.subscription.updated', subscription: subscriptionView(next), previous });
    await tx.commit();
    counted.push(fails ? 'failed' : 'renewed');
    this.log(
      `subscription ${subscriptionId} renewed to ${next.currentPeriodEnd} on ${plan}: invoice ${invoice.number} ${invoice.status}`,
    );
    return counted;
  }

  private async newInvoice(tx: Tx, sub: SubscriptionDoc, created: Date, status: 'paid' | 'open'): Promise<InvoiceDoc> {
    const invoiceId = newId('in');
    const { number, sequence } = await tx.invoiceNumber(created);
    const doc: InvoiceDoc = {
      _id: DOC.invoice(invoiceId),
      _type: TYPE.invoice,
      invoiceId,
      number,
      sequence,
      customerId: sub.customerId,
      subscriptionId: sub.subscriptionId,
      status,
      plan: sub.plan,
      amount: sub.amount,
      currency: 'sgd',
      created: created.toISOString(),
      periodStart: sub.currentPeriodStart,
      periodEnd: sub.currentPeriodEnd,
      paidAt: status === 'paid' ? created.toISOString() : null,
    };
    tx.create(doc);
    return doc;
  }

  // ------------------------------------------------------------------------------ event outbox

  /** Recorded events not yet marked delivered, oldest first. */
  async undeliveredEvents(limit: number): Promise<BillingEvent[]> {
    const n = Math.max(1, Math.min(1000, Math.floor(limit) || 50));
    const docs = await this.store.queryPrivate<EventDoc[]>(
      `*[_type == $type && delivered == false] | order(sortKey asc)`,
      { type: TYPE.event },
    );
    return docs.slice(0, n).map((doc) => doc.event);
  }

  /** Marks an event delivered; again, or for an unknown id, it does nothing. */
  async markDelivered(eventId: string): Promise<void> {
    if (!isId('evt', eventId)) return;
    await withRetry(async () => {
      const doc = await this.store.getDocument<EventDoc>(DOC.event(eventId));
      if (!doc || doc._type !== TYPE.event || doc.delivered) return;
      await this.store.mutate([
        {
          patch: {
            id: doc._id,
            ifRevisionID: doc._rev,
            set: { delivered: true, deliveredAt: new Date(this.realNow()).toISOString() },
          },
        },
      ]);
    });
  }

  // ------------------------------------------------------------------------------ demo data and test switch

  /**
   * The demo clients (fixed ids), once: Layla Haddad with an active Business subscription and
   * her paid invoices, and Omar Saleh whose Starter subscription ended a month ago. One
   * transaction that creates every document (it fails as a whole if another seeding won), and
   * no events. A demo client whose email already belongs to a customer is left out.
   */
  async seedDemo(): Promise<void> {
    await withRetry(async () => {
      const now = await this.now();
      const plans = await this.plans();
      const demo = buildDemo(now, (plan) => {
        const found = plans.find((p) => p.key === plan);
        return found ? Math.round(found.priceSgd * 100) : null;
      });
      const tx = new Tx(this.store, now);
      let created = 0;
      const invoices: (typeof demo)[number]['invoices'] = [];
      for (const client of demo) {
        if (await this.store.getDocument(client.customer._id)) continue;
        if (await this.customerByEmail(client.customer.email)) continue;
        tx.create(client.customer);
        tx.create(client.subscription);
        invoices.push(...client.invoices);
        created++;
      }
      if (!created) return;
      // Numbered in the order they were issued, across both clients.
      invoices.sort((a, b) => a.created.localeCompare(b.created));
      for (const invoice of invoices) tx.create({ ...invoice, ...(await tx.invoiceNumber(new Date(invoice.created))) });
      const registry = await this.store.getDocument<CounterDoc>(DOC.customerRegistry);
      if (registry) tx.patch(registry, { last: registry.last + created });
      else tx.create({ _id: DOC.customerRegistry, _type: TYPE.counter, last: created });
      await tx.commit();
      this.log(`demo clients seeded (${created})`);
    });
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

  private async customerDoc(customerId: string): Promise<StoredDocument<CustomerDoc> | null> {
    if (!isId('cus', customerId)) return null;
    const doc = await this.store.getDocument<CustomerDoc>(DOC.customer(customerId));
    return doc && doc._type === TYPE.customer ? doc : null;
  }

  private async customerByEmail(email: string): Promise<StoredDocument<CustomerDoc> | null> {
    const normalized = String(email ?? '')
      .trim()
      .toLowerCase();
    if (!normalized) return null;
    const id = await this.store.queryPrivate<string | null>(
      `*[_type == $type && email == $email] | order(created asc)[0]._id`,
      { type: TYPE.customer, email: normalized },
    );
    return id ? this.store.getDocument<CustomerDoc>(id) : null;
  }

  private async subscriptionDoc(subscriptionId: string): Promise<StoredDocument<SubscriptionDoc> | null> {
    if (!isId('sub', subscriptionId)) return null;
    const doc = await this.store.getDocument<SubscriptionDoc>(DOC.subscription(subscriptionId));
    return doc && doc._type === TYPE.subscription ? doc : null;
  }

  /** The customer's subscription that has not ended, newest first. */
  private async currentSubscriptionDoc(customerId: string): Promise<StoredDocument<SubscriptionDoc> | null> {
    const id = await this.store.queryPrivate<string | null>(
      `*[_type == $type && customerId == $customerId && status != "canceled"] | order(created desc)[0].subscriptionId`,
      { type: TYPE.subscription, customerId },
    );
    return id ? this.subscriptionDoc(id) : null;
  }
}
