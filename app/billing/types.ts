/**
 * The client portal's one door to billing. Routes and jobs call `billing()` (billing.server.ts)
 * and get a BillingProvider; they never talk to Stripe or to the local engine directly.
 *
 * Two adapters behave the same for this product:
 * - embedded (default): a local engine, its state in the database (PGlite or PostgreSQL), with a movable clock;
 * - stripe (STRIPE_SECRET_KEY + STRIPE_WEBHOOK_SECRET set): Stripe through the official SDK.
 *
 * Money is in minor units (cents) as Stripe counts it; the currency is SGD. Times are ISO 8601
 * strings in UTC. Every id a client can see (subscription, invoice) is checked against the
 * customer: a method given another customer's id behaves as if it did not exist.
 */
import type { Locale } from '~/i18n';
import type { CreditNoteSnapshot } from './tax/credit-note';
import type { BillingDetails } from './tax/details';
import type { InvoiceSnapshot } from './tax/snapshot';

export const PLAN_KEYS = ['starter', 'business', 'enterprise'] as const;
export type PlanKey = (typeof PLAN_KEYS)[number];

export function isPlanKey(value: unknown): value is PlanKey {
  return typeof value === 'string' && (PLAN_KEYS as readonly string[]).includes(value);
}

/** A package as billing needs it, from the CMS (package documents). */
export interface BillingPlan {
  key: PlanKey;
  /** Monthly price in whole Singapore dollars (the CMS's priceSgd). */
  priceSgd: number;
  /** Stripe price id of the monthly price (hosted world). */
  stripePriceId?: string | null;
  /** The plan's payment link from the CMS, used by Stripe checkout when it is a real Stripe payment link. */
  paymentLink?: string | null;
}

/**
 * Stripe's subscription statuses that this product uses. `active`: paid and running (it may be
 * set to end at the period's end). `past_due`: a renewal payment failed; access continues while
 * payment is retried. `canceled`: ended; no access.
 */
export type SubscriptionStatus = 'active' | 'past_due' | 'canceled';

export interface SubscriptionView {
  id: string;
  customerId: string;
  plan: PlanKey;
  status: SubscriptionStatus;
  /** Monthly amount in cents. */
  amount: number;
  currency: 'sgd';
  currentPeriodStart: string;
  /** The next billing date (renewal), or the end of access when cancelAtPeriodEnd. */
  currentPeriodEnd: string;
  cancelAtPeriodEnd: boolean;
  /** When the client asked to cancel (Stripe's canceled_at), null when not cancelling. */
  canceledAt: string | null;
  /** When the subscription ended (status canceled). */
  endedAt: string | null;
  /**
   * A plan change that takes effect at currentPeriodEnd, if one is scheduled. `requestRef` names the
   * request that scheduled it (the engine: its time; Stripe: the schedule's id), so two requests for
   * the same change are told apart and each is confirmed by its own email.
   */
  scheduledChange: { plan: PlanKey; effectiveAt: string; requestRef?: string } | null;
  /** The card on file: brand and last four digits only. */
  card: { brand: string; last4: string } | null;
}

export type InvoiceStatus = 'paid' | 'open' | 'void' | 'uncollectible';

export interface InvoiceView {
  id: string;
  /** A readable number (embedded: BWB-2026-0001; Stripe: the invoice number). */
  number: string;
  customerId: string;
  subscriptionId: string | null;
  status: InvoiceStatus;
  plan: PlanKey | null;
  /** Amount in cents. */
  amount: number;
  currency: 'sgd';
  /** Issue date. */
  created: string;
  periodStart: string;
  periodEnd: string;
  /** Stripe's hosted invoice page (hosted world); null in the embedded world. */
  hostedUrl: string | null;
  /** Stripe's PDF (hosted world); null in the embedded world, where the site renders its own. */
  pdfUrl: string | null;
  /** The tax content of Stripe's invoice (hosted world, one invoice read alone); absent elsewhere. */
  stripeTax?: StripeInvoiceTax | null;
}

/** What a Stripe invoice, the tax invoice in the hosted world, says about tax (issue 41 item 7). */
export interface StripeInvoiceTax {
  /** The customer as Stripe printed them on the invoice when it was finalized. */
  customerName: string | null;
  customerAddress: string[];
  customerCountry: string | null;
  customerTaxIds: { type: string; value: string }[];
  /** Cents. */
  net: number;
  taxes: { name: string; percentage: number; amount: number; taxable: number; inclusive: boolean }[];
  tax: number;
  total: number;
}

/**
 * A credit note crediting one invoice in full (embedded: CN-2026-0001 from the command; Stripe:
 * Stripe's credit note). Shown in the billing history beside the invoice it corrects.
 */
export interface CreditNoteSummary {
  id: string;
  number: string;
  customerId: string;
  invoiceId: string;
  invoiceNumber: string;
  /** Total credited, in cents (the invoice's gross for a full credit). */
  amount: number;
  currency: 'sgd';
  created: string;
  /** The explanation shown on the note (embedded: the operator's reason; Stripe: memo, else reason). */
  reason: string | null;
  /** Stripe's PDF (hosted world); null in the embedded world, where the site renders its own. */
  pdfUrl: string | null;
}

/** What issuing gave: the note, and whether it was made now (false: the invoice was credited before). */
export interface IssuedCreditNote {
  note: CreditNoteSummary;
  created: boolean;
}

export interface Customer {
  id: string;
  email: string;
  name: string;
  company: string | null;
  /** Language of the client's emails. */
  locale: Locale;
}

export interface CheckoutRequest {
  plan: PlanKey;
  locale: Locale;
  /** Absolute URLs on this site. */
  successUrl: string;
  cancelUrl: string;
  /** A signed-in client's customer, so a second subscription is not a second customer. */
  customerId?: string;
  email?: string;
  /** An opaque hash of who asks (client address and browser), for the checkout's idempotency key. */
  visitor?: string;
}

/**
 * What happened in billing, as Stripe's webhook events describe it (same type names). The
 * embedded engine records one in the same atomic write as the change it reports; the Stripe
 * adapter turns a verified webhook delivery into one. The portal handles each id once.
 */
export type BillingEvent = {
  id: string;
  created: string;
} & (
  | { type: 'checkout.session.completed'; customer: Customer; subscriptionId: string; invoiceId: string | null }
  | { type: 'customer.subscription.created'; subscription: SubscriptionView }
  | {
      type: 'customer.subscription.updated';
      subscription: SubscriptionView;
      /** The fields that changed, with their previous values (Stripe's previous_attributes, reduced). */
      previous: Partial<
        Pick<SubscriptionView, 'plan' | 'status' | 'cancelAtPeriodEnd' | 'currentPeriodEnd' | 'scheduledChange'>
      >;
    }
  | { type: 'customer.subscription.deleted'; subscription: SubscriptionView }
  | { type: 'subscription_schedule.updated'; subscription: SubscriptionView }
  | { type: 'invoice.paid'; invoice: InvoiceView }
  | { type: 'invoice.payment_failed'; invoice: InvoiceView }
);

export class BillingError extends Error {
  constructor(
    /** customer_exists: a payment that would attach to an existing customer without proof of who pays. */
    readonly code:
      'card_declined' | 'not_found' | 'invalid_state' | 'unavailable' | 'invalid_request' | 'customer_exists',
    message: string,
  ) {
    super(message);
    this.name = 'BillingError';
  }
}

export interface BillingProvider {
  readonly kind: 'embedded' | 'stripe' | 'none';
  /** The billing clock: real time in production; the embedded engine's clock can be moved in tests. */
  now(): Promise<Date>;
  getCustomer(customerId: string): Promise<Customer | null>;
  findCustomerByEmail(email: string): Promise<Customer | null>;
  /** The client's current subscription (not yet ended), or null. */
  getSubscription(customerId: string): Promise<SubscriptionView | null>;
  /** Newest first. `startingAfter` is the last invoice id of the previous page. */
  listInvoices(
    customerId: string,
    page: { limit: number; startingAfter?: string },
  ): Promise<{ invoices: InvoiceView[]; hasMore: boolean }>;
  /** One of this customer's invoices, or null (also for another customer's invoice id). */
  getInvoice(customerId: string, invoiceId: string): Promise<InvoiceView | null>;
  /**
   * The tax snapshot of one of this customer's invoices (app/billing/tax/snapshot.ts), or null:
   * an invoice from before tax invoices, another customer's, or (for now) a Stripe invoice, whose
   * tax content is Stripe's own (issue 41 item 7).
   */
  getInvoiceTax(customerId: string, invoiceId: string): Promise<InvoiceSnapshot | null>;
  /** The credit notes of these invoices of this customer (others' are never returned), oldest first. */
  listCreditNotes(customerId: string, invoiceIds: string[]): Promise<CreditNoteSummary[]>;
  /**
   * One of this customer's credit notes with its snapshot (app/billing/tax/credit-note.ts), or
   * null (also for another customer's). The snapshot is null for a Stripe credit note, whose
   * document is Stripe's own.
   */
  getCreditNote(
    customerId: string,
    creditNoteId: string,
  ): Promise<{ note: CreditNoteSummary; snapshot: CreditNoteSnapshot | null } | null>;
  /**
   * For the operator's command only (never a client): credits the invoice numbered
   * `invoiceNumber` in full with `reason`, once. Again for the same invoice it returns the
   * note made the first time (created: false). Throws CreditNoteError or BillingError.
   */
  issueCreditNote(invoiceNumber: string, reason: string): Promise<IssuedCreditNote>;
  /** The latest credit notes of all customers, newest first, for the operator's `list`. */
  recentCreditNotes(limit: number): Promise<CreditNoteSummary[]>;
  /**
   * The client's billing details (legal name, address, country, tax number) for their future
   * invoices, or null when none were given yet. Embedded: the customer's row; Stripe: the
   * customer's name, address and tax IDs.
   */
  getBillingDetails(customerId: string): Promise<BillingDetails | null>;
  /** Records them for future invoices: an issued invoice keeps the details it was issued with. */
  setBillingDetails(customerId: string, details: BillingDetails): Promise<void>;
  /** Schedules the change for the next billing date, no proration. Idempotent for the same plan. */
  changePlan(customerId: string, subscriptionId: string, plan: PlanKey): Promise<SubscriptionView>;
  /** Withdraws a scheduled change before it applies. Idempotent. */
  withdrawChange(customerId: string, subscriptionId: string): Promise<SubscriptionView>;
  /** Cancels at the end of the current period (withdrawing a scheduled change first). Idempotent. */
  cancel(customerId: string, subscriptionId: string): Promise<SubscriptionView>;
  /** Undoes a cancellation before the period ends. Idempotent. */
  resume(customerId: string, subscriptionId: string): Promise<SubscriptionView>;
  /** Where Subscribe sends the visitor: a Stripe Checkout Session or the local checkout page. */
  startCheckout(request: CheckoutRequest): Promise<{ url: string }>;
  /** Subscriptions that renew (not cancelling, not ended) with a period end before `before`. For the reminder job. */
  listRenewing(before: Date): Promise<SubscriptionView[]>;
}
