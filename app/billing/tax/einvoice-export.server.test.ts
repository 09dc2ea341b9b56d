import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase, testDatabaseKinds } from '~/db/test-support';
import type { Database } from '~/db/types.server';
import { EmbeddedBilling } from '../engine/engine.server';
import type { BillingPlan, PlanKey } from '../types';
import { einvoiceCommand } from './einvoice-export.server';
import { PINT_AE_CUSTOMIZATION_ID } from './pint-ae.server';
import { DEMO_TAX_PROFILE, type TaxProfile } from './profile';
import { addRate } from './rates.server';

/** `npm run einvoice -- export`: the documents of a date range in a folder, bounded and idempotent. */
const PLANS: BillingPlan[] = [{ key: 'business', priceSgd: 1500 }];
const UAE: TaxProfile = { ...DEMO_TAX_PROFILE, demo: false, registrationNumber: '100123456789012' };
const describePlan = async (plan: PlanKey) => ({ en: `Package ${plan}`, ar: `باقة ${plan}` });

describe.each(testDatabaseKinds())('the e-invoice export command (%s)', (kind) => {
  let database: Database;
  let out: string;
  let now: number;

  beforeEach(async () => {
    database = await openTestDatabase(kind);
    out = await mkdtemp(path.join(tmpdir(), 'einvoice-'));
    now = Date.UTC(2027, 6, 5, 8, 0, 0);
  });
  afterEach(async () => {
    await database.close();
    await rm(out, { recursive: true, force: true });
  });

  async function subscribe(e: EmbeddedBilling, email: string, company: string | undefined) {
    const { url } = await e.startCheckout({
      plan: 'business',
      locale: 'en',
      successUrl: 'http://127.0.0.1/ok',
      cancelUrl: 'http://127.0.0.1/pricing',
    });
    return e.completeCheckout(url.split('/').pop()!, {
      email,
      name: 'Layla Haddad',
      company: company ?? null,
      cardNumber: '4242 4242 4242 4242',
      expMonth: 12,
      expYear: 2034,
      cvc: '123',
    });
  }

  it('writes each eligible invoice of the range once, skips the others with a reason, and refuses bad arguments', async () => {
    await addRate(database.db, { base: 'SGD', date: '2027-07-05', rate: '2.8412', source: 'CBUAE' });
    const e = new EmbeddedBilling(database.db, {
      plans: async () => PLANS,
      now: () => now,
      log: () => {},
      tax: { profile: UAE, describe: describePlan },
    });
    const business = await subscribe(e, 'layla@example.com', 'Haddad Trading LLC');
    await e.setBillingDetails(business.customer.id, {
      legalName: 'Haddad Trading LLC',
      address: 'Office 4, Al Khaleej Street\nDeira, Dubai',
      country: 'AE',
      registrationNumber: '100234567800003',
    });
    // Issued before the details: a company name but no TRN: a UAE client it cannot address.
    const person = await subscribe(e, 'sam@example.com', undefined);

    const args = ['export', '--from', '2027-07-01', '--to', '2027-07-31', '--out', out];
    let r = await einvoiceCommand(database.db, args);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/written: 0/);
    expect(r.out).toContain(`${business.invoice.number}: buyer-endpoint-unknown`);
    expect(r.out).toContain(`${person.invoice.number}: not-business-client`);

    // The next period's invoice has the client's details: it is exported.
    now += 32 * 86_400_000;
    await addRate(database.db, { base: 'SGD', date: '2027-08-05', rate: '2.8412', source: 'CBUAE' });
    await e.runDue();
    const [renewal] = (await e.listInvoices(business.customer.id, { limit: 1 })).invoices;
    const august = ['export', '--from', '2027-08-01', '--to', '2027-08-31', '--out', out];
    r = await einvoiceCommand(database.db, august);
    expect(r).toMatchObject({ code: 0 });
    expect(r.out).toMatch(new RegExp(`written: 1  \\(${renewal.number}\\)`));
    const file = path.join(out, `${renewal.number}.xml`);
    const xml = await readFile(file, 'utf8');
    expect(xml).toContain(`<cbc:CustomizationID>${PINT_AE_CUSTOMIZATION_ID}</cbc:CustomizationID>`);
    expect(xml).toContain('<cbc:RegistrationName>Haddad Trading LLC</cbc:RegistrationName>');

    // Again: nothing written, the file untouched; no temporary file left behind.
    r = await einvoiceCommand(database.db, august);
    expect(r.out).toMatch(/written: 0\nunchanged: 1/);
    expect(await readdir(out)).toEqual([`${renewal.number}.xml`]);

    // A different file of the same name is never overwritten.
    await writeFile(file, 'something else');
    r = await einvoiceCommand(database.db, august);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`CONFLICT, left as they were: ${renewal.number}`);
    expect(await readFile(file, 'utf8')).toBe('something else');

    // Bounded: one document a run, and told that more remain.
    await rm(file);
    r = await einvoiceCommand(database.db, [...args.slice(0, 5), '2027-08-31', '--out', out, '--limit', '1']);
    expect(r.out).toMatch(/more documents in the range than --limit 1/);

    // Credit notes of the range go out too, as UBL CreditNotes naming their invoice; a note of an
    // invoice that got no e-invoice gets none either, for the same reason.
    now += 86_400_000;
    const renewalNote = await e.issueCreditNote(renewal.number, 'Refunded: the client cancelled in the first week');
    const julyNote = await e.issueCreditNote(business.invoice.number, 'Refunded: charged twice by mistake');
    r = await einvoiceCommand(database.db, august);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`written: 2  (${renewal.number}, ${renewalNote.note.number})`);
    expect(r.out).toContain(`${julyNote.note.number}: buyer-endpoint-unknown`);
    const noteXml = await readFile(path.join(out, `${renewalNote.note.number}.xml`), 'utf8');
    expect(noteXml).toContain('<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"');
    expect(noteXml).toContain(`<cbc:ID>${renewal.number}</cbc:ID>`);
    expect(noteXml).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');

    for (const bad of [
      ['export'],
      ['export', '--from', '2027-02-30', '--to', '2027-03-01', '--out', out],
      ['export', '--from', '2027-07-02', '--to', '2027-07-01', '--out', out],
      ['export', '--from', '2027-07-01', '--to', '2027-07-31', '--out', out, '--limit', '0'],
      ['export', '--from', '2027-07-01', '--to', '2027-07-31', '--out', out, '--limit', '99999'],
      ['import'],
    ])
      expect((await einvoiceCommand(database.db, bad)).code, bad.join(' ')).toBe(2);
  });
});
