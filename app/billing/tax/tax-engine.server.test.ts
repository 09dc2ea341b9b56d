import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase, testDatabaseKinds } from '~/db/test-support';
import type { Database } from '~/db/types.server';
import { EmbeddedBilling, type EngineTaxOptions } from '../engine/engine.server';
import type { BillingPlan, PlanKey } from '../types';
import type { BillingDetails } from './details';
import { DEMO_TAX_PROFILE, type TaxProfile } from './profile';
import { addRate, rateInForce, RateError } from './rates.server';

/** Tax invoices issued by the embedded engine, on PGlite and (with TEST_DATABASE_URL) PostgreSQL. */
const DAY = 86_400_000;
const PLANS: BillingPlan[] = [
  { key: 'starter', priceSgd: 500 },
  { key: 'business', priceSgd: 1500 },
  { key: 'enterprise', priceSgd: 4000 },
];
const UAE: TaxProfile = {
  ...DEMO_TAX_PROFILE,
  demo: false,
  registrationNumber: '100123456789012',
  pricesIncludeTax: false,
};
const describePlan = async (plan: PlanKey) => ({ en: plan, ar: plan });

describe.each(testDatabaseKinds())('tax invoices of the embedded engine (%s)', (kind) => {
  let database: Database;
  let realNow: number;
  const logs: string[] = [];
  const engine = (tax?: EngineTaxOptions) =>
    new EmbeddedBilling(database.db, { plans: async () => PLANS, now: () => realNow, log: (m) => logs.push(m), tax });

  beforeEach(async () => {
    database = await openTestDatabase(kind);
    realNow = Date.UTC(2026, 10, 2, 8, 0, 0); // 2026-11-02 08:00 UTC, a Monday
    logs.length = 0;
  });
  afterEach(async () => {
    await database.close();
  });

  async function subscribe(e: EmbeddedBilling, email: string, billingDetails?: BillingDetails) {
    const { url } = await e.startCheckout({
      plan: 'business',
      locale: 'en',
      successUrl: 'http://127.0.0.1/ok',
      cancelUrl: 'http://127.0.0.1/pricing',
    });
    return e.completeCheckout(url.split('/').pop()!, {
      email,
      name: 'Layla Haddad',
      company: 'Haddad Trading LLC',
      cardNumber: '4242 4242 4242 4242',
      expMonth: 12,
      expYear: 2034,
      cvc: '123',
      billingDetails,
    });
  }

  it('details given at checkout are on the first invoice: address lines, city and postal code, country named in both languages, tax number as typed', async () => {
    const e = engine({
      profile: { ...UAE, country: 'SG', registrationNumber: '201912345K', standardRatePercent: 9 },
      describe: describePlan,
    });
    const details: BillingDetails = {
      legalName: 'Tan Holdings Pte. Ltd.',
      address: '8 Marina View\n#40-01 Asia Square Tower 1',
      city: 'Singapore',
      postalCode: '018960',
      country: 'SG',
      registrationNumber: 'M2-1234567-8',
    };
    const { invoice, customer } = await subscribe(e, 'tan@example.com', details);
    expect(await e.getBillingDetails(customer.id)).toEqual(details);
    expect(await e.getInvoiceTax(customer.id, invoice.id)).toMatchObject({
      client: {
        name: 'Tan Holdings Pte. Ltd.',
        address: '8 Marina View\n#40-01 Asia Square Tower 1\nSingapore 018960',
        country: 'SG',
        countryName: { en: 'Singapore', ar: 'سنغافورة' },
        registrationNumber: 'M2-1234567-8',
      },
      treatment: { kind: 'standard', ratePercent: 9 },
    });
    // A client who gave none: null, and the invoice is issued all the same with what is known.
    const other = await subscribe(e, 'plain@example.com');
    expect(await e.getBillingDetails(other.customer.id)).toBeNull();
    expect(await e.getInvoiceTax(other.customer.id, other.invoice.id)).toMatchObject({
      status: 'issued',
      client: { name: 'Layla Haddad', company: 'Haddad Trading LLC', address: null, country: null },
    });
  });

  it('an invoice of a UAE supplier waits for the day’s AED rate, then is issued with it; a rate is never made up', async () => {
    const e = engine({ profile: UAE, describe: describePlan });
    const { invoice, customer } = await subscribe(e, 'layla@example.com');
    // Exclusive prices: the charge is the invoice's gross.
    expect(invoice.amount).toBe(157500);
    let tax = await e.getInvoiceTax(customer.id, invoice.id);
    expect(tax).toMatchObject({ status: 'waiting', issuedAt: null, aed: null, totals: { net: 150000, tax: 7500 } });
    expect(logs.join('\n')).toMatch(/waits for an SGD→AED rate for 2026-11-02/);

    // A rate for a later day, or one older than a week, is not the rate in force.
    await addRate(database.db, { base: 'SGD', date: '2026-11-03', rate: '2.9', source: 'CBUAE' });
    await addRate(database.db, { base: 'SGD', date: '2026-10-25', rate: '2.7', source: 'CBUAE' });
    expect(await e.completeWaitingInvoices()).toEqual({
      completed: [],
      waiting: [{ number: invoice.number, supplyDate: '2026-11-02' }],
    });
    expect((await e.getInvoiceTax(customer.id, invoice.id))?.status).toBe('waiting');

    // Friday's rate is in force on Monday if none is published since (within the week).
    await addRate(database.db, { base: 'SGD', date: '2026-10-30', rate: '2.8412', source: 'CBUAE' });
    realNow += 2 * 60 * 60 * 1000;
    expect(await e.completeWaitingInvoices()).toEqual({ completed: [invoice.number], waiting: [] });
    tax = await e.getInvoiceTax(customer.id, invoice.id);
    expect(tax).toMatchObject({
      status: 'issued',
      issuedAt: '2026-11-02T10:00:00.000Z',
      aed: {
        exchangeRate: { rate: '2.8412', date: '2026-10-30', source: 'CBUAE', fixture: false },
        totals: { net: 426180, tax: 21309, gross: 447489 },
      },
    });
    expect(await e.completeWaitingInvoices()).toEqual({ completed: [], waiting: [] });
  });

  it('an address changed after issue leaves the issued invoice as it was; the next invoice has the new one', async () => {
    const e = engine({
      profile: { ...UAE, country: 'SG', registrationNumber: '201912345K', standardRatePercent: 9 },
      describe: describePlan,
    });
    const { invoice, customer } = await subscribe(e, 'omar@example.com');
    await e.setBillingDetails(customer.id, {
      legalName: 'Saleh Logistics',
      address: 'Dubai',
      country: 'AE',
      registrationNumber: '100234567800003',
    });
    const first = await e.getInvoiceTax(customer.id, invoice.id);
    // Issued before the details were given: what was known then, domestic by the default setting.
    expect(first).toMatchObject({
      client: { name: 'Layla Haddad', address: null, country: null },
      treatment: { kind: 'standard' },
    });

    realNow += 32 * DAY;
    await e.runDue();
    const [renewal] = (await e.listInvoices(customer.id, { limit: 1 })).invoices;
    expect(await e.getInvoiceTax(customer.id, renewal.id)).toMatchObject({
      status: 'issued',
      client: { name: 'Saleh Logistics', address: 'Dubai', country: 'AE', registrationNumber: '100234567800003' },
      treatment: { kind: 'zero-rated-international', ratePercent: 0 },
      totals: { net: 150000, tax: 0, gross: 150000 },
    });
    await e.setBillingDetails(customer.id, {
      legalName: 'Moved',
      address: 'Elsewhere',
      country: 'SG',
      registrationNumber: null,
    });
    expect(await e.getInvoiceTax(customer.id, invoice.id)).toEqual(first);
    expect((await e.getInvoiceTax(customer.id, renewal.id))?.client.address).toBe('Dubai');
    // Another customer's invoice has no snapshot to show.
    expect(await e.getInvoiceTax('cus_someoneelse', invoice.id)).toBeNull();
  });

  it('invoices issued without tax options (before tax invoices) keep no snapshot, and render as they did', async () => {
    const before = engine();
    const { invoice, customer } = await subscribe(before, 'old@example.com');
    expect(invoice.amount).toBe(150000);
    const after = engine({ profile: UAE, describe: describePlan });
    expect(await after.getInvoiceTax(customer.id, invoice.id)).toBeNull();
    expect(await after.completeWaitingInvoices()).toEqual({ completed: [], waiting: [] });
  });

  it('the demo profile uses its fixture rate, marked as one; the demo clients get tax invoices', async () => {
    const e = engine({ profile: DEMO_TAX_PROFILE, describe: describePlan });
    const { invoice, customer } = await subscribe(e, 'demo@example.com');
    expect(await e.getInvoiceTax(customer.id, invoice.id)).toMatchObject({
      status: 'issued',
      supplier: { demo: true },
      aed: { exchangeRate: { fixture: true, date: '2026-11-02' } },
      // The demo's prices include the tax: the charge is the listed price.
      totals: { gross: 150000, tax: 7143 },
    });
    await e.seedDemo();
    const laylaInvoices = await database.db.execute<{
      tax: { client: { country: string }; treatment: { kind: string } };
    }>("select tax from billing_invoices where customer_id = 'cus_DemoClientLayla0001'");
    expect(laylaInvoices.rows.length).toBeGreaterThan(0);
    for (const r of laylaInvoices.rows)
      expect(r.tax).toMatchObject({ client: { country: 'AE' }, treatment: { kind: 'standard' } });
  });

  it('records rates once, checked, and finds the one in force', async () => {
    await addRate(database.db, { base: 'sgd', date: '2026-11-02', rate: '2.8412', source: 'CBUAE' });
    await expect(
      addRate(database.db, { base: 'SGD', date: '2026-11-02', rate: '2.9', source: 'CBUAE' }),
    ).rejects.toThrow(/already recorded/);
    for (const bad of [
      { base: 'AED', date: '2026-11-02', rate: '1', source: 'x' },
      { base: 'SGD', date: '2026-02-30', rate: '1', source: 'x' },
      { base: 'SGD', date: '2026-11-05', rate: '-1', source: 'x' },
      { base: 'SGD', date: '2026-11-05', rate: '0', source: 'x' },
      { base: 'SGD', date: '2026-11-05', rate: '2.8', source: '' },
    ])
      await expect(addRate(database.db, bad), JSON.stringify(bad)).rejects.toBeInstanceOf(RateError);
    expect(await rateInForce(database.db, 'SGD', new Date('2026-11-08T23:00:00Z'))).toMatchObject({ rate: '2.8412' });
    expect(await rateInForce(database.db, 'SGD', new Date('2026-11-10T00:00:00Z'))).toBeNull();
    expect(await rateInForce(database.db, 'SGD', new Date('2026-11-01T23:59:59Z'))).toBeNull();
  });
});
