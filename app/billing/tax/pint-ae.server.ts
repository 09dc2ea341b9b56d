import { createHash } from 'node:crypto';
import enLabels from '../../../public/locales/en/emails.json';
import type { CreditNoteSnapshot } from './credit-note';
import type { Emirate } from './profile';
import type { InvoiceSnapshot } from './snapshot';
import { el, serialize, type XmlElement } from './xml';

/**
 * A UAE supplier's tax invoice (and tax credit note) as a PINT AE e-invoice: the Peppol PINT
 * specification for the UAE, a UBL 2.1 Invoice/CreditNote document, rendered from the snapshot
 * frozen at issue (ADR 0028) and nothing else. Which UBL element carries which of the Ministry of
 * Finance's mandatory fields is listed in docs/accounting.md ("E-invoices"); the comments below
 * name the PINT business terms (IBT-…, BTAE-…).
 *
 * The firm's Accredited Service Provider signs, transmits and reports these documents; this
 * module only writes them (issue 41: the provider's API is out of scope).
 */

/** IBT-024 and IBT-023 of PINT AE (billing, not self-billing). */
export const PINT_AE_CUSTOMIZATION_ID = 'urn:peppol:pint:billing-1@ae-1';
export const PINT_AE_PROFILE_ID = 'urn:peppol:bis:billing';
/** The electronic address scheme of UAE participants: 0235 + the 10-digit TIN. */
export const UAE_EAS = '0235';
/** The buyer endpoint PINT AE reserves for an export to a buyer who is not on the UAE network. */
export const EXPORT_ENDPOINT = '9900000099';

const NS = {
  invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  creditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

/** An issued invoice: its number and its snapshot (the engine's billing_invoices row). */
export interface EInvoiceSource {
  number: string;
  snapshot: InvoiceSnapshot;
}

export type NotEligible =
  'no-snapshot' | 'waiting' | 'not-uae-supplier' | 'not-registered' | 'not-business-client' | 'buyer-endpoint-unknown';

type IssuedSnapshot = Extract<InvoiceSnapshot, { status: 'issued' }>;

/**
 * Whether an invoice gets an e-invoice: an issued invoice of a VAT-registered UAE supplier to a
 * business client (a company name, a tax number or billing details on record) whose Peppol
 * address is known or, for a client outside the UAE, the export endpoint.
 */
export function eInvoiceEligibility(
  snapshot: InvoiceSnapshot | null,
): { ok: true } | { ok: false; reason: NotEligible } {
  if (!snapshot) return { ok: false, reason: 'no-snapshot' };
  if (snapshot.supplier.country !== 'AE') return { ok: false, reason: 'not-uae-supplier' };
  if (!snapshot.supplier.registrationNumber) return { ok: false, reason: 'not-registered' };
  if (snapshot.status !== 'issued' || !snapshot.aed) return { ok: false, reason: 'waiting' };
  const c = snapshot.client;
  if (!c.company && !c.registrationNumber && !c.address) return { ok: false, reason: 'not-business-client' };
  if (!buyerEndpoint(snapshot)) return { ok: false, reason: 'buyer-endpoint-unknown' };
  return { ok: true };
}

/** The TIN: the first 10 digits of a UAE TRN (MoF, "Electronic Invoice Mandatory Fields"). */
export function tinFromTrn(trn: string): string | null {
  return /^\d{15}$/.test(trn) ? trn.slice(0, 10) : null;
}

function supplierEndpoint(s: IssuedSnapshot): string {
  const configured = s.supplier.eInvoicing?.participantId;
  if (configured) return configured.slice(UAE_EAS.length + 1);
  return tinFromTrn(s.supplier.registrationNumber ?? '') ?? '';
}

function clientInUae(s: InvoiceSnapshot): boolean {
  return s.treatment.kind === 'standard';
}

function buyerEndpoint(s: InvoiceSnapshot): string | null {
  const c = s.client;
  const configured = c.peppolParticipantId;
  if (configured && /^0235:\d{10}$/.test(configured)) return configured.slice(UAE_EAS.length + 1);
  if (!clientInUae(s)) return EXPORT_ENDPOINT;
  return c.registrationNumber ? tinFromTrn(c.registrationNumber) : null;
}

/** Minor units as a decimal amount: 12345 → "123.45". */
export function amount(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

const day = (iso: string) => iso.slice(0, 10);

/**
 * A stable UUID for a document (BTAE-07): the same document exported twice has the same one, so a
 * provider can recognise a resend. A name-based UUID (RFC 9562 version 8) of the supplier's TRN,
 * the document type and its number.
 */
export function documentUuid(trn: string, kind: 'invoice' | 'credit-note', number: string): string {
  const h = createHash('sha256').update(`pint-ae|${trn}|${kind}|${number}`).digest();
  h[6] = (h[6] & 0x0f) | 0x80;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

const EMIRATE_NAMES: [RegExp, Emirate][] = [
  [/abu\s*dhabi|أبوظبي|أبو ظبي/i, 'AUH'],
  [/dubai|دبي/i, 'DXB'],
  [/sharjah|الشارقة/i, 'SHJ'],
  [/ajman|عجمان/i, 'AJM'],
  [/umm\s*al[\s-]*quwain|أم القيوين/i, 'UAQ'],
  [/ras\s*al[\s-]*khaimah|رأس الخيمة/i, 'RAK'],
  [/fujairah|الفجيرة/i, 'FUJ'],
];

/** The emirate named in a free-text UAE address, if one is. */
export function emirateOf(address: string): Emirate | null {
  for (const [re, code] of EMIRATE_NAMES) if (re.test(address)) return code;
  return null;
}

interface AddressParts {
  street: string;
  additional: string | null;
  city: string | null;
  emirate: Emirate | null;
  country: string;
}

/** A free-text address ("\n" between lines): first line the street, last line the city, those between kept. */
function addressParts(text: string | null, country: string, city?: string, emirate?: Emirate | null): AddressParts {
  const lines = (text ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const street = lines[0] ?? '';
  const rest = lines.slice(1);
  const lastLine = rest.length ? rest[rest.length - 1] : null;
  const derivedCity = lastLine ? lastLine.split(',')[0].trim() || null : null;
  return {
    street,
    additional: rest.length > 1 ? rest.slice(0, -1).join(', ') : null,
    city: city ?? derivedCity,
    emirate: country === 'AE' ? (emirate ?? emirateOf(text ?? '')) : null,
    country,
  };
}

function postalAddress(a: AddressParts): XmlElement {
  return el(
    'cac:PostalAddress',
    null,
    a.street && el('cbc:StreetName', null, a.street),
    a.additional && el('cbc:AdditionalStreetName', null, a.additional),
    a.city && el('cbc:CityName', null, a.city),
    a.emirate && el('cbc:CountrySubentity', null, a.emirate),
    el('cac:Country', null, el('cbc:IdentificationCode', null, a.country)),
  );
}

function vat(): XmlElement {
  return el('cac:TaxScheme', null, el('cbc:ID', null, 'VAT'));
}

/** S (standard rate) or Z (zero-rated export) of UNCL5305, the only two a UAE supplier's snapshot can have. */
function taxCategoryCode(s: IssuedSnapshot): 'S' | 'Z' {
  return s.treatment.kind === 'standard' ? 'S' : 'Z';
}

function supplierParty(s: IssuedSnapshot): XmlElement {
  const sup = s.supplier;
  const e = sup.eInvoicing;
  return el(
    'cac:AccountingSupplierParty',
    null,
    el(
      'cac:Party',
      null,
      el('cbc:EndpointID', { schemeID: UAE_EAS }, supplierEndpoint(s)),
      postalAddress(addressParts(sup.address.en, 'AE', e?.city, e?.emirate ?? null)),
      el('cac:PartyTaxScheme', null, el('cbc:CompanyID', null, sup.registrationNumber ?? ''), vat()),
      el(
        'cac:PartyLegalEntity',
        null,
        el('cbc:RegistrationName', null, sup.legalName.en),
        e?.legalRegistration &&
          el(
            'cbc:CompanyID',
            {
              schemeAgencyID: e.legalRegistration.type,
              ...(e.legalRegistration.authority ? { schemeAgencyName: e.legalRegistration.authority } : {}),
            },
            e.legalRegistration.id,
          ),
      ),
    ),
  );
}

function customerParty(s: IssuedSnapshot): XmlElement {
  const c = s.client;
  const country = (c.country ?? (clientInUae(s) ? 'AE' : '')).toUpperCase();
  return el(
    'cac:AccountingCustomerParty',
    null,
    el(
      'cac:Party',
      null,
      el('cbc:EndpointID', { schemeID: UAE_EAS }, buyerEndpoint(s) ?? ''),
      country && postalAddress(addressParts(c.address, country)),
      c.registrationNumber && el('cac:PartyTaxScheme', null, el('cbc:CompanyID', null, c.registrationNumber), vat()),
      el('cac:PartyLegalEntity', null, el('cbc:RegistrationName', null, c.company ?? c.name)),
      c.email && el('cac:Contact', null, el('cbc:ElectronicMail', null, c.email)),
    ),
  );
}

function taxTotals(s: IssuedSnapshot, aed: NonNullable<IssuedSnapshot['aed']>): XmlElement[] {
  const code = taxCategoryCode(s);
  const cur = s.currency;
  return [
    // IBT-110 and the VAT breakdown (IBG-23) in the document currency.
    el(
      'cac:TaxTotal',
      null,
      el('cbc:TaxAmount', { currencyID: cur }, amount(s.totals.tax)),
      el(
        'cac:TaxSubtotal',
        null,
        el('cbc:TaxableAmount', { currencyID: cur }, amount(s.totals.net)),
        el('cbc:TaxAmount', { currencyID: cur }, amount(s.totals.tax)),
        el(
          'cac:TaxCategory',
          null,
          el('cbc:ID', null, code),
          el('cbc:Percent', null, String(s.treatment.ratePercent)),
          vat(),
        ),
      ),
    ),
    // IBT-111: the total VAT in the tax accounting currency, AED (the sum of the per-line fils).
    el('cac:TaxTotal', null, el('cbc:TaxAmount', { currencyID: 'AED' }, amount(aed.totals.tax))),
  ];
}

function monetaryTotal(s: IssuedSnapshot): XmlElement {
  const cur = s.currency;
  return el(
    'cac:LegalMonetaryTotal',
    null,
    el('cbc:LineExtensionAmount', { currencyID: cur }, amount(s.totals.net)),
    el('cbc:TaxExclusiveAmount', { currencyID: cur }, amount(s.totals.net)),
    el('cbc:TaxInclusiveAmount', { currencyID: cur }, amount(s.totals.gross)),
    el('cbc:PayableAmount', { currencyID: cur }, amount(s.totals.gross)),
  );
}

function lines(
  s: IssuedSnapshot,
  aed: NonNullable<IssuedSnapshot['aed']>,
  kind: 'invoice' | 'credit-note',
): XmlElement[] {
  const cur = s.currency;
  const code = taxCategoryCode(s);
  const [lineName, quantityName] =
    kind === 'invoice' ? ['cac:InvoiceLine', 'cbc:InvoicedQuantity'] : ['cac:CreditNoteLine', 'cbc:CreditedQuantity'];
  return s.lines.map((l, i) =>
    el(
      lineName,
      null,
      el('cbc:ID', null, String(i + 1)),
      // Packages are billed per unit (UN/ECE Rec. 20 "C62", one).
      el(quantityName, { unitCode: 'C62' }, String(l.quantity)),
      el('cbc:LineExtensionAmount', { currencyID: cur }, amount(l.net)),
      // The line's VAT in AED, converted and rounded to the fils on its own (VATP006).
      el('cac:TaxTotal', null, el('cbc:TaxAmount', { currencyID: 'AED' }, amount(aed.lines[i]?.tax ?? 0))),
      el(
        'cac:Item',
        null,
        el('cbc:Description', null, l.description.ar),
        el('cbc:Name', null, l.description.en),
        // Item type (goods, services or both): the firm supplies services.
        el('cac:CommodityClassification', null, el('cbc:CommodityCode', null, 'S')),
        el(
          'cac:ClassifiedTaxCategory',
          null,
          el('cbc:ID', null, code),
          el('cbc:Percent', null, String(l.ratePercent)),
          vat(),
        ),
      ),
      el(
        'cac:Price',
        null,
        el('cbc:PriceAmount', { currencyID: cur }, amount(l.unitPrice)),
        el('cbc:BaseQuantity', { unitCode: 'C62' }, '1'),
        // The gross price (IBT-148): no discount is given, so it equals the net price.
        el(
          'cac:AllowanceCharge',
          null,
          el('cbc:ChargeIndicator', null, 'false'),
          el('cbc:Amount', { currencyID: cur }, '0.00'),
          el('cbc:BaseAmount', { currencyID: cur }, amount(l.unitPrice)),
        ),
      ),
      // BTAE-10 and BTAE-08: the line's amount with VAT and its VAT, in the document currency.
      el(
        'cac:ItemPriceExtension',
        null,
        el('cbc:Amount', { currencyID: cur }, amount(l.net + l.tax)),
        el('cac:TaxTotal', null, el('cbc:TaxAmount', { currencyID: cur }, amount(l.tax))),
      ),
    ),
  );
}

/** The UAE invoice transaction type flags (BTAE-02): eight 0/1, the eighth for exports. */
function transactionType(s: IssuedSnapshot): string {
  return clientInUae(s) ? '00000000' : '00000001';
}

interface Header {
  kind: 'invoice' | 'credit-note';
  number: string;
  issueDate: string;
  /** For an invoice, its due date; a credit note has none in UBL 2.1 (PaymentMeans would carry it). */
  dueDate: string | null;
  notes: string[];
  billingReference: { number: string; issueDate: string } | null;
}

function document(s: IssuedSnapshot, h: Header): XmlElement {
  const aed = s.aed!;
  const invoice = h.kind === 'invoice';
  const statement = s.treatment.statement ? enLabels.taxInvoice[s.treatment.statement] : null;
  const notes = [...h.notes, ...(statement ? [statement] : [])];
  const delivery =
    !clientInUae(s) && s.client.country
      ? el(
          'cac:Delivery',
          null,
          el(
            'cac:DeliveryLocation',
            null,
            el('cac:Address', null, el('cac:Country', null, el('cbc:IdentificationCode', null, s.client.country))),
          ),
        )
      : null;
  return el(
    invoice ? 'Invoice' : 'CreditNote',
    { xmlns: invoice ? NS.invoice : NS.creditNote, 'xmlns:cac': NS.cac, 'xmlns:cbc': NS.cbc },
    el('cbc:CustomizationID', null, PINT_AE_CUSTOMIZATION_ID),
    el('cbc:ProfileID', null, PINT_AE_PROFILE_ID),
    el('cbc:ProfileExecutionID', null, transactionType(s)),
    el('cbc:ID', null, h.number),
    el('cbc:UUID', null, documentUuid(s.supplier.registrationNumber ?? '', h.kind, h.number)),
    el('cbc:IssueDate', null, h.issueDate),
    invoice && h.dueDate && el('cbc:DueDate', null, h.dueDate),
    // UNTDID 1001: 380 commercial (tax) invoice, 381 credit note.
    el(invoice ? 'cbc:InvoiceTypeCode' : 'cbc:CreditNoteTypeCode', null, invoice ? '380' : '381'),
    notes.map((n) => el('cbc:Note', null, n)),
    el('cbc:DocumentCurrencyCode', null, s.currency),
    el('cbc:TaxCurrencyCode', null, 'AED'),
    el(
      'cac:InvoicePeriod',
      null,
      el('cbc:StartDate', null, day(s.periodStart)),
      el('cbc:EndDate', null, day(s.periodEnd)),
    ),
    h.billingReference &&
      el(
        'cac:BillingReference',
        null,
        el(
          'cac:InvoiceDocumentReference',
          null,
          el('cbc:ID', null, h.billingReference.number),
          el('cbc:IssueDate', null, h.billingReference.issueDate),
        ),
      ),
    supplierParty(s),
    customerParty(s),
    delivery,
    // Paid by card at issue (the portal takes payment when it invoices): UNCL4461 48, bank card.
    el('cac:PaymentMeans', null, el('cbc:PaymentMeansCode', null, '48')),
    el(
      'cac:TaxExchangeRate',
      null,
      el('cbc:SourceCurrencyCode', null, s.currency),
      el('cbc:TargetCurrencyCode', null, 'AED'),
      el('cbc:CalculationRate', null, aed.exchangeRate.rate),
      el('cbc:MathematicOperatorCode', null, 'Multiply'),
      el('cbc:Date', null, aed.exchangeRate.date),
    ),
    taxTotals(s, aed),
    monetaryTotal(s),
    lines(s, aed, h.kind),
  );
}

export class NotEligibleError extends Error {
  constructor(readonly reason: NotEligible) {
    super(`no PINT AE e-invoice for this document: ${reason}`);
  }
}

function issued(snapshot: InvoiceSnapshot): IssuedSnapshot {
  const e = eInvoiceEligibility(snapshot);
  if (!e.ok) throw new NotEligibleError(e.reason);
  return snapshot as IssuedSnapshot;
}

/** A tax invoice as a PINT AE UBL 2.1 Invoice. Throws NotEligibleError when it gets none. */
export function pintAeInvoice(source: EInvoiceSource): string {
  const s = issued(source.snapshot);
  const issueDate = day(s.issuedAt);
  return serialize(
    document(s, {
      kind: 'invoice',
      number: source.number,
      issueDate,
      // Charged when issued: due on its date of issue.
      dueDate: issueDate,
      notes: s.supplier.demo ? ['Demo profile: not a real tax invoice'] : [],
      billingReference: null,
    }),
  );
}

/**
 * A tax credit note (a full credit of an invoice: its snapshot, app/billing/tax/credit-note.ts) as a
 * PINT AE UBL 2.1 CreditNote. It gets one when its invoice did (eInvoiceEligibility of the invoice's
 * snapshot it carries); throws NotEligibleError otherwise.
 */
export function pintAeCreditNote(credit: CreditNoteSnapshot): string {
  const s = issued(credit.invoice.tax);
  return serialize(
    document(s, {
      kind: 'credit-note',
      number: credit.number,
      issueDate: day(credit.issuedAt),
      dueDate: null,
      notes: [credit.reason, ...(s.supplier.demo ? ['Demo profile: not a real tax credit note'] : [])],
      billingReference: { number: credit.invoice.number, issueDate: day(credit.invoice.issuedAt) },
    }),
  );
}

/** A file name for a document: its number, kept to safe characters. */
export function eInvoiceFilename(number: string): string {
  return `${number.replace(/[^A-Za-z0-9_-]/g, '_')}.xml`;
}
