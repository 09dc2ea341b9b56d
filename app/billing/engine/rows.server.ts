import type { Locale } from '~/i18n';
import type { billingCheckouts, billingCustomers, billingInvoices, billingSubscriptions } from '~/db/schema.server';
import type { Customer, InvoiceView, PlanKey, SubscriptionStatus, SubscriptionView } from '../types';

/**
 * The engine's rows (app/db/schema.server.ts, tables billing_*) and the views the
 * BillingProvider returns from them. Rows hold times as Dates; views as ISO 8601 strings (UTC).
 */
export type CustomerRow = typeof billingCustomers.$inferSelect;
export type SubscriptionRow = typeof billingSubscriptions.$inferSelect;
export type InvoiceRow = typeof billingInvoices.$inferSelect;
export type CheckoutRow = typeof billingCheckouts.$inferSelect;

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

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);
export const localeOf = (value: string): Locale => (value === 'ar' ? 'ar' : 'en');

export function customerView(row: CustomerRow): Customer {
  return { id: row.id, email: row.email, name: row.name, company: row.company, locale: localeOf(row.locale) };
}

/** The scheduled plan change as the views and events carry it, or null. */
export function scheduledChangeOf(row: SubscriptionRow): SubscriptionView['scheduledChange'] {
  if (!row.scheduledPlan || !row.scheduledEffectiveAt) return null;
  return {
    plan: row.scheduledPlan as PlanKey,
    effectiveAt: iso(row.scheduledEffectiveAt),
    ...(row.scheduledRequestRef ? { requestRef: row.scheduledRequestRef } : {}),
  };
}

export function subscriptionView(row: SubscriptionRow): SubscriptionView {
  return {
    id: row.id,
    customerId: row.customerId,
    plan: row.plan as PlanKey,
    status: row.status as SubscriptionStatus,
    amount: row.amount,
    currency: 'sgd',
    currentPeriodStart: iso(row.currentPeriodStart),
    currentPeriodEnd: iso(row.currentPeriodEnd),
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    canceledAt: isoOrNull(row.canceledAt),
    endedAt: isoOrNull(row.endedAt),
    scheduledChange: scheduledChangeOf(row),
    card: row.card ? { brand: row.card.brand, last4: row.card.last4 } : null,
  };
}

export function invoiceView(row: InvoiceRow): InvoiceView {
  return {
    id: row.id,
    number: row.number,
    customerId: row.customerId,
    subscriptionId: row.subscriptionId,
    status: row.status as 'paid' | 'open' | 'void',
    plan: row.plan as PlanKey,
    amount: row.amount,
    currency: 'sgd',
    created: iso(row.createdAt),
    periodStart: iso(row.periodStart),
    periodEnd: iso(row.periodEnd),
    hostedUrl: null,
    pdfUrl: null,
  };
}

export function checkoutView(row: CheckoutRow, now: Date): CheckoutView {
  const expired = row.status === 'open' && now.getTime() >= row.expiresAt.getTime();
  return {
    id: row.id,
    plan: row.plan as PlanKey,
    locale: localeOf(row.locale),
    amount: row.amount,
    currency: 'sgd',
    status: expired ? 'expired' : (row.status as 'open' | 'complete'),
    email: row.email,
    customerId: row.customerId,
    successUrl: row.successUrl,
    cancelUrl: row.cancelUrl,
    expiresAt: iso(row.expiresAt),
  };
}
