import { createHash } from 'node:crypto';
import Stripe from 'stripe';
import type { Locale } from '~/i18n';
import { checkReason, CreditNoteError } from './tax/credit-note';
import { registrationValue, type BillingDetails } from './tax/details';
import type { TaxProfile } from './tax/profile';
import { taxTreatment } from './tax/rules';
import { taxLabels } from './tax/view';
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
  type InvoiceStatus,
  type InvoiceView,
  type PlanKey,
  type StripeInvoiceTax,
  type SubscriptionStatus,
  type SubscriptionView,
} from './types';
import { log as logger } from '~/lib/log.server';

/**
 * Billing on Stripe, through the official SDK (the hosted world). Decisions (ADR 0007):
 *
 * - A plan change waits for the next billing date with no proration. Only a subscription
 *   schedule defers a price (proration_behavior 'none' alone swaps it at once): the schedule is
 *   made from the subscription, given a second phase on the new price starting at the current
 *   period's end, and `end_behavior: 'release'`, so the subscription runs on by itself after
 *   it. Withdrawing the change releases the schedule; a change to yet another plan releases it
 *   and makes a new one, so each schedule is written once.
 * - Cancel sets `cancel_at_period_end` (a pending schedule is released first: Stripe refuses the
 *   flag on a subscription a schedule manages); resume clears it before the period ends.
 * - Every mutating call carries an idempotency key derived from the action: what it does, the
 *   subscription, the target, the period end and the subscription's operation count
 *   (`metadata.bawaba_ops`, raised by each change in the same call or right after it). A retried
 *   or doubled request reuses the key and Stripe applies it once; the count keeps a later,
 *   deliberate repeat (cancel, resume, cancel) from replaying an old answer. After each change
 *   the live subscription is read back and checked, so a replayed answer is never taken for a
 *   change that did not happen.
 * - Since API version 2025-03-31 a subscription's period lives on its items
 *   (`items.data[].current_period_end`).
 * - Stripe is the source of truth for plans, periods and invoices; nothing of it is copied into
 *   the portal's store except the account to customer link.
 * - Tax (issue 41 item 7, ADR 0028): Stripe's invoices are the tax invoices. The client's legal
 *   name, address and tax ID (`ae_trn`, `sg_gst`) live on the Stripe customer (Checkout collects
 *   them; the portal edits them); the firm's registration number is an account tax ID made from
 *   the tax profile; each treatment of the rule table has one tax rate, made once and found again
 *   by its metadata, set as the subscription's `default_tax_rates` (or Stripe Tax with
 *   STRIPE_TAX=automatic). Stripe copies all of it into each invoice when it finalizes it.
 */

export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

export interface StripeBillingOptions {
  secretKey: string;
  webhookSecret: string;
  /** Price ids per plan from the environment; a package's stripePriceId in the CMS wins. */
  prices: Partial<Record<PlanKey, string>>;
  /** Another API address (tests: tests/fake-stripe.mjs). */
  apiBase?: string;
  plans: () => Promise<BillingPlan[]>;
  log?: (message: string) => void;
  /** The issuing entity's profile and how tax is applied: tax rates from it, or Stripe Tax. Without it, no tax objects. */
  tax?: { profile: TaxProfile; mode: 'rates' | 'automatic' };
}

/** Stripe's tax ID type for a client's tax number, by the client's country (others: kept in the customer's metadata). */
export const STRIPE_TAX_ID_TYPES: Record<string, 'ae_trn' | 'sg_gst'> = { AE: 'ae_trn', SG: 'sg_gst' };
const LEGAL_NAME = 'legal_name';
const CONTACT_NAME = 'contact_name';
const TAX_NUMBER = 'tax_number';
const TREATMENT = 'bawaba_treatment';

/** Seconds Stripe's webhook signature may be old (the SDK's default). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
const OPS = 'bawaba_ops';

const iso = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000).toISOString() : null);
const idOf = (value: string | { id: string } | null | undefined) =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/** Stripe's statuses in the product's three. */
export function mapStatus(status: Stripe.Subscription.Status): SubscriptionStatus {
  if (status === 'active' || status === 'trialing') return 'active';
  if (status === 'canceled' || status === 'incomplete_expired') return 'canceled';
  return 'past_due';
}

const ended = (sub: Stripe.Subscription) => sub.status === 'canceled' || sub.status === 'incomplete_expired';

export type PlanOf = (priceId: string | null | undefined) => PlanKey | null;

function periodOf(sub: Stripe.Subscription): { start: number; end: number } {
  const item = sub.items.data[0];
  if (!item) throw new BillingError('unavailable', `Subscription ${sub.id} has no items`);
  return { start: item.current_period_start, end: item.current_period_end };
}

function phasePrice(phase: Stripe.SubscriptionSchedule.Phase): string | null {
  return idOf(phase.items[0]?.price as string | { id: string } | undefined);
}

/** A change the schedule makes at or after the current period's end, if any. */
export function scheduledChangeOf(
  sub: Stripe.Subscription,
  schedule: Stripe.SubscriptionSchedule | null,
  planOf: PlanOf,
): SubscriptionView['scheduledChange'] {
  if (!schedule || (schedule.status !== 'active' && schedule.status !== 'not_started')) return null;
  const current = sub.items.data[0]?.price.id;
  const { end } = periodOf(sub);
  const next = schedule.phases.find((phase) => phase.start_date >= end && phasePrice(phase) !== current);
  const plan = next ? planOf(phasePrice(next)) : null;
  // Each request makes a schedule of its own: its id tells two requests for the same change apart.
  return next && plan ? { plan, effectiveAt: iso(next.start_date)!, requestRef: schedule.id } : null;
}

export function toSubscriptionView(
  sub: Stripe.Subscription,
  schedule: Stripe.SubscriptionSchedule | null,
  planOf: PlanOf,
): SubscriptionView {
  const item = sub.items.data[0]!;
  const { start, end } = periodOf(sub);
  const plan = planOf(item.price.id) ?? (isPlanKey(sub.metadata?.plan) ? sub.metadata.plan : null);
  if (!plan)
    throw new BillingError('unavailable', `Subscription ${sub.id} is on a price no package names (${item.price.id})`);
  const method = sub.default_payment_method;
  const card =
    method && typeof method === 'object' && method.card ? { brand: method.card.brand, last4: method.card.last4 } : null;
  return {
    id: sub.id,
    customerId: idOf(sub.customer)!,
    plan,
    status: mapStatus(sub.status),
    amount: (item.price.unit_amount ?? 0) * (item.quantity ?? 1),
    currency: 'sgd',
    currentPeriodStart: iso(start)!,
    currentPeriodEnd: iso(end)!,
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    canceledAt: sub.cancel_at_period_end ? iso(sub.canceled_at) : null,
    endedAt: iso(sub.ended_at),
    scheduledChange: ended(sub) || sub.cancel_at_period_end ? null : scheduledChangeOf(sub, schedule, planOf),
    card,
  };
}

function invoiceStatus(status: string | null): InvoiceStatus {
  return status === 'paid' || status === 'void' || status === 'uncollectible' ? status : 'open';
}

/** The parts of an invoice line this product reads, in the API's newer and older shapes. */
type LineShape = {
  period?: { start: number; end: number };
  pricing?: { price_details?: { price?: string | { id: string } } | null } | null;
  price?: { id: string } | null;
};
type InvoiceShape = {
  parent?: { subscription_details?: { subscription?: string | { id: string } | null } | null } | null;
  subscription?: string | { id: string } | null;
};

export function toInvoiceView(invoice: Stripe.Invoice, planOf: PlanOf): InvoiceView {
  const line = invoice.lines?.data?.[0] as LineShape | undefined;
  const priceId = idOf(line?.pricing?.price_details?.price ?? null) ?? line?.price?.id ?? null;
  const shape = invoice as unknown as InvoiceShape;
  return {
    id: invoice.id!,
    number: invoice.number ?? invoice.id!,
    customerId: idOf(invoice.customer as string | { id: string } | null)!,
    subscriptionId: idOf(shape.parent?.subscription_details?.subscription ?? shape.subscription ?? null),
    status: invoiceStatus(invoice.status),
    plan: planOf(priceId),
    amount: invoice.total,
    currency: 'sgd',
    created: iso(invoice.created)!,
    periodStart: iso(line?.period?.start ?? invoice.period_start)!,
    periodEnd: iso(line?.period?.end ?? invoice.period_end)!,
    hostedUrl: invoice.hosted_invoice_url ?? null,
    pdfUrl: invoice.invoice_pdf ?? null,
  };
}

/** Stripe's credit note as the portal shows it (its invoice expanded for the number, else the id). */
export function toCreditNoteSummary(cn: Stripe.CreditNote): CreditNoteSummary {
  const invoice = cn.invoice as string | Stripe.Invoice;
  return {
    id: cn.id,
    number: cn.number,
    customerId: idOf(cn.customer as string | { id: string })!,
    invoiceId: idOf(invoice as string | { id: string })!,
    invoiceNumber: typeof invoice === 'string' ? invoice : (invoice.number ?? invoice.id!),
    amount: cn.total,
    currency: 'sgd',
    created: iso(cn.created)!,
    reason: cn.memo || cn.reason || null,
    pdfUrl: cn.pdf ?? null,
  };
}

/**
 * What Stripe's invoice says about tax: the customer as Stripe printed them, their tax IDs, the
 * net, each tax with its rate (`rates` holds the invoice's tax rates, fetched by id) and the total.
 * Null for an invoice without tax objects (before they were used, or no profile).
 */
export function toStripeInvoiceTax(
  invoice: Stripe.Invoice,
  rates: Map<string, Stripe.TaxRate>,
): StripeInvoiceTax | null {
  const taxes = invoice.total_taxes ?? [];
  const ids = invoice.customer_tax_ids ?? [];
  if (!taxes.length && !ids.length && !invoice.customer_address) return null;
  const a = invoice.customer_address;
  return {
    customerName: invoice.customer_name ?? null,
    customerAddress: a
      ? [a.line1, a.line2, [a.city, a.postal_code].filter(Boolean).join(' '), a.country].filter((x): x is string =>
          Boolean(x),
        )
      : [],
    customerCountry: a?.country ?? null,
    customerTaxIds: ids.flatMap((t) => (t.value ? [{ type: t.type, value: t.value }] : [])),
    net: invoice.total_excluding_tax ?? invoice.total,
    taxes: taxes.map((t) => {
      const rate = t.tax_rate_details ? rates.get(t.tax_rate_details.tax_rate) : undefined;
      return {
        name: rate?.display_name ?? '',
        percentage: rate?.percentage ?? 0,
        amount: t.amount,
        taxable: t.taxable_amount ?? 0,
        inclusive: t.tax_behavior === 'inclusive',
      };
    }),
    tax: taxes.reduce((sum, t) => sum + t.amount, 0),
    total: invoice.total,
  };
}

function customerView(
  customer: Stripe.Customer,
  hint?: { locale?: string | null; company?: string | null; name?: string | null; email?: string | null },
): Customer {
  const localeHint = hint?.locale ?? customer.metadata?.locale ?? customer.preferred_locales?.[0] ?? 'en';
  const locale: Locale = localeHint.startsWith('ar') ? 'ar' : 'en';
  const email = (customer.email ?? hint?.email ?? '').toLowerCase();
  return {
    id: customer.id,
    email,
    // The portal greets the person; Stripe's `name` is the legal name printed on its invoices.
    name: customer.metadata?.[CONTACT_NAME] || hint?.name || customer.name || email,
    company: hint?.company ?? customer.metadata?.company ?? null,
    locale,
  };
}

function isMissing(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeInvalidRequestError &&
    (error.code === 'resource_missing' || error.statusCode === 404)
  );
}

/** Stripe's failures as the portal's: a declined card, a missing object, or billing unavailable. */
function translate(error: unknown): never {
  if (error instanceof BillingError) throw error;
  if (error instanceof Stripe.errors.StripeCardError) throw new BillingError('card_declined', error.message);
  if (isMissing(error)) throw new BillingError('not_found', (error as Error).message);
  if (error instanceof Stripe.errors.StripeInvalidRequestError)
    throw new BillingError('invalid_request', error.message);
  throw new BillingError('unavailable', error instanceof Error ? error.message : String(error));
}

export class StripeBilling implements BillingProvider {
  readonly kind = 'stripe' as const;
  readonly stripe: Stripe;
  private readonly log: (message: string) => void;
  /** Tax rate ids by treatment key, and the account's tax ID, once found or made. */
  private readonly taxRateIds = new Map<string, string>();
  private accountTaxIdCache: string | null = null;

  constructor(private readonly options: StripeBillingOptions) {
    const base = options.apiBase ? new URL(options.apiBase) : null;
    this.stripe = new Stripe(options.secretKey, {
      maxNetworkRetries: 2,
      timeout: 15_000,
      telemetry: false,
      appInfo: { name: 'bawaba-advisory-portal' },
      ...(base
        ? {
            host: base.hostname,
            port: Number(base.port) || (base.protocol === 'https:' ? 443 : 80),
            protocol: base.protocol === 'http:' ? 'http' : 'https',
          }
        : {}),
    });
    this.log = options.log ?? ((message) => logger.info(`[stripe] ${message}`));
  }

  async now(): Promise<Date> {
    return new Date();
  }

  // ------------------------------------------------------------------ plans and prices

  /** Plan → price id: the CMS's stripePriceId, else the environment's STRIPE_PRICE_<PLAN>. */
  private async prices(): Promise<Map<PlanKey, string>> {
    const table = new Map<PlanKey, string>();
    for (const plan of await this.options.plans()) {
      const price = plan.stripePriceId || this.options.prices[plan.key];
      if (price) table.set(plan.key, price);
    }
    return table;
  }

  private async planOf(): Promise<PlanOf> {
    const byPrice = new Map([...(await this.prices())].map(([plan, price]) => [price, plan] as const));
    return (price) => (price ? (byPrice.get(price) ?? null) : null);
  }

  private async priceFor(plan: PlanKey): Promise<string> {
    const price = (await this.prices()).get(plan);
    if (!price)
      throw new BillingError(
        'invalid_request',
        `The plan ${plan} has no Stripe price (set stripePriceId on the package or STRIPE_PRICE_${plan.toUpperCase()})`,
      );
    return price;
  }

  // ------------------------------------------------------------------ reading

  async getCustomer(customerId: string): Promise<Customer | null> {
    if (!/^cus_[A-Za-z0-9]{1,64}$/.test(customerId)) return null;
    try {
      const customer = await this.stripe.customers.retrieve(customerId);
      return customer.deleted ? null : customerView(customer);
    } catch (error) {
      if (isMissing(error)) return null;
      translate(error);
    }
  }

  async findCustomerByEmail(email: string): Promise<Customer | null> {
    try {
      const found = await this.stripe.customers.list({ email: email.trim().toLowerCase(), limit: 1 });
      return found.data[0] ? customerView(found.data[0]) : null;
    } catch (error) {
      translate(error);
    }
  }

  private async schedule(sub: Stripe.Subscription): Promise<Stripe.SubscriptionSchedule | null> {
    const id = idOf(sub.schedule as string | { id: string } | null);
    return id ? this.stripe.subscriptionSchedules.retrieve(id) : null;
  }

  private async view(sub: Stripe.Subscription): Promise<SubscriptionView> {
    return toSubscriptionView(sub, await this.schedule(sub), await this.planOf());
  }

  /** The customer's own subscription, live; another customer's id is "not found". */
  private async own(customerId: string, subscriptionId: string): Promise<Stripe.Subscription> {
    if (!/^sub_[A-Za-z0-9]{1,64}$/.test(subscriptionId)) throw new BillingError('not_found', 'No such subscription');
    try {
      const sub = await this.stripe.subscriptions.retrieve(subscriptionId, { expand: ['default_payment_method'] });
      if (idOf(sub.customer) !== customerId) throw new BillingError('not_found', 'No such subscription');
      return sub;
    } catch (error) {
      translate(error);
    }
  }

  async getSubscription(customerId: string): Promise<SubscriptionView | null> {
    if (!/^cus_[A-Za-z0-9]{1,64}$/.test(customerId)) return null;
    try {
      const list = await this.stripe.subscriptions.list({
        customer: customerId,
        status: 'all',
        limit: 10,
        expand: ['data.default_payment_method'],
      });
      const live = list.data.filter((sub) => !ended(sub) && sub.status !== 'incomplete');
      const current = live.find((sub) => sub.status === 'active' || sub.status === 'trialing') ?? live[0];
      return current ? await this.view(current) : null;
    } catch (error) {
      if (isMissing(error)) return null;
      translate(error);
    }
  }

  async listInvoices(
    customerId: string,
    page: { limit: number; startingAfter?: string },
  ): Promise<{ invoices: InvoiceView[]; hasMore: boolean }> {
    if (!/^cus_[A-Za-z0-9]{1,64}$/.test(customerId)) return { invoices: [], hasMore: false };
    try {
      const list = await this.stripe.invoices.list({
        customer: customerId,
        limit: Math.min(100, Math.max(1, page.limit)),
        ...(page.startingAfter && /^in_[A-Za-z0-9]{1,64}$/.test(page.startingAfter)
          ? { starting_after: page.startingAfter }
          : {}),
      });
      const planOf = await this.planOf();
      return {
        invoices: list.data.filter((inv) => inv.status !== 'draft').map((inv) => toInvoiceView(inv, planOf)),
        hasMore: list.has_more,
      };
    } catch (error) {
      translate(error);
    }
  }

  /** Stripe's invoices are the tax invoices (their tax is in `InvoiceView.stripeTax`): no snapshot here. */
  async getInvoiceTax(): Promise<null> {
    return null;
  }

  async getInvoice(customerId: string, invoiceId: string): Promise<InvoiceView | null> {
    if (!/^in_[A-Za-z0-9]{1,64}$/.test(invoiceId)) return null;
    try {
      const invoice = await this.stripe.invoices.retrieve(invoiceId);
      if (idOf(invoice.customer as string | { id: string } | null) !== customerId || invoice.status === 'draft')
        return null;
      // An invoice names its tax rates by id only: each is read (an invoice has one or two).
      const rates = new Map<string, Stripe.TaxRate>();
      for (const t of invoice.total_taxes ?? []) {
        const id = t.tax_rate_details?.tax_rate;
        if (id && !rates.has(id)) rates.set(id, await this.stripe.taxRates.retrieve(id));
      }
      return { ...toInvoiceView(invoice, await this.planOf()), stripeTax: toStripeInvoiceTax(invoice, rates) };
    } catch (error) {
      if (isMissing(error)) return null;
      translate(error);
    }
  }

  // ------------------------------------------------------------------ credit notes (Stripe's own)

  /** One request: the customer's credit notes (their newest 100), kept for these invoices. */
  async listCreditNotes(customerId: string, invoiceIds: string[]): Promise<CreditNoteSummary[]> {
    if (!/^cus_[A-Za-z0-9]{1,64}$/.test(customerId) || !invoiceIds.length) return [];
    const wanted = new Set(invoiceIds);
    try {
      const list = await this.stripe.creditNotes.list({ customer: customerId, limit: 100, expand: ['data.invoice'] });
      return list.data
        .filter((cn) => cn.status !== 'void' && wanted.has(idOf(cn.invoice as string | { id: string })!))
        .filter((cn) => idOf(cn.customer as string | { id: string }) === customerId)
        .map(toCreditNoteSummary)
        .reverse();
    } catch (error) {
      translate(error);
    }
  }

  /** Stripe's credit note (its document is Stripe's PDF): no snapshot here. */
  async getCreditNote(
    customerId: string,
    creditNoteId: string,
  ): Promise<{ note: CreditNoteSummary; snapshot: null } | null> {
    if (!/^cn_[A-Za-z0-9]{1,64}$/.test(creditNoteId)) return null;
    try {
      const cn = await this.stripe.creditNotes.retrieve(creditNoteId, { expand: ['invoice'] });
      if (idOf(cn.customer as string | { id: string }) !== customerId || cn.status === 'void') return null;
      return { note: toCreditNoteSummary(cn), snapshot: null };
    } catch (error) {
      if (isMissing(error)) return null;
      translate(error);
    }
  }

  /**
   * Stripe's credit note for the whole invoice (credit_notes.create, its lines by quantity, the
   * operator's reason as the memo): a paid invoice is refunded (refund_amount), an open one has
   * its amount due cancelled. An invoice already credited in full answers with its note
   * (created: false); the create carries an idempotency key of the invoice, so a retried request
   * is applied once by Stripe.
   */
  async issueCreditNote(invoiceNumber: string, reason: string): Promise<IssuedCreditNote> {
    const number = String(invoiceNumber ?? '').trim();
    if (!/^[A-Za-z0-9-]{1,64}$/.test(number))
      throw new CreditNoteError('not_found', `no invoice numbered ${JSON.stringify(invoiceNumber)}`);
    const memo = checkReason(reason);
    try {
      const found = await this.stripe.invoices.search({ query: `number:"${number}"`, limit: 1 });
      const invoice = found.data[0];
      if (!invoice || invoice.status === 'draft')
        throw new CreditNoteError('not_found', `no invoice numbered ${number}`);
      const notes = await this.stripe.creditNotes.list({ invoice: invoice.id!, limit: 100, expand: ['data.invoice'] });
      const issued = notes.data.filter((cn) => cn.status !== 'void');
      if (issued.reduce((sum, cn) => sum + cn.total, 0) >= invoice.total && issued.length)
        return { note: toCreditNoteSummary(issued[0]), created: false };
      if (issued.length)
        throw new CreditNoteError(
          'already',
          `invoice ${number} is partly credited already (${issued.map((cn) => cn.number).join(', ')})`,
        );
      if (invoice.status !== 'paid' && invoice.status !== 'open')
        throw new CreditNoteError(
          'not_tax_invoice',
          `invoice ${number} is ${invoice.status}: Stripe credits only open or paid invoices`,
        );
      const lines = (invoice.lines?.data ?? []).map((line) => ({
        type: 'invoice_line_item' as const,
        invoice_line_item: line.id!,
        quantity: line.quantity ?? 1,
      }));
      const cn = await this.stripe.creditNotes.create(
        {
          invoice: invoice.id!,
          lines,
          reason: 'order_change',
          memo,
          ...(invoice.status === 'paid' ? { refund_amount: invoice.total } : {}),
          expand: ['invoice'],
        },
        { idempotencyKey: `credit-note-full:${invoice.id}` },
      );
      this.log(`credit note ${cn.number} issued for invoice ${number}`);
      return { note: toCreditNoteSummary(cn), created: true };
    } catch (error) {
      if (error instanceof CreditNoteError) throw error;
      translate(error);
    }
  }

  async recentCreditNotes(limit: number): Promise<CreditNoteSummary[]> {
    try {
      const list = await this.stripe.creditNotes.list({
        limit: Math.max(1, Math.min(100, Math.floor(limit) || 30)),
        expand: ['data.invoice'],
      });
      return list.data.map(toCreditNoteSummary);
    } catch (error) {
      translate(error);
    }
  }

  async listRenewing(before: Date): Promise<SubscriptionView[]> {
    const out: SubscriptionView[] = [];
    try {
      const planOf = await this.planOf();
      // Bounded: at most 2,000 subscriptions a run; the reminder job runs again later.
      for await (const sub of this.stripe.subscriptions.list({
        status: 'active',
        limit: 100,
        current_period_end: { lte: Math.floor(before.getTime() / 1000) },
      })) {
        if (!sub.cancel_at_period_end) out.push(toSubscriptionView(sub, await this.schedule(sub), planOf));
        if (out.length >= 2000) break;
      }
    } catch (error) {
      translate(error);
    }
    return out;
  }

  // ------------------------------------------------------------------ billing details and tax

  /** The client's billing details as the Stripe customer holds them; null before they gave an address. */
  async getBillingDetails(customerId: string): Promise<BillingDetails | null> {
    if (!/^cus_[A-Za-z0-9]{1,64}$/.test(customerId)) return null;
    try {
      const customer = await this.stripe.customers.retrieve(customerId, { expand: ['tax_ids'] });
      if (customer.deleted || !customer.address?.country) return null;
      const a = customer.address;
      const taxId = customer.tax_ids?.data[0]?.value ?? null;
      return {
        legalName: customer.metadata?.[LEGAL_NAME] || customer.name || '',
        address: [a.line1, a.line2].filter(Boolean).join('\n'),
        city: a.city ?? '',
        postalCode: a.postal_code ?? '',
        country: a.country!,
        // What the client typed, kept in the metadata; else the tax ID as Stripe holds it.
        registrationNumber: customer.metadata?.[TAX_NUMBER] || taxId,
      };
    } catch (error) {
      if (isMissing(error)) return null;
      translate(error);
    }
  }

  /**
   * Puts the details on the Stripe customer: the legal name as Stripe's `name` (printed on its
   * invoices; the person's name is kept as metadata.contact_name), the address, the tax ID of the
   * client's country, the zero-rating statement as the invoice footer; then the live subscription
   * gets the treatment's tax rate. Only invoices Stripe finalizes from now on carry them.
   */
  async setBillingDetails(customerId: string, details: BillingDetails): Promise<void> {
    if (!/^cus_[A-Za-z0-9]{1,64}$/.test(customerId)) throw new BillingError('not_found', 'No such customer');
    try {
      const customer = await this.stripe.customers.retrieve(customerId, { expand: ['tax_ids'] });
      if (customer.deleted) throw new BillingError('not_found', 'No such customer');
      const [line1, ...rest] = details.address.split('\n');
      const contact = customer.metadata?.[CONTACT_NAME] || customer.name || '';
      const type = STRIPE_TAX_ID_TYPES[details.country] ?? null;
      const value = registrationValue(details);
      const minute = Math.floor(Date.now() / 60_000);
      const digest = createHash('sha256').update(JSON.stringify(details)).digest('hex').slice(0, 16);
      await this.stripe.customers.update(
        customerId,
        {
          name: details.legalName,
          address: {
            line1: line1 ?? '',
            line2: rest.join(', '),
            city: details.city ?? '',
            postal_code: details.postalCode ?? '',
            country: details.country,
          },
          invoice_settings: { footer: this.zeroRatingStatement(details.country, customer) },
          metadata: {
            [LEGAL_NAME]: details.legalName,
            [CONTACT_NAME]: contact,
            [TAX_NUMBER]: details.registrationNumber ?? '',
          },
        },
        { idempotencyKey: `bawaba:billing-details:${customerId}:${digest}:${minute}` },
      );
      // One tax ID of the country's type: others of the types this site sets are removed.
      const existing = customer.tax_ids?.data ?? [];
      for (const t of existing)
        if (Object.values(STRIPE_TAX_ID_TYPES).includes(t.type as 'ae_trn') && !(t.type === type && t.value === value))
          await this.stripe.customers.deleteTaxId(customerId, t.id);
      if (type && value && !existing.some((t) => t.type === type && t.value === value))
        await this.stripe.customers.createTaxId(
          customerId,
          { type, value },
          { idempotencyKey: `bawaba:customer-tax-id:${customerId}:${type}:${value}:${minute}` },
        );
      const sub = await this.liveSubscription(customerId);
      if (sub) await this.applyTax(sub.id, details.country, `details:${digest}:${minute}`);
    } catch (error) {
      translate(error);
    }
  }

  /** The zero-rating statement of the client's treatment, in the customer's language, or '' (none). */
  private zeroRatingStatement(country: string | null, customer: Stripe.Customer): string {
    const profile = this.options.tax?.profile;
    if (!profile) return '';
    const statement = taxTreatment(profile, country).statement;
    const locale: Locale = (customer.metadata?.locale ?? customer.preferred_locales?.[0] ?? 'en').startsWith('ar')
      ? 'ar'
      : 'en';
    return statement ? taxLabels[locale][statement] : '';
  }

  private async liveSubscription(customerId: string): Promise<Stripe.Subscription | null> {
    const list = await this.stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 10 });
    return list.data.find((sub) => !ended(sub) && sub.status !== 'incomplete') ?? null;
  }

  /**
   * The tax rate of the treatment for a client in `country` (null: not known), made once: found
   * again by its metadata, so a restart or a second server makes no second one. Null when no tax
   * rate applies (no profile, Stripe Tax, or an unregistered firm).
   */
  async taxRateFor(country: string | null): Promise<string | null> {
    const tax = this.options.tax;
    if (!tax || tax.mode !== 'rates' || !tax.profile.registered) return null;
    const t = taxTreatment(tax.profile, country);
    const key = [
      tax.profile.country,
      t.kind,
      t.ratePercent,
      tax.profile.pricesIncludeTax ? 'inclusive' : 'exclusive',
    ].join(':');
    const known = this.taxRateIds.get(key);
    if (known) return known;
    let id: string | null = null;
    // Bounded: an account has a handful of tax rates.
    for await (const rate of this.stripe.taxRates.list({ active: true, limit: 100 })) {
      if (rate.metadata?.[TREATMENT] === key) {
        id = rate.id;
        break;
      }
    }
    if (!id) {
      const name = tax.profile.country === 'AE' ? 'VAT' : 'GST';
      const rate = await this.stripe.taxRates.create(
        {
          display_name: name,
          description: `${name} ${t.kind} (${key})`,
          percentage: t.ratePercent,
          inclusive: tax.profile.pricesIncludeTax,
          country: tax.profile.country,
          tax_type: tax.profile.country === 'AE' ? 'vat' : 'gst',
          metadata: { [TREATMENT]: key },
        },
        { idempotencyKey: `bawaba:tax-rate:${key}` },
      );
      id = rate.id;
      this.log(`tax rate ${id} made for ${key}`);
    }
    this.taxRateIds.set(key, id);
    return id;
  }

  /** The firm's registration number as one of the account's tax IDs (made once from the profile), or null. */
  async accountTaxId(): Promise<string | null> {
    const profile = this.options.tax?.profile;
    if (!profile?.registered || !profile.registrationNumber) return null;
    if (this.accountTaxIdCache) return this.accountTaxIdCache;
    const type = profile.country === 'AE' ? 'ae_trn' : 'sg_gst';
    const value = profile.registrationNumber;
    const own = await this.stripe.taxIds.list({ owner: { type: 'self' }, limit: 100 });
    const found = own.data.find((t) => t.type === type && t.value === value);
    this.accountTaxIdCache =
      found?.id ??
      (
        await this.stripe.taxIds.create(
          { type, value, owner: { type: 'self' } },
          { idempotencyKey: `bawaba:account-tax-id:${type}:${value}` },
        )
      ).id;
    return this.accountTaxIdCache;
  }

  /** The subscription's next invoices get the treatment's tax rate and the firm's tax ID. */
  private async applyTax(subscriptionId: string, country: string | null, why: string): Promise<void> {
    if (!this.options.tax) return;
    const [rate, account] = await Promise.all([this.taxRateFor(country), this.accountTaxId()]);
    await this.stripe.subscriptions.update(
      subscriptionId,
      {
        ...(this.options.tax.mode === 'rates' ? { default_tax_rates: rate ? [rate] : '' } : {}),
        invoice_settings: { account_tax_ids: account ? [account] : '' },
      },
      { idempotencyKey: `bawaba:subscription-tax:${subscriptionId}:${why}` },
    );
  }

  // ------------------------------------------------------------------ changing

  private key(action: string, sub: Stripe.Subscription, ...parts: string[]): string {
    const ops = Number(sub.metadata?.[OPS] ?? 0) || 0;
    return ['bawaba', action, sub.id, ...parts, `p${periodOf(sub).end}`, `o${ops}`].join(':');
  }

  private nextOps(sub: Stripe.Subscription): Record<string, string> {
    return { [OPS]: String((Number(sub.metadata?.[OPS] ?? 0) || 0) + 1) };
  }

  /** Raises the operation count, so the next action's keys are new. Keyed itself, so a retry raises it once. */
  private async bump(sub: Stripe.Subscription): Promise<void> {
    await this.stripe.subscriptions.update(
      sub.id,
      { metadata: this.nextOps(sub) },
      { idempotencyKey: this.key('ops', sub) },
    );
  }

  private async release(schedule: Stripe.SubscriptionSchedule): Promise<void> {
    if (schedule.status !== 'active' && schedule.status !== 'not_started') return;
    await this.stripe.subscriptionSchedules.release(
      schedule.id,
      {},
      { idempotencyKey: `bawaba:release:${schedule.id}` },
    );
  }

  /**
   * Brings the customer's live subscription to the state `done` describes: reads it, refuses it
   * with `check` (the action's preconditions), and runs `step` until the state read back holds, at
   * most three rounds. A round whose keyed calls only replayed an older answer (the state did not
   * change) raises the operation count first, so that the next round's keys are new.
   */
  private async converge(
    customerId: string,
    subscriptionId: string,
    action: {
      check?: (sub: Stripe.Subscription) => void;
      done: (sub: Stripe.Subscription, view: SubscriptionView) => boolean;
      step: (sub: Stripe.Subscription) => Promise<void>;
    },
  ): Promise<SubscriptionView> {
    try {
      for (let round = 0; ; round++) {
        let sub = await this.own(customerId, subscriptionId);
        action.check?.(sub);
        const view = await this.view(sub);
        if (action.done(sub, view)) return view;
        if (round === 3) throw new BillingError('unavailable', `Stripe did not apply the change to ${subscriptionId}`);
        if (round > 0) {
          await this.bump(sub);
          sub = await this.own(customerId, subscriptionId);
        }
        await action.step(sub);
      }
    } catch (error) {
      translate(error);
    }
  }

  async changePlan(customerId: string, subscriptionId: string, plan: PlanKey): Promise<SubscriptionView> {
    if (!isPlanKey(plan)) throw new BillingError('invalid_request', `Unknown plan ${String(plan)}`);
    const target = await this.priceFor(plan);
    const onTarget = (sub: Stripe.Subscription) => sub.items.data[0]?.price.id === target;
    return this.converge(customerId, subscriptionId, {
      check: (sub) => {
        if (ended(sub)) throw new BillingError('invalid_state', 'The subscription has ended');
        if (sub.cancel_at_period_end)
          throw new BillingError('invalid_state', 'The subscription is cancelling; resume it before changing the plan');
      },
      // Back to the plan it is on: that is withdrawing the scheduled change.
      done: (sub, view) => (onTarget(sub) ? view.scheduledChange === null : view.scheduledChange?.plan === plan),
      step: async (sub) => {
        const existing = await this.schedule(sub);
        if (existing) await this.release(existing);
        if (onTarget(sub)) return this.bump(sub);
        const current = sub.items.data[0]!;
        const periodEnd = periodOf(sub).end;
        const schedule = await this.stripe.subscriptionSchedules.create(
          { from_subscription: sub.id },
          { idempotencyKey: this.key('schedule', sub, target) },
        );
        if (schedule.status !== 'active' && schedule.status !== 'not_started') return; // an old answer: the next round has new keys
        const phase = schedule.phases[0]!;
        const quantity = current.quantity ?? 1;
        await this.stripe.subscriptionSchedules.update(
          schedule.id,
          {
            end_behavior: 'release',
            proration_behavior: 'none',
            metadata: { plan },
            phases: [
              {
                items: [{ price: current.price.id, quantity }],
                start_date: phase.start_date,
                end_date: periodEnd,
                proration_behavior: 'none',
              },
              {
                items: [{ price: target, quantity }],
                duration: { interval: 'month', interval_count: 1 },
                proration_behavior: 'none',
                metadata: { plan },
              },
            ],
          },
          { idempotencyKey: `bawaba:phases:${schedule.id}:${target}` },
        );
        await this.bump(sub);
      },
    });
  }

  async withdrawChange(customerId: string, subscriptionId: string): Promise<SubscriptionView> {
    return this.converge(customerId, subscriptionId, {
      done: (_, view) => view.scheduledChange === null,
      step: async (sub) => {
        const schedule = await this.schedule(sub);
        if (schedule) await this.release(schedule);
        await this.bump(sub);
      },
    });
  }

  async cancel(customerId: string, subscriptionId: string): Promise<SubscriptionView> {
    return this.converge(customerId, subscriptionId, {
      check: (sub) => {
        if (ended(sub)) throw new BillingError('invalid_state', 'The subscription has ended');
      },
      done: (sub) => sub.cancel_at_period_end && !sub.schedule,
      step: async (sub) => {
        const schedule = await this.schedule(sub);
        if (schedule) await this.release(schedule);
        await this.stripe.subscriptions.update(
          sub.id,
          { cancel_at_period_end: true, metadata: this.nextOps(sub) },
          { idempotencyKey: this.key('cancel', sub) },
        );
      },
    });
  }

  async resume(customerId: string, subscriptionId: string): Promise<SubscriptionView> {
    return this.converge(customerId, subscriptionId, {
      check: (sub) => {
        if (ended(sub) || Date.now() >= periodOf(sub).end * 1000)
          throw new BillingError('invalid_state', 'The subscription has ended');
      },
      done: (sub) => !sub.cancel_at_period_end,
      step: async (sub) => {
        await this.stripe.subscriptions.update(
          sub.id,
          { cancel_at_period_end: false, metadata: this.nextOps(sub) },
          { idempotencyKey: this.key('resume', sub) },
        );
      },
    });
  }

  // ------------------------------------------------------------------ checkout

  /**
   * A Checkout Session in subscription mode for the plan's price, in the page's language, back
   * to the subscription page. Without a price id, the plan's payment link when it is a real
   * Stripe payment link. The key is derived from who asks for which plan within a minute, so a
   * double submit opens one session.
   */
  async startCheckout(request: CheckoutRequest): Promise<{ url: string }> {
    if (!isPlanKey(request.plan)) throw new BillingError('invalid_request', `Unknown plan ${String(request.plan)}`);
    const price = (await this.prices()).get(request.plan);
    if (!price) {
      const link = (await this.options.plans()).find((p) => p.key === request.plan)?.paymentLink ?? '';
      if (/^https:\/\/buy\.stripe\.com\/[A-Za-z0-9_]+$/.test(link)) {
        const url = new URL(link);
        if (request.email) url.searchParams.set('prefilled_email', request.email);
        url.searchParams.set('locale', request.locale);
        return { url: url.toString() };
      }
      throw new BillingError(
        'unavailable',
        `The plan ${request.plan} has neither a Stripe price nor a Stripe payment link`,
      );
    }
    if (request.customerId && (await this.getSubscription(request.customerId))) {
      throw new BillingError('invalid_state', 'This customer already has a subscription');
    }
    const who =
      request.customerId ??
      createHash('sha256')
        .update(`${request.email ?? ''}|${request.visitor ?? ''}`)
        .digest('hex')
        .slice(0, 24);
    const minute = Math.floor(Date.now() / 60_000);
    // The first invoice's tax: a signed-in client's country is known; a new client's is not yet
    // (the rule table's setting decides), and the subscription is corrected once Checkout has it.
    const known = request.customerId ? await this.getBillingDetails(request.customerId) : null;
    const automatic = this.options.tax?.mode === 'automatic';
    const rate = await this.taxRateFor(known?.country ?? null);
    const success = new URL(request.successUrl);
    const successUrl = `${success.toString()}${success.search ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`;
    try {
      const session = await this.stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          line_items: [{ price, quantity: 1 }],
          success_url: successUrl,
          cancel_url: request.cancelUrl,
          locale: request.locale,
          ...(request.customerId
            ? { customer: request.customerId }
            : request.email
              ? { customer_email: request.email }
              : {}),
          metadata: { plan: request.plan, locale: request.locale },
          subscription_data: {
            metadata: { plan: request.plan, locale: request.locale },
            ...(rate ? { default_tax_rates: [rate] } : {}),
          },
          // The tax invoice's particulars: Stripe asks for the billing address and a business tax ID,
          // and writes them on the customer (an existing one only as customer_update allows).
          billing_address_collection: 'required',
          tax_id_collection: { enabled: true },
          ...(request.customerId ? { customer_update: { address: 'auto', name: 'auto' } } : {}),
          ...(automatic ? { automatic_tax: { enabled: true } } : {}),
          custom_fields: [
            {
              key: 'company',
              label: { type: 'custom', custom: request.locale === 'ar' ? 'الشركة' : 'Company' },
              type: 'text',
              optional: true,
            },
          ],
        },
        { idempotencyKey: `bawaba:checkout:${request.plan}:${request.locale}:${who}:${minute}` },
      );
      if (!session.url) throw new BillingError('unavailable', 'Stripe returned no checkout address');
      return { url: session.url };
    } catch (error) {
      translate(error);
    }
  }

  /**
   * The customer of a completed Checkout Session (the return to the success address), so the
   * portal account exists before the webhook arrives. Null for anything not complete.
   */
  async completedCheckout(sessionId: string): Promise<Customer | null> {
    if (!/^cs_[A-Za-z0-9_]{1,200}$/.test(sessionId)) return null;
    try {
      const session = await this.stripe.checkout.sessions.retrieve(sessionId);
      return session.status === 'complete' && session.mode === 'subscription'
        ? await this.checkoutCustomer(session)
        : null;
    } catch (error) {
      if (isMissing(error)) return null;
      translate(error);
    }
  }

  private async checkoutCustomer(session: Stripe.Checkout.Session): Promise<Customer | null> {
    const id = idOf(session.customer as string | { id: string } | null);
    if (!id) return null;
    const customer = await this.stripe.customers.retrieve(id);
    if (customer.deleted) return null;
    const company = session.custom_fields?.find((f) => f.key === 'company')?.text?.value?.trim() || null;
    const locale = session.metadata?.locale ?? session.locale ?? null;
    const details = session.customer_details;
    // The legal name of the tax invoices: the business named with a tax ID, else the company, else the person.
    const legalName = details?.business_name?.trim() || company || details?.name || null;
    const contact = details?.name ?? null;
    const country = details?.address?.country ?? customer.address?.country ?? null;
    // Stripe's own messages (receipts) in the client's language too, the company, legal and contact
    // names kept on the customer, and the footer of a zero-rated client's invoices.
    if (
      (locale && customer.metadata?.locale !== locale) ||
      (company && customer.metadata?.company !== company) ||
      (legalName && !customer.metadata?.[LEGAL_NAME])
    ) {
      const footer = country ? this.zeroRatingStatement(country, customer) : '';
      await this.stripe.customers.update(
        id,
        {
          preferred_locales: [locale === 'ar' ? 'ar' : 'en'],
          metadata: {
            ...(locale ? { locale } : {}),
            ...(company ? { company } : {}),
            ...(legalName && !customer.metadata?.[LEGAL_NAME] ? { [LEGAL_NAME]: legalName } : {}),
            ...(contact && !customer.metadata?.[CONTACT_NAME] ? { [CONTACT_NAME]: contact } : {}),
          },
          ...(footer ? { invoice_settings: { footer } } : {}),
        },
        { idempotencyKey: `bawaba:customer-from-checkout:${session.id}` },
      );
    }
    // The subscription's next invoices follow the country Checkout collected.
    const subscriptionId = idOf(session.subscription as string | { id: string } | null);
    if (subscriptionId && this.options.tax) await this.applyTax(subscriptionId, country, `checkout:${session.id}`);
    return customerView(customer, {
      locale,
      company,
      name: session.customer_details?.name ?? null,
      email: session.customer_details?.email ?? null,
    });
  }

  // ------------------------------------------------------------------ webhooks

  /**
   * A webhook delivery, verified with the SDK on the raw body (signature and age), as a billing
   * event; null for event types the portal does not use. Throws WebhookSignatureError for
   * anything unsigned, forged, tampered or stale.
   */
  async parseWebhook(rawBody: string, signature: string): Promise<BillingEvent | null> {
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(
        rawBody,
        signature,
        this.options.webhookSecret,
        WEBHOOK_TOLERANCE_SECONDS,
      );
    } catch (error) {
      throw new WebhookSignatureError(error instanceof Error ? error.message : String(error));
    }
    const base = { id: event.id, created: iso(event.created)! };
    const planOf = await this.planOf();
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object;
        if (session.mode !== 'subscription') return null;
        const customer = await this.checkoutCustomer(session);
        const subscriptionId = idOf(session.subscription as string | { id: string } | null);
        if (!customer || !subscriptionId) return null;
        return {
          ...base,
          type: event.type,
          customer,
          subscriptionId,
          invoiceId: idOf(session.invoice as string | { id: string } | null),
        };
      }
      case 'customer.subscription.created':
      case 'customer.subscription.deleted': {
        const sub = event.data.object;
        return {
          ...base,
          type: event.type,
          subscription: toSubscriptionView(sub, ended(sub) ? null : await this.schedule(sub), planOf),
        };
      }
      case 'customer.subscription.updated': {
        const sub = event.data.object;
        const subscription = toSubscriptionView(sub, ended(sub) ? null : await this.schedule(sub), planOf);
        return {
          ...base,
          type: event.type,
          subscription,
          previous: previousOf(event.data.previous_attributes ?? {}, planOf),
        };
      }
      case 'subscription_schedule.created':
      case 'subscription_schedule.updated':
      case 'subscription_schedule.released':
      case 'subscription_schedule.canceled': {
        const subscriptionId =
          idOf(event.data.object.subscription as string | { id: string } | null) ??
          idOf(event.data.object.released_subscription as string | null);
        if (!subscriptionId) return null;
        const sub = await this.stripe.subscriptions.retrieve(subscriptionId, { expand: ['default_payment_method'] });
        return { ...base, type: 'subscription_schedule.updated', subscription: await this.view(sub) };
      }
      case 'invoice.paid':
      case 'invoice.payment_failed':
        return { ...base, type: event.type, invoice: toInvoiceView(event.data.object, planOf) };
      default:
        return null;
    }
  }
}

/** Stripe's previous_attributes of a subscription, reduced to what the portal reports. */
export function previousOf(
  previous: Partial<Stripe.Subscription> & Record<string, unknown>,
  planOf: PlanOf,
): Extract<BillingEvent, { type: 'customer.subscription.updated' }>['previous'] {
  const out: Extract<BillingEvent, { type: 'customer.subscription.updated' }>['previous'] = {};
  if ('cancel_at_period_end' in previous && typeof previous.cancel_at_period_end === 'boolean')
    out.cancelAtPeriodEnd = previous.cancel_at_period_end;
  if ('status' in previous && previous.status) out.status = mapStatus(previous.status);
  const items = previous.items as { data?: Array<{ price?: { id: string }; current_period_end?: number }> } | undefined;
  const item = items?.data?.[0];
  if (item?.price) {
    const plan = planOf(item.price.id);
    if (plan) out.plan = plan;
  }
  if (item?.current_period_end) out.currentPeriodEnd = iso(item.current_period_end)!;
  return out;
}
