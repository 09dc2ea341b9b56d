/**
 * The Stripe adapter with the real SDK against tests/fake-stripe.mjs (Stripe's rules the adapter
 * depends on: schedules, cancel refused under a schedule, idempotency keys, signed events).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { createServer } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StripeBilling, WebhookSignatureError } from './stripe.server';
import { DEMO_TAX_PROFILE, type TaxProfile } from './tax/profile';
import type { BillingEvent, BillingPlan } from './types';

const SECRET = 'sk_test_adapter_0123456789';
const WHSEC = 'whsec_adapter_test_secret';
const PRICES = { starter: 'price_starter_m', business: 'price_business_m', enterprise: 'price_enterprise_m' };
const plans = async (): Promise<BillingPlan[]> => [
  { key: 'starter', priceSgd: 950, stripePriceId: PRICES.starter },
  { key: 'business', priceSgd: 1900, stripePriceId: null },
  { key: 'enterprise', priceSgd: 3800, stripePriceId: PRICES.enterprise },
];

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

let fake: ChildProcess;
let base: string;
let hook: http.Server;
/** What the fake delivered to the webhook address, as the adapter reads it. */
const delivered: { raw: string; signature: string }[] = [];
let billing: StripeBilling;

async function api(path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

/** Subscribe through Checkout and the fake's payment page; returns the customer and subscription ids. */
async function subscribe(
  email: string,
  plan: 'starter' | 'business' | 'enterprise' = 'starter',
  card = '4242 4242 4242 4242',
  extra: Record<string, string> = {},
  via: StripeBilling = billing,
) {
  const { url } = await via.startCheckout({
    plan,
    locale: 'en',
    successUrl: 'https://site.test/account/subscription?welcome=1',
    cancelUrl: 'https://site.test/pricing',
    email,
    visitor: email,
  });
  const res = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({
      email,
      name: 'Test Client',
      company: 'Test Co',
      card,
      line1: '1 Raffles Place',
      city: 'Singapore',
      postal_code: '048616',
      country: 'SG',
      ...extra,
    }),
  });
  const location = res.headers.get('location') ?? '';
  const sessionId = new URL(location || 'https://x.test').searchParams.get('session_id');
  const customer = sessionId ? await via.completedCheckout(sessionId) : null;
  return { res, location, customer, subscription: customer ? await via.getSubscription(customer.id) : null };
}

beforeAll(async () => {
  hook = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      delivered.push({
        raw: Buffer.concat(chunks).toString('utf8'),
        signature: String(req.headers['stripe-signature']),
      });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', () => r()));
  const hookPort = (hook.address() as { port: number }).port;
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  fake = spawn(
    process.execPath,
    [
      'tests/fake-stripe.mjs',
      '--port',
      String(port),
      '--secret-key',
      SECRET,
      '--webhook-url',
      `http://127.0.0.1:${hookPort}/hook`,
      '--webhook-secret',
      WHSEC,
      '--price',
      `${PRICES.starter}=95000`,
      '--price',
      `${PRICES.business}=190000`,
      '--price',
      `${PRICES.enterprise}=380000`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve) => fake.stdout!.once('data', () => resolve()));
  billing = new StripeBilling({
    secretKey: SECRET,
    webhookSecret: WHSEC,
    prices: { business: PRICES.business },
    apiBase: base,
    plans,
    log: () => {},
  });
}, 20_000);

afterAll(async () => {
  fake?.kill();
  await new Promise((r) => hook.close(r));
});

describe('Stripe adapter against the fake', () => {
  it('subscribes through Checkout: the session is in the page language and the return carries its id', async () => {
    const { url } = await billing.startCheckout({
      plan: 'business',
      locale: 'ar',
      successUrl: 'https://site.test/ar/account/subscription?welcome=1',
      cancelUrl: 'https://site.test/ar/pricing',
      visitor: 'v1',
    });
    const page = await (await fetch(url)).text();
    expect(page).toContain('lang="ar"');
    expect(page).toContain('SGD 1900.00');
    const done = await subscribe('first@example.com', 'business');
    expect(done.res.status).toBe(303);
    expect(done.location).toMatch(/^https:\/\/site\.test\/account\/subscription\?welcome=1&session_id=cs_test_/);
    expect(done.customer).toMatchObject({
      email: 'first@example.com',
      name: 'Test Client',
      company: 'Test Co',
      locale: 'en',
    });
    expect(done.subscription).toMatchObject({
      plan: 'business',
      status: 'active',
      amount: 190000,
      cancelAtPeriodEnd: false,
      scheduledChange: null,
      card: { brand: 'visa', last4: '4242' },
    });
  });

  it('a declined test card changes nothing', async () => {
    const before = (await api('/_fake/events')).length;
    const declined = await subscribe('declined@example.com', 'starter', '4000 0000 0000 0002');
    expect(declined.res.status).toBe(402);
    expect(await declined.res.text()).toContain('Your card was declined.');
    expect(await billing.findCustomerByEmail('declined@example.com')).toBeNull();
    expect((await api('/_fake/events')).length).toBe(before);
  });

  it('a double submit within a minute opens one Checkout Session (same idempotency key)', async () => {
    const request = {
      plan: 'starter' as const,
      locale: 'en' as const,
      successUrl: 'https://site.test/s?welcome=1',
      cancelUrl: 'https://site.test/p',
      visitor: 'same-visitor',
    };
    const [a, b] = await Promise.all([billing.startCheckout(request), billing.startCheckout(request)]);
    expect(a.url).toBe(b.url);
    const other = await billing.startCheckout({ ...request, visitor: 'someone-else' });
    expect(other.url).not.toBe(a.url);
  });

  it('a plan change waits for the next billing date through a schedule; another change and a withdrawal release it', async () => {
    const { customer, subscription } = await subscribe('change@example.com', 'starter');
    const sub = subscription!;
    const changed = await billing.changePlan(customer!.id, sub.id, 'enterprise');
    expect(changed.plan).toBe('starter'); // no swap now
    expect(changed.amount).toBe(95000);
    expect(changed.scheduledChange).toMatchObject({ plan: 'enterprise', effectiveAt: sub.currentPeriodEnd });
    // The same change again (a retried request) makes no second schedule.
    const again = await billing.changePlan(customer!.id, sub.id, 'enterprise');
    expect(again.scheduledChange?.plan).toBe('enterprise');
    const toBusiness = await billing.changePlan(customer!.id, sub.id, 'business');
    expect(toBusiness.scheduledChange).toMatchObject({ plan: 'business', effectiveAt: sub.currentPeriodEnd });
    // A new request is told apart from the first (its own confirmation email).
    expect(toBusiness.scheduledChange!.requestRef).toBeDefined();
    const withdrawn = await billing.withdrawChange(customer!.id, sub.id);
    expect(withdrawn.scheduledChange).toBeNull();
    expect(withdrawn.plan).toBe('starter');
    // Change, withdraw, the same change again: it applies again (keys are not replayed across actions).
    expect((await billing.changePlan(customer!.id, sub.id, 'enterprise')).scheduledChange?.plan).toBe('enterprise');
    const schedules = (await api('/_fake/events')).filter(
      (e: { type: string }) => e.type === 'subscription_schedule.created',
    );
    expect(schedules.length).toBeGreaterThanOrEqual(3);
  });

  it('cancel releases a pending change first, resume undoes it, and cancel, resume, cancel all apply', async () => {
    const { customer, subscription } = await subscribe('cancel@example.com', 'starter');
    const id = subscription!.id;
    await billing.changePlan(customer!.id, id, 'enterprise');
    const cancelled = await billing.cancel(customer!.id, id);
    expect(cancelled).toMatchObject({ cancelAtPeriodEnd: true, scheduledChange: null, status: 'active' });
    expect(cancelled.canceledAt).not.toBeNull();
    await expect(billing.changePlan(customer!.id, id, 'business')).rejects.toMatchObject({ code: 'invalid_state' });
    expect((await billing.resume(customer!.id, id)).cancelAtPeriodEnd).toBe(false);
    expect((await billing.cancel(customer!.id, id)).cancelAtPeriodEnd).toBe(true);
    expect((await billing.resume(customer!.id, id)).cancelAtPeriodEnd).toBe(false);
    expect((await billing.cancel(customer!.id, id)).cancelAtPeriodEnd).toBe(true);
  });

  it('two concurrent cancels (double click) make one change in Stripe', async () => {
    const { customer, subscription } = await subscribe('double@example.com', 'starter');
    const id = subscription!.id;
    const count = async () =>
      (await api('/_fake/events')).filter(
        (e: { type: string; object: string }) => e.type === 'customer.subscription.updated' && e.object === id,
      ).length;
    const before = await count();
    const [a, b] = await Promise.all([billing.cancel(customer!.id, id), billing.cancel(customer!.id, id)]);
    expect(a.cancelAtPeriodEnd && b.cancelAtPeriodEnd).toBe(true);
    expect(a.canceledAt).toBe(b.canceledAt);
    expect((await count()) - before).toBe(1);
  });

  it("another client's subscription and invoice are not found", async () => {
    const one = await subscribe('one@example.com');
    const two = await subscribe('two@example.com');
    await expect(billing.cancel(one.customer!.id, two.subscription!.id)).rejects.toMatchObject({ code: 'not_found' });
    const theirs = (await billing.listInvoices(two.customer!.id, { limit: 5 })).invoices[0]!;
    expect(await billing.getInvoice(one.customer!.id, theirs.id)).toBeNull();
    expect(await billing.getInvoice(two.customer!.id, theirs.id)).toMatchObject({
      id: theirs.id,
      status: 'paid',
      plan: 'starter',
      amount: 95000,
    });
    expect((await billing.getSubscription(two.customer!.id))!.cancelAtPeriodEnd).toBe(false);
  });

  it("credit notes: Stripe's own on the whole invoice (refunded when paid), once; listed beside it; not another client's", async () => {
    const one = await subscribe('credit-one@example.com');
    const two = await subscribe('credit-two@example.com');
    const invoice = (await billing.listInvoices(one.customer!.id, { limit: 5 })).invoices[0]!;
    const issued = await billing.issueCreditNote(invoice.number, 'Cancelled in the first week; refunded');
    expect(issued).toMatchObject({
      created: true,
      note: {
        number: `${invoice.number}-CN-01`,
        customerId: one.customer!.id,
        invoiceId: invoice.id,
        invoiceNumber: invoice.number,
        amount: invoice.amount,
        reason: 'Cancelled in the first week; refunded',
      },
    });
    expect(issued.note.pdfUrl).toMatch(/\/credit_note\/cn_.+\/pdf$/);
    // As Stripe keeps it: the reason from its list, the memo, a refund of what was paid.
    const stripe = new Stripe(SECRET, {
      host: new URL(base).hostname,
      port: Number(new URL(base).port),
      protocol: 'http',
    });
    const cn = await stripe.creditNotes.retrieve(issued.note.id);
    expect(cn).toMatchObject({ reason: 'order_change', status: 'issued', type: 'post_payment', total: invoice.amount });
    expect(cn.refunds).toHaveLength(1);
    expect(cn.refunds[0].amount_refunded).toBe(invoice.amount);

    // Again (a retry, or another reason): the same note, never a second.
    expect(await billing.issueCreditNote(invoice.number, 'Cancelled in the first week; refunded')).toMatchObject({
      created: false,
      note: { id: issued.note.id },
    });
    expect((await billing.issueCreditNote(invoice.number, 'Something else')).created).toBe(false);
    expect((await stripe.creditNotes.list({ invoice: invoice.id })).data).toHaveLength(1);
    // Stripe itself refuses to credit more than the invoice.
    await expect(stripe.creditNotes.create({ invoice: invoice.id, amount: 1 })).rejects.toThrow(/exceeds/);

    expect(await billing.listCreditNotes(one.customer!.id, [invoice.id])).toEqual([issued.note]);
    expect(await billing.listCreditNotes(two.customer!.id, [invoice.id])).toEqual([]);
    expect(await billing.getCreditNote(two.customer!.id, issued.note.id)).toBeNull();
    expect(await billing.getCreditNote(one.customer!.id, issued.note.id)).toEqual({
      note: issued.note,
      snapshot: null,
    });
    expect((await billing.recentCreditNotes(10)).map((n) => n.id)).toContain(issued.note.id);
    await expect(billing.issueCreditNote('NO-SUCH-0001', 'Refunded')).rejects.toMatchObject({ code: 'not_found' });
    await expect(billing.issueCreditNote(invoice.number, '')).rejects.toMatchObject({ code: 'bad_reason' });
  });

  it('renewal applies the scheduled change at the period end, issues a paid invoice and ends a cancelled subscription', async () => {
    const changing = await subscribe('renew@example.com', 'starter');
    const ending = await subscribe('ending@example.com', 'starter');
    await billing.changePlan(changing.customer!.id, changing.subscription!.id, 'business');
    await billing.cancel(ending.customer!.id, ending.subscription!.id);
    await api('/_fake/advance', { seconds: 32 * 24 * 3600 });
    const renewed = await billing.getSubscription(changing.customer!.id);
    expect(renewed).toMatchObject({ plan: 'business', amount: 190000, scheduledChange: null, status: 'active' });
    expect(Date.parse(renewed!.currentPeriodStart)).toBe(Date.parse(changing.subscription!.currentPeriodEnd));
    const invoices = await billing.listInvoices(changing.customer!.id, { limit: 1 });
    expect(invoices.invoices[0]).toMatchObject({ plan: 'business', amount: 190000, status: 'paid' });
    expect(invoices.hasMore).toBe(true);
    const page2 = await billing.listInvoices(changing.customer!.id, {
      limit: 1,
      startingAfter: invoices.invoices[0]!.id,
    });
    expect(page2.invoices[0]).toMatchObject({ plan: 'starter', amount: 95000 });
    expect(await billing.getSubscription(ending.customer!.id)).toBeNull();
  });

  it('webhooks: signed deliveries become billing events; forged, tampered and stale ones are refused', async () => {
    await api('/_fake/idle');
    const events: BillingEvent[] = [];
    for (const d of delivered) {
      const event = await billing.parseWebhook(d.raw, d.signature);
      if (event) events.push(event);
    }
    const types = new Set(events.map((e) => e.type));
    for (const t of [
      'checkout.session.completed',
      'customer.subscription.created',
      'customer.subscription.updated',
      'customer.subscription.deleted',
      'subscription_schedule.updated',
      'invoice.paid',
    ])
      expect(types).toContain(t);
    const completed = events.find(
      (e) => e.type === 'checkout.session.completed' && e.customer.email === 'first@example.com',
    );
    expect(completed).toMatchObject({ customer: { company: 'Test Co', locale: 'en' } });
    const cancelled = events.find(
      (e) =>
        e.type === 'customer.subscription.updated' &&
        e.subscription.cancelAtPeriodEnd &&
        e.previous.cancelAtPeriodEnd === false,
    );
    expect(cancelled).toBeDefined();

    const sample = delivered[0]!;
    await expect(billing.parseWebhook(sample.raw, 't=1,v1=deadbeef')).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(
      billing.parseWebhook(sample.raw.replace('"livemode": false', '"livemode": true'), sample.signature),
    ).rejects.toBeInstanceOf(WebhookSignatureError);
    const stripe = new Stripe('sk_test_x');
    const stale = stripe.webhooks.generateTestHeaderString({
      payload: sample.raw,
      secret: WHSEC,
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    await expect(billing.parseWebhook(sample.raw, stale)).rejects.toBeInstanceOf(WebhookSignatureError);
    const fresh = stripe.webhooks.generateTestHeaderString({ payload: sample.raw, secret: WHSEC });
    await expect(billing.parseWebhook(sample.raw, fresh)).resolves.not.toThrow;
    const other = stripe.webhooks.generateTestHeaderString({ payload: sample.raw, secret: 'whsec_someone_else' });
    await expect(billing.parseWebhook(sample.raw, other)).rejects.toBeInstanceOf(WebhookSignatureError);
  });
});

describe("Stripe's own tax objects (issue 41 item 7)", () => {
  const UAE: TaxProfile = { ...DEMO_TAX_PROFILE, demo: false, registrationNumber: '100123456789012' };
  const taxed = (mode: 'rates' | 'automatic' = 'rates') =>
    new StripeBilling({
      secretKey: SECRET,
      webhookSecret: WHSEC,
      prices: { business: PRICES.business },
      apiBase: base,
      plans,
      log: () => {},
      tax: { profile: UAE, mode },
    });
  const uaeCheckout = {
    line1: 'Office 2207, Cluster X',
    city: 'Dubai',
    postal_code: '',
    country: 'AE',
    business_name: 'Haddad Trading LLC',
    tax_id_type: 'ae_trn',
    tax_id_value: '100234567800003',
  };

  it("Checkout asks for the billing address and tax ID; they reach the customer, the subscription gets the tax rate and the firm's tax ID", async () => {
    const b = taxed();
    const done = await subscribe('gulf@example.com', 'starter', undefined, uaeCheckout, b);
    expect(done.res.status).toBe(303);
    const session = await b.stripe.checkout.sessions.retrieve(new URL(done.location).searchParams.get('session_id')!);
    expect(session).toMatchObject({ billing_address_collection: 'required', tax_id_collection: { enabled: true } });
    expect(done.customer).toMatchObject({ name: 'Test Client' });
    expect(await b.getBillingDetails(done.customer!.id)).toEqual({
      legalName: 'Haddad Trading LLC',
      address: 'Office 2207, Cluster X',
      city: 'Dubai',
      postalCode: '',
      country: 'AE',
      registrationNumber: '100234567800003',
    });
    const customer = await b.stripe.customers.retrieve(done.customer!.id, { expand: ['tax_ids'] });
    expect(customer.deleted).toBeFalsy();
    expect((customer as Stripe.Customer).tax_ids?.data.map((t) => [t.type, t.value])).toEqual([
      ['ae_trn', '100234567800003'],
    ]);
    const sub = await b.stripe.subscriptions.retrieve(done.subscription!.id);
    const rate = await b.stripe.taxRates.retrieve(sub.default_tax_rates![0]!.id ?? String(sub.default_tax_rates![0]));
    expect(rate).toMatchObject({ display_name: 'VAT', percentage: 5, inclusive: true, country: 'AE' });
    const [accountTaxId] = (sub.invoice_settings.account_tax_ids ?? []) as string[];
    expect((await b.stripe.taxIds.retrieve(accountTaxId!)).value).toBe('100123456789012');

    // The portal shows Stripe's invoice: its tax amounts, the customer's tax ID, Stripe's links.
    const [first] = (await b.listInvoices(done.customer!.id, { limit: 1 })).invoices;
    const invoice = await b.getInvoice(done.customer!.id, first!.id);
    expect(invoice?.stripeTax).toMatchObject({
      customerName: 'Haddad Trading LLC',
      customerCountry: 'AE',
      customerTaxIds: [{ type: 'ae_trn', value: '100234567800003' }],
      taxes: [{ name: 'VAT', percentage: 5, amount: 4524, inclusive: true }],
      net: 90476,
      tax: 4524,
      total: 95000,
    });
    expect(invoice?.hostedUrl).toMatch(/\/invoice\/in_/);
    expect(invoice?.pdfUrl).toMatch(/\/pdf$/);
  });

  it('an overseas client is zero-rated from the invoice after Checkout, with the statement; one tax rate per treatment', async () => {
    const b = taxed();
    const done = await subscribe(
      'sg-client@example.com',
      'starter',
      undefined,
      { business_name: 'Tan Holdings Pte. Ltd.', tax_id_type: 'sg_gst', tax_id_value: '201912345K' },
      b,
    );
    const sub = await b.stripe.subscriptions.retrieve(done.subscription!.id);
    const rate = await b.stripe.taxRates.retrieve(String(sub.default_tax_rates![0]!.id ?? sub.default_tax_rates![0]));
    expect(rate).toMatchObject({ percentage: 0, metadata: { bawaba_treatment: 'AE:zero-rated-export:0:inclusive' } });
    const customer = (await b.stripe.customers.retrieve(done.customer!.id)) as Stripe.Customer;
    expect(customer.invoice_settings.footer).toMatch(/^Zero-rated supply: export of services/);
    await api('/_fake/advance', { seconds: 32 * 24 * 3600 });
    const [renewal] = (await b.listInvoices(done.customer!.id, { limit: 1 })).invoices;
    expect((await b.getInvoice(done.customer!.id, renewal!.id))?.stripeTax).toMatchObject({
      taxes: [{ percentage: 0, amount: 0 }],
      customerTaxIds: [{ type: 'sg_gst', value: '201912345K' }],
      tax: 0,
      total: 95000,
    });
    // A second adapter (a restart) finds the rates again instead of making new ones.
    await taxed().taxRateFor('SG');
    const rates = await b.stripe.taxRates.list({ limit: 100 });
    const keys = rates.data.map((r) => r.metadata?.bawaba_treatment);
    expect(keys.filter((k) => k === 'AE:zero-rated-export:0:inclusive')).toHaveLength(1);
  });

  it('details changed in the portal reach Stripe for the next invoices; an issued invoice keeps what Stripe printed', async () => {
    const b = taxed();
    const done = await subscribe('mover@example.com', 'starter', undefined, uaeCheckout, b);
    const customerId = done.customer!.id;
    const [issued] = (await b.listInvoices(customerId, { limit: 1 })).invoices;
    const before = (await b.getInvoice(customerId, issued!.id))?.stripeTax;
    await b.setBillingDetails(customerId, {
      legalName: 'Haddad Trading Pte. Ltd.',
      address: '8 Marina View\n#40-01',
      city: 'Singapore',
      postalCode: '018960',
      country: 'SG',
      registrationNumber: 'M2-1234567-8',
    });
    expect(await b.getBillingDetails(customerId)).toEqual({
      legalName: 'Haddad Trading Pte. Ltd.',
      address: '8 Marina View\n#40-01',
      city: 'Singapore',
      postalCode: '018960',
      country: 'SG',
      registrationNumber: 'M2-1234567-8',
    });
    const customer = (await b.stripe.customers.retrieve(customerId, { expand: ['tax_ids'] })) as Stripe.Customer;
    expect(customer.tax_ids?.data.map((t) => [t.type, t.value])).toEqual([['sg_gst', 'M212345678']]);
    expect(customer.address).toMatchObject({ line1: '8 Marina View', line2: '#40-01', postal_code: '018960' });
    // The portal still greets the person, not the company.
    expect((await b.getCustomer(customerId))?.name).toBe('Test Client');
    expect((await b.getInvoice(customerId, issued!.id))?.stripeTax).toEqual(before);
    await api('/_fake/advance', { seconds: 32 * 24 * 3600 });
    const [next] = (await b.listInvoices(customerId, { limit: 1 })).invoices;
    expect((await b.getInvoice(customerId, next!.id))?.stripeTax).toMatchObject({
      customerName: 'Haddad Trading Pte. Ltd.',
      customerCountry: 'SG',
      customerTaxIds: [{ type: 'sg_gst', value: 'M212345678' }],
      taxes: [{ percentage: 0 }],
    });
  });

  it('with Stripe Tax (STRIPE_TAX=automatic) Checkout enables automatic tax and makes no tax rate', async () => {
    const b = taxed('automatic');
    const { url } = await b.startCheckout({
      plan: 'starter',
      locale: 'en',
      successUrl: 'https://site.test/s',
      cancelUrl: 'https://site.test/p',
      email: 'auto@example.com',
      visitor: 'auto',
    });
    const session = await b.stripe.checkout.sessions.retrieve(url.split('/pay/')[1]!);
    expect(session.automatic_tax.enabled).toBe(true);
    expect((session as unknown as { subscription_data: object }).subscription_data).not.toHaveProperty(
      'default_tax_rates',
    );
    expect(await b.taxRateFor('AE')).toBeNull();
  });
});
