/**
 * The PINT AE e-invoice download (/account/invoices/<id>/xml, issue 41 item 8) through the real
 * route loader, sessions and embedded engine: a client gets their own invoice's XML; another
 * client's invoice, an invoice without one, and a signed-out request get nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { embeddedBilling } from '~/billing/billing.server';
import { PINT_AE_CUSTOMIZATION_ID } from '~/billing/tax/pint-ae.server';
import { loader as creditNoteLoader } from '~/resources/credit-note-xml';
import { loader } from '~/resources/invoice-xml';
import { ensureCustomerAccount, findAccountByEmail } from './accounts.server';
import { creditNotePage, invoicePage } from './service.server';
import { readSession, startSession } from './session.server';
import { seedDemo } from './start.server';
import { createTestWorld, type TestWorld } from './test-support';

let world: TestWorld;

async function signedIn(email: string) {
  const account = (await findAccountByEmail(email))!;
  const cookie = (await startSession(account)).split(';')[0];
  const invoices = (await embeddedBilling()!.listInvoices(account.customerId, { limit: 100 })).invoices;
  return { account, cookie, invoices };
}

async function get(id: string, cookie?: string, locale: '' | '/ar' = ''): Promise<Response> {
  const request = new Request(`https://site.example${locale}/account/invoices/${id}/xml`, {
    headers: cookie ? { Cookie: cookie } : {},
  });
  try {
    return (await loader({ request, params: { invoiceId: id }, context: {} })) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

async function getCreditNote(id: string, cookie?: string): Promise<Response> {
  const request = new Request(`https://site.example/account/credit-notes/${id}/xml`, {
    headers: cookie ? { Cookie: cookie } : {},
  });
  try {
    return (await creditNoteLoader({ request, params: { creditNoteId: id }, context: {} })) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe('the e-invoice download', () => {
  beforeEach(async () => {
    world = await createTestWorld({ dataset: 'bundled' });
    await seedDemo();
  }, 60_000);
  afterEach(() => world.close(), 60_000);

  it("gives a client their own invoice's PINT AE XML, and another client's invoice as not found", async () => {
    const layla = await signedIn('client@example.com');
    const omar = await signedIn('former@example.com');
    const [mine] = layla.invoices;
    expect(mine).toBeDefined();

    const own = await get(mine.id, layla.cookie);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(own.headers.get('cache-control')).toBe('private, no-store');
    expect(own.headers.get('content-disposition')).toBe(`attachment; filename="${mine.number}.xml"`);
    const xml = await own.text();
    expect(xml).toContain(`<cbc:CustomizationID>${PINT_AE_CUSTOMIZATION_ID}</cbc:CustomizationID>`);
    expect(xml).toContain(`<cbc:ID>${mine.number}</cbc:ID>`);
    expect(xml).toContain('<cbc:RegistrationName>Haddad Trading LLC</cbc:RegistrationName>');
    // The Arabic path serves the same document.
    expect(await (await get(mine.id, layla.cookie, '/ar')).text()).toBe(xml);

    // Omar's own (an export to Singapore) is his; Layla's is not, and reads as not found to him.
    const his = await get(omar.invoices[0].id, omar.cookie);
    expect(his.status).toBe(200);
    expect(await his.text()).toContain('<cbc:ProfileExecutionID>00000001</cbc:ProfileExecutionID>');
    const attack = await get(mine.id, omar.cookie);
    expect(attack.status).toBe(404);
    expect(await attack.text()).not.toContain('Haddad');
    expect((await get(omar.invoices[0].id, layla.cookie)).status).toBe(404);
    // Made-up and malformed ids too.
    expect((await get('in_doesnotexist', layla.cookie)).status).toBe(404);
    expect((await get('../../etc/passwd', layla.cookie)).status).toBe(404);

    // Signed out: sent to sign in, nothing shown.
    const anonymous = await get(mine.id);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toMatch(/^\/account\?next=/);

    // The invoice page links it beside the PDF.
    const session = (await readSession(
      new Request('https://site.example/account', { headers: { Cookie: layla.cookie } }),
    ))!;
    const page = await invoicePage(session, mine.id, 'en');
    expect(page?.xmlUrl).toBe(`/account/invoices/${mine.id}/xml`);
  });

  it('gives no XML for an invoice that gets none (a client who is not a business)', async () => {
    const engine = embeddedBilling()!;
    // A client without company, tax number or address on record: their invoices get no e-invoice.
    const { url } = await engine.startCheckout({
      plan: 'starter',
      locale: 'en',
      successUrl: 'https://site.example/ok',
      cancelUrl: 'https://site.example/pricing',
    });
    const person = await engine.completeCheckout(url.split('/').pop()!, {
      email: 'person@example.com',
      name: 'Sam Person',
      company: null,
      cardNumber: '4242 4242 4242 4242',
      expMonth: 12,
      expYear: 2034,
      cvc: '123',
    });
    await ensureCustomerAccount(person.customer);
    const cookie = (await startSession({ customerId: person.customer.id })).split(';')[0];
    expect((await get(person.invoice.id, cookie)).status).toBe(404);
    const session = (await readSession(new Request('https://site.example/account', { headers: { Cookie: cookie } })))!;
    expect((await invoicePage(session, person.invoice.id, 'en'))?.xmlUrl).toBeNull();
  });

  it("gives a client their own credit note as a UBL CreditNote naming the invoice, and nobody else's", async () => {
    const layla = await signedIn('client@example.com');
    const omar = await signedIn('former@example.com');
    const [mine] = layla.invoices;
    const { note } = await embeddedBilling()!.issueCreditNote(mine.number, 'Refunded: charged twice by mistake');

    const own = await getCreditNote(note.id, layla.cookie);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-disposition')).toBe(`attachment; filename="${note.number}.xml"`);
    expect(own.headers.get('cache-control')).toBe('private, no-store');
    const xml = await own.text();
    expect(xml).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
    expect(xml).toContain(`<cbc:ID>${note.number}</cbc:ID>`);
    expect(xml).toContain(`<cbc:ID>${mine.number}</cbc:ID>`);

    // Another client asking for it, a made-up id and a signed-out request get nothing.
    const attack = await getCreditNote(note.id, omar.cookie);
    expect(attack.status).toBe(404);
    expect(await attack.text()).not.toContain('Haddad');
    expect((await getCreditNote('cn_doesnotexist', layla.cookie)).status).toBe(404);
    expect((await getCreditNote(note.id)).status).toBe(302);

    // Its page links it beside the PDF.
    const session = (await readSession(
      new Request('https://site.example/account', { headers: { Cookie: layla.cookie } }),
    ))!;
    expect((await creditNotePage(session, note.id, 'en'))?.xmlUrl).toBe(`/account/credit-notes/${note.id}/xml`);
  });
});
