import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { billingCreditNotes, billingInvoices } from '~/db/schema.server';
import { openTestDatabase, testDatabaseKinds } from '~/db/test-support';
import type { Database } from '~/db/types.server';
import { EmbeddedBilling } from '../engine/engine.server';
import type { BillingPlan, PlanKey } from '../types';
import { formatBillingAmount } from '../format';
import { creditNoteCommand } from './credit-note-command.server';
import { DEMO_TAX_PROFILE, type TaxProfile } from './profile';

/** Tax credit notes of the embedded engine and the operator's command, on PGlite and (with TEST_DATABASE_URL) PostgreSQL. */
const DAY = 86_400_000;
const PLANS: BillingPlan[] = [
  { key: 'starter', priceSgd: 500 },
  { key: 'business', priceSgd: 1500 },
  { key: 'enterprise', priceSgd: 4000 },
];
const SG: TaxProfile = {
  ...DEMO_TAX_PROFILE,
  demo: false,
  country: 'SG',
  standardRatePercent: 9,
  registrationNumber: '201912345K',
};
const describePlan = async (plan: PlanKey) => ({ en: `${plan} plan`, ar: `باقة ${plan}` });

describe.each(testDatabaseKinds())('tax credit notes (%s)', (kind) => {
  let database: Database;
  let realNow: number;
  const engine = (profile: TaxProfile | null = DEMO_TAX_PROFILE) =>
    new EmbeddedBilling(database.db, {
      plans: async () => PLANS,
      now: () => realNow,
      tax: profile ? { profile, describe: describePlan } : undefined,
    });

  beforeEach(async () => {
    database = await openTestDatabase(kind);
    realNow = Date.UTC(2026, 10, 2, 8, 0, 0);
  });
  afterEach(async () => {
    await database.close();
  });

  async function subscribe(e: EmbeddedBilling, email: string, cardNumber = '4242 4242 4242 4242') {
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
      cardNumber,
      expMonth: 12,
      expYear: 2034,
      cvc: '123',
    });
  }

  it('credits a paid invoice in full from its snapshot, numbered in its own sequence; the invoice is left as it was', async () => {
    const e = engine();
    const first = await subscribe(e, 'layla@example.com');
    const second = await subscribe(e, 'omar@example.com');
    const before = (
      await database.db.select().from(billingInvoices).where(eq(billingInvoices.id, first.invoice.id))
    )[0];
    realNow += 3 * DAY;

    const issued = await e.issueCreditNote(first.invoice.number, 'Cancelled in the first week; refunded');
    expect(issued.created).toBe(true);
    expect(issued.note).toMatchObject({
      number: 'CN-2026-0001',
      invoiceId: first.invoice.id,
      invoiceNumber: first.invoice.number,
      customerId: first.customer.id,
      amount: first.invoice.amount,
    });
    const again = await e.issueCreditNote(second.invoice.number.toLowerCase(), 'Duplicate subscription');
    expect(again.note.number).toBe('CN-2026-0002');

    const found = await e.getCreditNote(first.customer.id, issued.note.id);
    const invoiceTax = await e.getInvoiceTax(first.customer.id, first.invoice.id);
    expect(found?.snapshot).toEqual({
      version: 1,
      number: 'CN-2026-0001',
      issuedAt: new Date(realNow).toISOString(),
      reason: 'Cancelled in the first week; refunded',
      invoice: { number: first.invoice.number, issuedAt: invoiceTax!.issuedAt, tax: invoiceTax },
      credited: invoiceTax!.totals,
      aed: invoiceTax!.aed,
    });
    // The demo profile is a UAE supplier: the AED figures are the invoice's own.
    expect(found?.snapshot.aed?.totals.gross).toBeGreaterThan(0);
    // The paid invoice keeps its row and snapshot (it was refunded, not voided).
    const after = (await database.db.select().from(billingInvoices).where(eq(billingInvoices.id, first.invoice.id)))[0];
    expect(after).toEqual(before);
    const [row] = await database.db.select().from(billingCreditNotes).where(eq(billingCreditNotes.id, issued.note.id));
    expect(row.outcome).toBe('refunded');
  });

  it('running it twice never makes two: the same note is answered, concurrently too', async () => {
    const e = engine();
    const { invoice, customer } = await subscribe(e, 'layla@example.com');
    const results = await Promise.all(
      [1, 2, 3].map(() => e.issueCreditNote(invoice.number, 'Refunded at the client’s request')),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.note.id)).size).toBe(1);
    expect(await e.listCreditNotes(customer.id, [invoice.id])).toHaveLength(1);
    const [{ count }] = await database.db.select({ count: sql<number>`count(*)::int` }).from(billingCreditNotes);
    expect(count).toBe(1);
    // The next note still takes the next number: none was used by the runs that found the first.
    const other = await subscribe(e, 'omar@example.com');
    expect((await e.issueCreditNote(other.invoice.number, 'Duplicate')).note.number).toBe('CN-2026-0002');
  });

  it('voids an unpaid invoice it credits', async () => {
    const e = engine(SG);
    const { customer, subscription } = await subscribe(e, 'layla@example.com', '4000 0000 0000 0341');
    realNow = new Date(subscription.currentPeriodEnd).getTime() + 60_000;
    await e.runDue();
    const { invoices } = await e.listInvoices(customer.id, { limit: 10 });
    const open = invoices.find((i) => i.status === 'open')!;
    expect(open).toBeTruthy();
    const { note } = await e.issueCreditNote(open.number, 'Service not provided: payment failed');
    expect((await e.getInvoice(customer.id, open.id))?.status).toBe('void');
    const [row] = await database.db.select().from(billingCreditNotes).where(eq(billingCreditNotes.id, note.id));
    expect(row.outcome).toBe('voided');
    expect(row.snapshot.invoice.tax.supplier.country).toBe('SG');
    expect(row.snapshot.aed).toBeNull();
  });

  it('refuses bad input, changing nothing', async () => {
    const e = engine();
    const { invoice } = await subscribe(e, 'layla@example.com');
    await expect(e.issueCreditNote('BWB-2026-9999', 'Refunded')).rejects.toMatchObject({ code: 'not_found' });
    await expect(e.issueCreditNote('not a number', 'Refunded')).rejects.toMatchObject({ code: 'not_found' });
    await expect(e.issueCreditNote(invoice.number, '  ')).rejects.toMatchObject({ code: 'bad_reason' });
    await expect(e.issueCreditNote(invoice.number, 'two\nlines')).rejects.toMatchObject({ code: 'bad_reason' });
    // An invoice from before tax invoices has no tax content to credit.
    const legacy = engine(null);
    const old = await subscribe(legacy, 'omar@example.com');
    await expect(legacy.issueCreditNote(old.invoice.number, 'Refunded')).rejects.toMatchObject({
      code: 'not_tax_invoice',
    });
    const [{ count }] = await database.db.select({ count: sql<number>`count(*)::int` }).from(billingCreditNotes);
    expect(count).toBe(0);
    // No number was used by the refusals.
    expect((await e.issueCreditNote(invoice.number, 'Refunded')).note.number).toBe('CN-2026-0001');
  });

  it('an issued note is immutable: the database refuses an update', async () => {
    const e = engine();
    const { invoice } = await subscribe(e, 'layla@example.com');
    const { note } = await e.issueCreditNote(invoice.number, 'Refunded');
    const refused = (query: Promise<unknown>) =>
      query.then(
        () => 'updated',
        (error: { cause?: { message?: string } }) => String(error.cause?.message ?? error),
      );
    expect(
      await refused(
        database.db
          .update(billingCreditNotes)
          .set({ snapshot: sql`jsonb_set(snapshot, '{reason}', '"changed"')` })
          .where(eq(billingCreditNotes.id, note.id)),
      ),
    ).toMatch(/immutable/);
    expect(
      await refused(
        database.db.update(billingCreditNotes).set({ amount: 1 }).where(eq(billingCreditNotes.id, note.id)),
      ),
    ).toMatch(/immutable/);
    const [row] = await database.db.select().from(billingCreditNotes).where(eq(billingCreditNotes.id, note.id));
    expect(row.snapshot.reason).toBe('Refunded');
  });

  it('a client sees only their own notes', async () => {
    const e = engine();
    const layla = await subscribe(e, 'layla@example.com');
    const omar = await subscribe(e, 'omar@example.com');
    const { note } = await e.issueCreditNote(layla.invoice.number, 'Refunded');
    expect(await e.getCreditNote(omar.customer.id, note.id)).toBeNull();
    expect(await e.listCreditNotes(omar.customer.id, [layla.invoice.id])).toEqual([]);
    expect(await e.getCreditNote(layla.customer.id, note.id)).not.toBeNull();
  });

  it('the command: issue, retry, a second credit refused, list, usage', async () => {
    const e = engine();
    const { invoice } = await subscribe(e, 'layla@example.com');
    const run = (...args: string[]) => creditNoteCommand(e, args);
    expect(await run('issue', invoice.number, '--reason', 'Refunded: cancelled in the first week')).toEqual({
      code: 0,
      out: `issued: CN-2026-0001 credits invoice ${invoice.number} in full (${formatBillingAmount(150000, 'en')})\n`,
    });
    expect(await run('issue', invoice.number, '--reason', 'Refunded: cancelled in the first week')).toEqual({
      code: 0,
      out: `already issued: CN-2026-0001 credits invoice ${invoice.number}; nothing done\n`,
    });
    const second = await run('issue', invoice.number, '--reason', 'Another reason');
    expect(second.code).toBe(2);
    expect(second.out).toMatch(/refused: .* already credited in full by CN-2026-0001/);
    expect((await run('issue', 'BWB-2026-0999', '--reason', 'Refunded')).out).toMatch(/refused: no invoice numbered/);
    expect((await run('issue', invoice.number)).code).toBe(2);
    expect((await run('issue', '--reason', 'x')).code).toBe(2);
    expect((await run('void')).out).toMatch(/^usage:/);
    const list = await run('list');
    expect(list.code).toBe(0);
    expect(list.out).toMatch(
      new RegExp(`^CN-2026-0001 .* credits ${invoice.number} .*${formatBillingAmount(150000, 'en')}`),
    );
  });
});
