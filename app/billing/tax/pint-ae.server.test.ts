import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import * as xpath from 'xpath';
import { validateXML } from 'xmllint-wasm';
import {
  documentUuid,
  eInvoiceEligibility,
  pintAeCreditNote,
  pintAeInvoice,
  PINT_AE_CUSTOMIZATION_ID,
  PINT_AE_PROFILE_ID,
} from './pint-ae.server';
import { buildCreditNote, type CreditNoteSnapshot } from './credit-note';
import { DEMO_TAX_PROFILE, parseTaxProfile, type TaxProfile } from './profile';
import { buildSnapshot, DEMO_FIXTURE_RATE, type ClientDetails, type InvoiceSnapshot } from './snapshot';
import { escapeAttr, escapeText, XmlValueError } from './xml';

/**
 * The PINT AE e-invoices, checked by tools no one here wrote: the documents are parsed by
 * @xmldom/xmldom and each of the Ministry of Finance's mandatory fields is read by name with XPath
 * (the `xpath` package); where the OASIS UBL 2.1 schemas are at hand (UBL_XSD_DIR: a folder with
 * xsd/maindoc and xsd/common of the OASIS release; no npm package ships them) each document is
 * also validated against them by libxml2 (xmllint-wasm).
 */

const profile: TaxProfile = {
  ...DEMO_TAX_PROFILE,
  demo: false,
  legalName: { en: 'Bawaba Advisory FZ-LLC', ar: 'بوابة للاستشارات ش.م.ح-ذ.م.م' },
  registrationNumber: '100234567800003',
  eInvoicing: {
    city: 'Dubai',
    emirate: 'DXB',
    legalRegistration: { id: 'TL-88812', type: 'TL', authority: 'Dubai Development Authority' },
  },
};

const uaeClient: ClientDetails = {
  name: 'شركة الأفق للتجارة ذ.م.م',
  company: null,
  email: 'accounts@ofuq.example',
  address: 'Office 12, Al Wasl Road\nJumeirah 1\nDubai, United Arab Emirates',
  country: 'AE',
  registrationNumber: '100987654300003',
};
const overseasClient: ClientDetails = {
  name: 'Lion City Holdings Pte. Ltd.',
  company: null,
  email: 'ap@lioncity.example',
  address: '1 Raffles Place #20-01\nSingapore 048616',
  country: 'SG',
  registrationNumber: '201912345K',
};

function snapshot(client: ClientDetails, p: TaxProfile = profile): InvoiceSnapshot {
  return buildSnapshot({
    profile: p,
    client,
    lines: [
      {
        description: { en: 'Growth retainer, monthly', ar: 'باقة النمو، شهرياً' },
        plan: 'growth',
        quantity: 1,
        price: 105_000,
      },
    ],
    supplyDate: new Date('2027-07-01T00:00:00Z'),
    periodStart: new Date('2027-07-01T00:00:00Z'),
    periodEnd: new Date('2027-08-01T00:00:00Z'),
    now: new Date('2027-07-01T08:30:00Z'),
    exchangeRate: { ...DEMO_FIXTURE_RATE, date: '2027-07-01' },
  });
}

const NS = {
  inv: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  cn: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};
const select = xpath.useNamespaces(NS);

function parse(xml: string) {
  const errors: string[] = [];
  const doc = new DOMParser({ onError: (level, msg) => void errors.push(`${level}: ${msg}`) }).parseFromString(
    xml,
    'text/xml',
  );
  expect(errors).toEqual([]);
  /** The text of each node at `expr`. */
  const all = (expr: string) =>
    (select(expr, doc as unknown as Node) as Node[]).map((n) => n.textContent ?? n.nodeValue);
  /** The text of the one node at `expr` (fails when it is missing or repeated). */
  const one = (expr: string) => {
    const found = all(expr);
    expect(found, expr).toHaveLength(1);
    return found[0];
  };
  return { all, one };
}

/**
 * The Ministry of Finance's mandatory fields of an electronic tax invoice ("UAE Electronic Invoice
 * Mandatory Fields", February 2026) that the portal knows, by the MoF's name, at their PINT AE
 * place. `r` is the document root prefix (inv:Invoice or cn:CreditNote).
 */
function mandatoryFields(r: string, line: string, quantity: string) {
  return {
    'Invoice number': `/${r}/cbc:ID`,
    'Invoice issue date': `/${r}/cbc:IssueDate`,
    'Invoice type code': `/${r}/cbc:${r.startsWith('inv') ? 'InvoiceTypeCode' : 'CreditNoteTypeCode'}`,
    'Invoice currency code': `/${r}/cbc:DocumentCurrencyCode`,
    'Tax currency code': `/${r}/cbc:TaxCurrencyCode`,
    'Invoice transaction type code': `/${r}/cbc:ProfileExecutionID`,
    'Business process type': `/${r}/cbc:ProfileID`,
    'Specification identifier': `/${r}/cbc:CustomizationID`,
    'Unique identifier (UUID)': `/${r}/cbc:UUID`,
    'Payment means type code': `/${r}/cac:PaymentMeans/cbc:PaymentMeansCode`,
    'Invoicing period start date': `/${r}/cac:InvoicePeriod/cbc:StartDate`,
    'Invoicing period end date': `/${r}/cac:InvoicePeriod/cbc:EndDate`,
    'Seller name': `/${r}/cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName`,
    'Seller electronic identifier': `/${r}/cac:AccountingSupplierParty/cac:Party/cbc:EndpointID`,
    'Seller electronic identifier scheme': `/${r}/cac:AccountingSupplierParty/cac:Party/cbc:EndpointID/@schemeID`,
    'Seller legal registration identifier': `/${r}/cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID`,
    'Seller legal registration identifier type': `/${r}/cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID/@schemeAgencyID`,
    'Seller tax identifier (TRN)': `/${r}/cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID`,
    'Seller tax scheme code': `/${r}/cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cac:TaxScheme/cbc:ID`,
    'Seller address line 1': `/${r}/cac:AccountingSupplierParty/cac:Party/cac:PostalAddress/cbc:StreetName`,
    'Seller city': `/${r}/cac:AccountingSupplierParty/cac:Party/cac:PostalAddress/cbc:CityName`,
    'Seller country subdivision': `/${r}/cac:AccountingSupplierParty/cac:Party/cac:PostalAddress/cbc:CountrySubentity`,
    'Seller country code': `/${r}/cac:AccountingSupplierParty/cac:Party/cac:PostalAddress/cac:Country/cbc:IdentificationCode`,
    'Buyer name': `/${r}/cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName`,
    'Buyer electronic identifier': `/${r}/cac:AccountingCustomerParty/cac:Party/cbc:EndpointID`,
    'Buyer electronic identifier scheme': `/${r}/cac:AccountingCustomerParty/cac:Party/cbc:EndpointID/@schemeID`,
    'Buyer address line 1': `/${r}/cac:AccountingCustomerParty/cac:Party/cac:PostalAddress/cbc:StreetName`,
    'Buyer city': `/${r}/cac:AccountingCustomerParty/cac:Party/cac:PostalAddress/cbc:CityName`,
    'Buyer country code': `/${r}/cac:AccountingCustomerParty/cac:Party/cac:PostalAddress/cac:Country/cbc:IdentificationCode`,
    'Sum of invoice line net amount': `/${r}/cac:LegalMonetaryTotal/cbc:LineExtensionAmount`,
    'Invoice total amount without tax': `/${r}/cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount`,
    'Invoice total tax amount': `/${r}/cac:TaxTotal/cbc:TaxAmount[@currencyID='SGD']`,
    'Invoice total tax amount in accounting currency (AED)': `/${r}/cac:TaxTotal/cbc:TaxAmount[@currencyID='AED']`,
    'Invoice total amount with tax': `/${r}/cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount`,
    'Amount due for payment': `/${r}/cac:LegalMonetaryTotal/cbc:PayableAmount`,
    'VAT category taxable amount': `/${r}/cac:TaxTotal/cac:TaxSubtotal/cbc:TaxableAmount`,
    'VAT category tax amount': `/${r}/cac:TaxTotal/cac:TaxSubtotal/cbc:TaxAmount`,
    'VAT category code': `/${r}/cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID`,
    'VAT category rate': `/${r}/cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:Percent`,
    'Exchange rate to AED': `/${r}/cac:TaxExchangeRate/cbc:CalculationRate`,
    'Invoice line identifier': `/${r}/${line}/cbc:ID`,
    'Invoiced quantity': `/${r}/${line}/${quantity}`,
    'Unit of measure code': `/${r}/${line}/${quantity}/@unitCode`,
    'Invoice line net amount': `/${r}/${line}/cbc:LineExtensionAmount`,
    'Item net price': `/${r}/${line}/cac:Price/cbc:PriceAmount`,
    'Item gross price': `/${r}/${line}/cac:Price/cac:AllowanceCharge/cbc:BaseAmount`,
    'Item price base quantity': `/${r}/${line}/cac:Price/cbc:BaseQuantity`,
    'Invoiced item tax category code': `/${r}/${line}/cac:Item/cac:ClassifiedTaxCategory/cbc:ID`,
    'Invoiced item tax rate': `/${r}/${line}/cac:Item/cac:ClassifiedTaxCategory/cbc:Percent`,
    'VAT line amount in AED': `/${r}/${line}/cac:TaxTotal/cbc:TaxAmount[@currencyID='AED']`,
    'Item name': `/${r}/${line}/cac:Item/cbc:Name`,
    'Item description': `/${r}/${line}/cac:Item/cbc:Description`,
    'Item type': `/${r}/${line}/cac:Item/cac:CommodityClassification/cbc:CommodityCode`,
    'Invoice line amount with VAT': `/${r}/${line}/cac:ItemPriceExtension/cbc:Amount`,
    'Invoice line VAT amount': `/${r}/${line}/cac:ItemPriceExtension/cac:TaxTotal/cbc:TaxAmount`,
  };
}

const INVOICE_FIELDS = mandatoryFields('inv:Invoice', 'cac:InvoiceLine', 'cbc:InvoicedQuantity');
const CREDIT_FIELDS = mandatoryFields('cn:CreditNote', 'cac:CreditNoteLine', 'cbc:CreditedQuantity');

// -------------------------------------------------------------------- XSD (OASIS UBL 2.1)

const XSD_DIR = process.env.UBL_XSD_DIR ?? '';
const haveXsd = XSD_DIR !== '' && existsSync(path.join(XSD_DIR, 'xsd/maindoc/UBL-Invoice-2.1.xsd'));
if (!haveXsd)
  console.warn(
    'pint-ae: UBL 2.1 XSD validation skipped: set UBL_XSD_DIR to a folder holding the OASIS release (xsd/maindoc, xsd/common); no npm package ships the schemas',
  );

async function xsdErrors(xml: string, main: 'Invoice' | 'CreditNote'): Promise<string[]> {
  const common = readdirSync(path.join(XSD_DIR, 'xsd/common')).map((f) => ({
    fileName: `xsd/common/${f}`,
    contents: readFileSync(path.join(XSD_DIR, 'xsd/common', f), 'utf8'),
  }));
  const mainFile = `xsd/maindoc/UBL-${main}-2.1.xsd`;
  const result = await validateXML({
    xml: [{ fileName: 'document.xml', contents: xml }],
    schema: [{ fileName: mainFile, contents: readFileSync(path.join(XSD_DIR, mainFile), 'utf8') }],
    preload: common,
  });
  return result.errors.map((e) => e.rawMessage);
}

// ------------------------------------------------------------------------------ tests

describe('PINT AE invoice, UAE client (standard rate)', () => {
  const xml = pintAeInvoice({ number: 'BWB-2027-0042', snapshot: snapshot(uaeClient) });
  const { one, all } = parse(xml);

  it.each(Object.entries(INVOICE_FIELDS))('has the mandatory field "%s"', (_, expr) => {
    expect(one(expr)?.trim()).not.toBe('');
  });

  it('carries the values of the snapshot where PINT AE puts them', () => {
    const f = INVOICE_FIELDS;
    expect(one(f['Specification identifier'])).toBe(PINT_AE_CUSTOMIZATION_ID);
    expect(one(f['Business process type'])).toBe(PINT_AE_PROFILE_ID);
    expect(one(f['Invoice number'])).toBe('BWB-2027-0042');
    expect(one(f['Invoice issue date'])).toBe('2027-07-01');
    expect(one(f['Invoice type code'])).toBe('380');
    expect(one(f['Invoice currency code'])).toBe('SGD');
    expect(one(f['Tax currency code'])).toBe('AED');
    expect(one(f['Invoice transaction type code'])).toBe('00000000');
    expect(one(f['Unique identifier (UUID)'])).toBe(documentUuid('100234567800003', 'invoice', 'BWB-2027-0042'));
    expect(one(f['Invoicing period start date'])).toBe('2027-07-01');
    expect(one(f['Invoicing period end date'])).toBe('2027-08-01');
    expect(one(f['Seller tax identifier (TRN)'])).toBe('100234567800003');
    expect(one(f['Seller tax scheme code'])).toBe('VAT');
    // The Peppol participant ID: scheme 0235, the TIN (first 10 digits of the TRN).
    expect(one(f['Seller electronic identifier scheme'])).toBe('0235');
    expect(one(f['Seller electronic identifier'])).toBe('1002345678');
    expect(one(f['Seller legal registration identifier'])).toBe('TL-88812');
    expect(one(f['Seller legal registration identifier type'])).toBe('TL');
    expect(one(f['Seller name'])).toBe('Bawaba Advisory FZ-LLC');
    expect(one(f['Seller city'])).toBe('Dubai');
    expect(one(f['Seller country subdivision'])).toBe('DXB');
    expect(one(f['Seller country code'])).toBe('AE');
    expect(one(f['Buyer electronic identifier'])).toBe('1009876543');
    expect(one('/inv:Invoice/cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID')).toBe(
      '100987654300003',
    );
    expect(one(f['Buyer city'])).toBe('Dubai');
    expect(one('/inv:Invoice/cac:AccountingCustomerParty/cac:Party/cac:PostalAddress/cbc:CountrySubentity')).toBe(
      'DXB',
    );
    expect(one(f['Buyer country code'])).toBe('AE');
    // Prices include the 5 %: SGD 1,050.00 is 1,000.00 net and 50.00 VAT.
    expect(one(f['Invoice line net amount'])).toBe('1000.00');
    expect(one(f['Item net price'])).toBe('1000.00');
    expect(one(f['Invoiced quantity'])).toBe('1');
    expect(one(f['Unit of measure code'])).toBe('C62');
    expect(one(f['Invoiced item tax category code'])).toBe('S');
    expect(one(f['Invoiced item tax rate'])).toBe('5');
    expect(one(f['VAT category code'])).toBe('S');
    expect(one(f['VAT category rate'])).toBe('5');
    expect(one(f['Invoice total tax amount'])).toBe('50.00');
    expect(one(f['Invoice total amount without tax'])).toBe('1000.00');
    expect(one(f['Invoice total amount with tax'])).toBe('1050.00');
    expect(one(f['Amount due for payment'])).toBe('1050.00');
    expect(one(f['Invoice line amount with VAT'])).toBe('1050.00');
    expect(one(f['Item type'])).toBe('S');
    expect(one(f['Item name'])).toBe('Growth retainer, monthly');
    expect(one(f['Item description'])).toBe('باقة النمو، شهرياً');
    // Every amount in the document currency says so.
    expect(all("//*[@currencyID and @currencyID!='SGD' and @currencyID!='AED']")).toEqual([]);
  });

  it('gives the VAT in AED at the recorded rate, per line and in total (two TaxTotals)', () => {
    const f = INVOICE_FIELDS;
    expect(all('/inv:Invoice/cac:TaxTotal')).toHaveLength(2);
    // 50.00 SGD × 2.8500 = 142.50 AED.
    expect(one(f['Invoice total tax amount in accounting currency (AED)'])).toBe('142.50');
    expect(one(f['VAT line amount in AED'])).toBe('142.50');
    expect(one(f['Exchange rate to AED'])).toBe('2.8500');
    expect(one('/inv:Invoice/cac:TaxExchangeRate/cbc:Date')).toBe('2027-07-01');
  });

  it('keeps Arabic names intact in UTF-8', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(one(INVOICE_FIELDS['Buyer name'])).toBe('شركة الأفق للتجارة ذ.م.م');
    expect(Buffer.from(xml, 'utf8').toString('utf8')).toContain('شركة الأفق للتجارة ذ.م.م');
  });

  it.skipIf(!haveXsd)('is valid against the OASIS UBL 2.1 Invoice schema', async () => {
    expect(await xsdErrors(xml, 'Invoice')).toEqual([]);
  });

  it.skipIf(!haveXsd)('(the schema check does reject a document out of UBL order)', async () => {
    const swapped = xml.replace(
      /(<cbc:IssueDate>[^<]*<\/cbc:IssueDate>)(\s*)(<cbc:DueDate>[^<]*<\/cbc:DueDate>)/,
      '$3$2$1',
    );
    expect(swapped).not.toBe(xml);
    expect((await xsdErrors(swapped, 'Invoice')).join('\n')).toMatch(/DueDate/);
  });
});

describe('PINT AE invoice, overseas client (zero-rated export)', () => {
  const xml = pintAeInvoice({ number: 'BWB-2027-0043', snapshot: snapshot(overseasClient) });
  const { one } = parse(xml);
  const f = INVOICE_FIELDS;

  it.each(Object.entries(INVOICE_FIELDS).filter(([k]) => !k.startsWith('Seller country subdivision')))(
    'has the mandatory field "%s"',
    (_, expr) => {
      expect(one(expr)?.trim()).not.toBe('');
    },
  );

  it('is zero-rated (Z, 0 %) with the export statement, the exports flag and the export endpoint', () => {
    expect(one(f['VAT category code'])).toBe('Z');
    expect(one(f['VAT category rate'])).toBe('0');
    expect(one(f['Invoiced item tax category code'])).toBe('Z');
    expect(one(f['Invoice total tax amount'])).toBe('0.00');
    expect(one(f['Invoice total tax amount in accounting currency (AED)'])).toBe('0.00');
    expect(one(f['Invoice total amount with tax'])).toBe('1050.00');
    expect(one('/inv:Invoice/cbc:Note')).toMatch(/Zero-rated supply: export of services \(Article 31/);
    expect(one(f['Invoice transaction type code'])).toBe('00000001');
    expect(one(f['Buyer electronic identifier'])).toBe('9900000099');
    expect(one(f['Buyer country code'])).toBe('SG');
    expect(one('/inv:Invoice/cac:Delivery/cac:DeliveryLocation/cac:Address/cac:Country/cbc:IdentificationCode')).toBe(
      'SG',
    );
    // A foreign tax number is the buyer's own, not a UAE TRN: it is still named.
    expect(one('/inv:Invoice/cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID')).toBe(
      '201912345K',
    );
  });

  it.skipIf(!haveXsd)('is valid against the OASIS UBL 2.1 Invoice schema', async () => {
    expect(await xsdErrors(xml, 'Invoice')).toEqual([]);
  });
});

describe('PINT AE credit note (a full credit of an invoice)', () => {
  // Made as the engine makes it (app/billing/tax/credit-note.ts), from the invoice's snapshot.
  const invoiceSnapshot = snapshot(uaeClient);
  const credit: CreditNoteSnapshot = buildCreditNote({
    number: 'CN-2027-0001',
    now: new Date('2027-07-09T10:00:00.000Z'),
    reason: 'Refund: the retainer was cancelled before the work started',
    invoice: { number: 'BWB-2027-0042', tax: invoiceSnapshot },
  });
  const xml = pintAeCreditNote(credit);
  const { one } = parse(xml);

  it.each(Object.entries(CREDIT_FIELDS))('has the mandatory field "%s"', (_, expr) => {
    expect(one(expr)?.trim()).not.toBe('');
  });

  it('is a 381 credit note of its own number and date, naming the invoice it corrects', () => {
    expect(one(CREDIT_FIELDS['Invoice type code'])).toBe('381');
    expect(one(CREDIT_FIELDS['Invoice number'])).toBe('CN-2027-0001');
    expect(one(CREDIT_FIELDS['Invoice issue date'])).toBe('2027-07-09');
    expect(one('/cn:CreditNote/cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID')).toBe('BWB-2027-0042');
    expect(one('/cn:CreditNote/cac:BillingReference/cac:InvoiceDocumentReference/cbc:IssueDate')).toBe(
      invoiceSnapshot.status === 'issued' ? invoiceSnapshot.issuedAt.slice(0, 10) : null,
    );
    expect(one('/cn:CreditNote/cbc:Note')).toBe('Refund: the retainer was cancelled before the work started');
    expect(one(CREDIT_FIELDS['Invoice total tax amount in accounting currency (AED)'])).toBe('142.50');
    expect(one(CREDIT_FIELDS['Amount due for payment'])).toBe('1050.00');
    expect(one(CREDIT_FIELDS['Unique identifier (UUID)'])).not.toBe(
      documentUuid('100234567800003', 'invoice', 'BWB-2027-0042'),
    );
  });

  it.skipIf(!haveXsd)('is valid against the OASIS UBL 2.1 CreditNote schema', async () => {
    expect(await xsdErrors(xml, 'CreditNote')).toEqual([]);
  });
});

describe('PINT AE escaping and eligibility', () => {
  it('escapes hostile names in text and attributes, and reads them back exactly', () => {
    const hostile = `Acme <b>&"'</b> ]]> Ltd`;
    const xml = pintAeInvoice({
      number: 'BWB-2027-0044',
      snapshot: snapshot({ ...uaeClient, name: hostile, address: `1 <x> & "y" 'z' St\nDubai` }),
    });
    expect(xml).not.toContain('<b>');
    const { one } = parse(xml);
    expect(one(INVOICE_FIELDS['Buyer name'])).toBe(hostile);
    expect(one(INVOICE_FIELDS['Buyer address line 1'])).toBe(`1 <x> & "y" 'z' St`);
    expect(escapeAttr(`<&"'\n`)).toBe('&lt;&amp;&quot;&apos;&#10;');
    expect(escapeText('a]]>b')).toBe('a]]&gt;b');
  });

  it('refuses characters XML cannot carry instead of dropping them', () => {
    expect(() => pintAeInvoice({ number: 'X-1', snapshot: snapshot({ ...uaeClient, name: 'bad\u0001name' }) })).toThrow(
      XmlValueError,
    );
  });

  it('is made only for an issued invoice of a registered UAE supplier to a business client it can address', () => {
    expect(eInvoiceEligibility(snapshot(uaeClient))).toEqual({ ok: true });
    expect(eInvoiceEligibility(null)).toEqual({ ok: false, reason: 'no-snapshot' });
    const sg: TaxProfile = { ...profile, country: 'SG', registrationNumber: '201912345K', standardRatePercent: 9 };
    expect(eInvoiceEligibility(snapshot(uaeClient, sg))).toEqual({ ok: false, reason: 'not-uae-supplier' });
    const unregistered: TaxProfile = { ...profile, registered: false, registrationNumber: null };
    expect(eInvoiceEligibility(snapshot(uaeClient, unregistered)).ok).toBe(false);
    const person = { ...uaeClient, company: null, registrationNumber: null, address: null };
    expect(eInvoiceEligibility(snapshot(person))).toEqual({ ok: false, reason: 'not-business-client' });
    // A UAE business without a TRN or a configured participant ID cannot be addressed...
    const noTrn = { ...uaeClient, registrationNumber: null };
    expect(eInvoiceEligibility(snapshot(noTrn))).toEqual({ ok: false, reason: 'buyer-endpoint-unknown' });
    // ...unless its participant ID is on record.
    const withId = { ...noTrn, peppolParticipantId: '0235:1234567890' };
    expect(eInvoiceEligibility(snapshot(withId))).toEqual({ ok: true });
    expect(
      parse(pintAeInvoice({ number: 'N-1', snapshot: snapshot(withId) })).one(
        INVOICE_FIELDS['Buyer electronic identifier'],
      ),
    ).toBe('1234567890');
    const waiting = buildSnapshot({
      profile,
      client: uaeClient,
      lines: [{ description: { en: 'x', ar: 'س' }, plan: null, quantity: 1, price: 100 }],
      supplyDate: new Date('2027-07-01T00:00:00Z'),
      periodStart: new Date('2027-07-01T00:00:00Z'),
      periodEnd: new Date('2027-08-01T00:00:00Z'),
      now: new Date('2027-07-01T00:00:00Z'),
      exchangeRate: null,
    });
    expect(eInvoiceEligibility(waiting)).toEqual({ ok: false, reason: 'waiting' });
  });

  it('the same document gets the same UUID every time it is exported', () => {
    const a = pintAeInvoice({ number: 'BWB-2027-0042', snapshot: snapshot(uaeClient) });
    const b = pintAeInvoice({ number: 'BWB-2027-0042', snapshot: snapshot(uaeClient) });
    expect(a).toBe(b);
  });
});

describe("the profile's e-invoicing details", () => {
  const base = {
    legalName: { en: 'Bawaba Advisory FZ-LLC', ar: 'بوابة للاستشارات' },
    address: { en: 'Dubai', ar: 'دبي' },
    country: 'AE',
    registered: true,
    registrationNumber: '100234567800003',
    pricesIncludeTax: true,
  };
  it('are optional, and checked when given', () => {
    expect(parseTaxProfile(base).ok).toBe(true);
    const good = parseTaxProfile({
      ...base,
      eInvoicing: { participantId: '0235:1002345678', emirate: 'DXB', legalRegistration: { id: '1', type: 'TL' } },
    });
    expect(good.ok && good.profile.eInvoicing?.participantId).toBe('0235:1002345678');
    const bad = parseTaxProfile({ ...base, eInvoicing: { participantId: '1002345678', emirate: 'Dubai' } });
    expect(bad.ok ? [] : bad.problems).toEqual([
      'eInvoicing.participantId: 0235: and the 10-digit TIN',
      'eInvoicing.emirate: one of AUH, DXB, SHJ, AJM, UAQ, RAK, FUJ',
    ]);
  });

  it("a configured participant ID is the seller endpoint, instead of the TRN's TIN", () => {
    const s = snapshot(uaeClient, {
      ...profile,
      eInvoicing: { ...profile.eInvoicing, participantId: '0235:5555555555' },
    });
    const { one } = parse(pintAeInvoice({ number: 'P-1', snapshot: s }));
    expect(one(INVOICE_FIELDS['Seller electronic identifier'])).toBe('5555555555');
  });
});
