import type { Locale } from '~/i18n';
import type { BillingEvent, Customer, InvoiceView, PlanKey, SubscriptionView } from '../types';
import type { AcceptedCard } from './cards';

/**
 * The engine's private documents (ids with periods, never any personal data in an id) and
 * the views the BillingProvider returns from them. Times are ISO 8601 strings in UTC, all of
 * the same length, so they compare as strings in queries.
 */

/** A private document id: it holds a period. */
export type PrivateId = `${string}.${string}`;

export const DOC = {
  clock: 'billing.clock.main' as const,
  customerRegistry: 'billing.counter.customers' as const,
  invoiceCounter: (year: number) => `billing.counter.invoices-${year}` as const,
  customer: (id: string) => `billing.customer.${id}` as const,
  subscription: (id: string) => `billing.subscription.${id}` as const,
  invoice: (id: string) => `billing.invoice.${id}` as const,
  checkout: (id: string) => `billing.checkout.${id}` as const,
  event: (id: string) => `billing.event.${id}` as const,
};

export const TYPE = {
  clock: 'billing.clock',
  counter: 'billing.counter',
  customer: 'billing.customer',
  subscription: 'billing.subscription',
  invoice: 'billing.invoice',
  checkout: 'billing.checkout',
  event: 'billing.event',
} as const;

/** A card as kept: brand, last four digits, expiry, and whether later charges succeed (test card 0341 fails them). */
export type StoredCard = AcceptedCard;

export type ClockDoc = {
  _id: PrivateId;
  _type: typeof TYPE.clock;
  offsetMs: number;
};

export type CounterDoc = {
  _id: PrivateId;
  _type: typeof TYPE.counter;
  /** Invoice counters: the year and the last number given in it. The customer registry: how many customers exist. */
  year?: number;
  last: number;
};

export type CustomerDoc = {
  _id: PrivateId;
  _type: typeof TYPE.customer;
  customerId: string;
  email: string;
  name: string;
  company: string | null;
  locale: Locale;
  card: StoredCard | null;
  created: string;
};

/**
 * A subscription as stored: the fields the client sees (SubscriptionView, where `amount` is the
 * price when the plan was taken, so a CMS price change applies to new plans only), the card's
 * payment token, and the engine's own period counting.
 */
export type SubscriptionDoc = Omit<SubscriptionView, 'id' | 'card'> & {
  _id: PrivateId;
  _type: typeof TYPE.subscription;
  subscriptionId: string;
  /** The start of the first period; every period is counted from it. */
  billingAnchor: string;
  /** 1 for the first period. */
  periodIndex: number;
  card: StoredCard | null;
  created: string;
};

/**
 * An invoice as stored: the fields the client sees (InvoiceView, without Stripe's hosted URLs:
 * the site renders its own invoice) and the engine's ordering and payment time. The engine
 * only issues paid or open invoices.
 */
export type InvoiceDoc = Omit<InvoiceView, 'id' | 'status' | 'hostedUrl' | 'pdfUrl'> & {
  _id: PrivateId;
  _type: typeof TYPE.invoice;
  invoiceId: string;
  /** year × 1 000 000 + number in the year: orders invoices of the same date. */
  sequence: number;
  status: 'paid' | 'open';
  paidAt: string | null;
};

export type CheckoutDoc = {
  _id: PrivateId;
  _type: typeof TYPE.checkout;
  checkoutId: string;
  plan: PlanKey;
  locale: Locale;
  amount: number;
  currency: 'sgd';
  status: 'open' | 'complete';
  customerId: string | null;
  email: string | null;
  successUrl: string;
  cancelUrl: string;
  created: string;
  expiresAt: string;
  completedAt: string | null;
  result: { customerId: string; subscriptionId: string; invoiceId: string } | null;
};

export type EventDoc = {
  _id: PrivateId;
  _type: typeof TYPE.event;
  eventId: string;
  eventType: BillingEvent['type'];
  created: string;
  /** Sorts events oldest first: the engine time in ms (15 digits), then a sequence that grows in the process. */
  sortKey: string;
  delivered: boolean;
  deliveredAt: string | null;
  event: BillingEvent;
};

/** The local checkout as its page needs it. `expired`: still open after `expiresAt`. */
export interface CheckoutView {
  id: string;
  plan: PlanKey;
  locale: Locale;
  /** Monthly amount in cents. */
  amount: number;
  currency: 'sgd';
  status: 'open' | 'complete' | 'expired';
  email: string | null;
  /** The signed-in client who started it (only that client's session may pay it), or null. */
  customerId: string | null;
  successUrl: string;
  cancelUrl: string;
  expiresAt: string;
}

export function customerView(doc: CustomerDoc): Customer {
  return { id: doc.customerId, email: doc.email, name: doc.name, company: doc.company, locale: doc.locale };
}

export function subscriptionView(doc: SubscriptionDoc): SubscriptionView {
  return {
    id: doc.subscriptionId,
    customerId: doc.customerId,
    plan: doc.plan,
    status: doc.status,
    amount: doc.amount,
    currency: 'sgd',
    currentPeriodStart: doc.currentPeriodStart,
    currentPeriodEnd: doc.currentPeriodEnd,
    cancelAtPeriodEnd: doc.cancelAtPeriodEnd,
    canceledAt: doc.canceledAt,
    endedAt: doc.endedAt,
    scheduledChange: doc.scheduledChange
      ? {
          plan: doc.scheduledChange.plan,
          effectiveAt: doc.scheduledChange.effectiveAt,
          ...(doc.scheduledChange.requestRef ? { requestRef: doc.scheduledChange.requestRef } : {}),
        }
      : null,
    card: doc.card ? { brand: doc.card.brand, last4: doc.card.last4 } : null,
  };
}

export function invoiceView(doc: InvoiceDoc): InvoiceView {
  return {
    id: doc.invoiceId,
    number: doc.number,
    customerId: doc.customerId,
    subscriptionId: doc.subscriptionId,
    status: doc.status,
    plan: doc.plan,
    amount: doc.amount,
    currency: 'sgd',
    created: doc.created,
    periodStart: doc.periodStart,
    periodEnd: doc.periodEnd,
    hostedUrl: null,
    pdfUrl: null,
  };
}

export function checkoutView(doc: CheckoutDoc, now: Date): CheckoutView {
  const expired = doc.status === 'open' && now.getTime() >= Date.parse(doc.expiresAt);
  return {
    id: doc.checkoutId,
    plan: doc.plan,
    locale: doc.locale,
    amount: doc.amount,
    currency: 'sgd',
    status: expired ? 'expired' : doc.status,
    email: doc.email,
    customerId: doc.customerId,
    successUrl: doc.successUrl,
    cancelUrl: doc.cancelUrl,
    expiresAt: doc.expiresAt,
  };
}
