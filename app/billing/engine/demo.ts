import { BillingError, type PlanKey } from '../types';
import { addMonthsUtc, periodBounds } from './calendar';
import type { CustomerRow, InvoiceRow, SubscriptionRow } from './rows.server';

/** The demo clients' sign-in addresses (documented in the README). */
export const DEMO_CLIENT_EMAIL = 'client@example.com';
export const DEMO_FORMER_EMAIL = 'former@example.com';
export const DEMO_EMAILS = [DEMO_CLIENT_EMAIL, DEMO_FORMER_EMAIL] as const;

/** Fixed ids, so seeding twice finds what the first seeding created. */
export const DEMO_IDS = {
  client: {
    customer: 'cus_DemoClientLayla0001',
    subscription: 'sub_DemoClientLayla0001',
    invoicePrefix: 'in_DemoClientLayla',
  },
  former: {
    customer: 'cus_DemoFormerOmar00001',
    subscription: 'sub_DemoFormerOmar00001',
    invoicePrefix: 'in_DemoFormerOmar0',
  },
} as const;

const DAY = 24 * 60 * 60 * 1000;

export interface DemoClient {
  customer: CustomerRow;
  subscription: SubscriptionRow;
  /** Without number and sequence: those come from the counter when the seed is written. */
  invoices: Omit<InvoiceRow, 'number' | 'sequence'>[];
}

/**
 * The demo clients as of `now`:
 * - Layla Haddad (client@example.com, English): Business, active, started 3 months and 10 days
 *   ago, so the current (fourth) period ends in about three weeks; one paid invoice per period,
 *   the current one included (each period is invoiced when it starts, as renewals are).
 * - Omar Saleh (former@example.com, Arabic): Starter, cancelled during its only month, which
 *   ended a month ago; one paid invoice.
 */
export function buildDemo(now: Date, priceCents: (plan: PlanKey) => number | null): DemoClient[] {
  const price = (plan: PlanKey) => {
    const cents = priceCents(plan);
    if (cents === null) throw new BillingError('unavailable', `No price for the ${plan} plan`);
    return cents;
  };
  const expYear = now.getUTCFullYear() + 4;

  const laylaAnchor = new Date(addMonthsUtc(now, -3).getTime() - 10 * DAY);
  let current = 1;
  while (periodBounds(laylaAnchor, current).end.getTime() <= now.getTime()) current++;
  const laylaPeriod = periodBounds(laylaAnchor, current);
  const layla: DemoClient = {
    customer: {
      id: DEMO_IDS.client.customer,
      email: DEMO_CLIENT_EMAIL,
      name: 'Layla Haddad',
      company: 'Haddad Trading LLC',
      locale: 'en',
      card: { brand: 'Visa', last4: '4242', expMonth: 12, expYear, renewals: 'succeed' },
      // A client in the UAE, registered for VAT: her invoices from the demo's UAE firm carry 5 %.
      billingDetails: {
        legalName: 'Haddad Trading LLC',
        address: 'Office 2207, Cluster X, Jumeirah Lake Towers\nDubai, United Arab Emirates',
        country: 'AE',
        registrationNumber: '100234567800003',
      },
      createdAt: laylaAnchor,
    },
    subscription: {
      id: DEMO_IDS.client.subscription,
      customerId: DEMO_IDS.client.customer,
      plan: 'business',
      amount: price('business'),
      currency: 'sgd',
      status: 'active',
      billingAnchor: laylaAnchor,
      periodIndex: current,
      currentPeriodStart: laylaPeriod.start,
      currentPeriodEnd: laylaPeriod.end,
      cancelAtPeriodEnd: false,
      canceledAt: null,
      endedAt: null,
      scheduledPlan: null,
      scheduledEffectiveAt: null,
      scheduledRequestRef: null,
      card: { brand: 'Visa', last4: '4242', expMonth: 12, expYear, renewals: 'succeed' },
      createdAt: laylaAnchor,
    },
    invoices: [],
  };
  for (let k = 1; k <= current; k++) {
    const period = periodBounds(laylaAnchor, k);
    layla.invoices.push(
      demoInvoice(
        `${DEMO_IDS.client.invoicePrefix}${String(k).padStart(4, '0')}`,
        layla.subscription,
        'business',
        layla.subscription.amount,
        period,
      ),
    );
  }

  const omarAnchor = addMonthsUtc(now, -2);
  const omarPeriod = periodBounds(omarAnchor, 1);
  const omar: DemoClient = {
    customer: {
      id: DEMO_IDS.former.customer,
      email: DEMO_FORMER_EMAIL,
      name: 'Omar Saleh',
      company: 'Saleh Logistics',
      locale: 'ar',
      card: { brand: 'Mastercard', last4: '4444', expMonth: 6, expYear, renewals: 'succeed' },
      // A client in Singapore: a zero-rated export of services for the demo's UAE firm.
      billingDetails: {
        legalName: 'Saleh Logistics Pte. Ltd.',
        address: '10 Anson Road, #12-08 International Plaza\nSingapore 079903',
        country: 'SG',
        registrationNumber: '201912345K',
      },
      createdAt: omarAnchor,
    },
    subscription: {
      id: DEMO_IDS.former.subscription,
      customerId: DEMO_IDS.former.customer,
      plan: 'starter',
      amount: price('starter'),
      currency: 'sgd',
      status: 'canceled',
      billingAnchor: omarAnchor,
      periodIndex: 1,
      currentPeriodStart: omarPeriod.start,
      currentPeriodEnd: omarPeriod.end,
      cancelAtPeriodEnd: true,
      canceledAt: new Date(omarAnchor.getTime() + 12 * DAY),
      endedAt: omarPeriod.end,
      scheduledPlan: null,
      scheduledEffectiveAt: null,
      scheduledRequestRef: null,
      card: { brand: 'Mastercard', last4: '4444', expMonth: 6, expYear, renewals: 'succeed' },
      createdAt: omarAnchor,
    },
    invoices: [],
  };
  omar.invoices.push(
    demoInvoice(
      `${DEMO_IDS.former.invoicePrefix}0001`,
      omar.subscription,
      'starter',
      omar.subscription.amount,
      omarPeriod,
    ),
  );
  return [layla, omar];
}

function demoInvoice(
  invoiceId: string,
  sub: SubscriptionRow,
  plan: PlanKey,
  amount: number,
  period: { start: Date; end: Date },
): Omit<InvoiceRow, 'number' | 'sequence'> {
  return {
    id: invoiceId,
    customerId: sub.customerId,
    subscriptionId: sub.id,
    status: 'paid',
    plan,
    amount,
    currency: 'sgd',
    createdAt: period.start,
    periodStart: period.start,
    periodEnd: period.end,
    paidAt: period.start,
    // Filled by the engine when it seeds (a snapshot with its tax profile), null without one.
    tax: null,
  };
}
