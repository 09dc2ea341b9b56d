import type { Locale } from '~/i18n';
import enLabels from '../../../public/locales/en/emails.json';
import arLabels from '../../../public/locales/ar/emails.json';
import { formatBillingAmount, formatBillingDate } from '../format';
import { creditNoteTitle, type CreditNoteSnapshot } from './credit-note';
import { taxInvoiceView, taxLabels, type Party, type TaxInvoiceView } from './view';

/**
 * A tax credit note's snapshot as text in one language, for its page and its PDF alike. The
 * parties, lines, zero-rating statement and exchange-rate line are the credited invoice's own
 * (taxInvoiceView of the copied snapshot: one text for both documents); the note adds its title,
 * number, date, the invoice it corrects, the reason and the adjustment of Article 60(1)(e):
 * value on the invoice, correct value (nil: a full credit), difference and its tax, in SGD and,
 * for a UAE supplier, in AED. Labels: `taxCreditNote` in public/locales/{en,ar}/emails.json.
 */
export type CreditNoteLabels = (typeof enLabels)['taxCreditNote'];
const labels: Record<Locale, CreditNoteLabels> = { en: enLabels.taxCreditNote, ar: arLabels.taxCreditNote };

export interface CreditNoteView {
  title: string;
  documentTitle: string;
  demo: string | null;
  supplier: Party;
  customer: Party;
  meta: [string, string][];
  reason: [string, string];
  /** The note's own number and the invoice's, for layouts that isolate them (left to right in Arabic). */
  number: string;
  invoiceNumber: string;
  fullCredit: string;
  columns: TaxInvoiceView['columns'];
  lines: TaxInvoiceView['lines'];
  /**
   * The adjustment, one row per figure: label, SGD, and AED (a UAE supplier, else null).
   * `currencies` heads the two amount columns.
   */
  adjustment: { heading: string; currencies: [string, string | null]; rows: [string, string, string | null][] };
  /** The exchange-rate line of the invoice (a UAE supplier), or null. */
  aed: { heading: string; rate: string; fixture: string | null } | null;
  statement: string | null;
  currency: string;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, key: string) => values[key] ?? '');
}

export function creditNoteView(snapshot: CreditNoteSnapshot, locale: Locale): CreditNoteView {
  const l = labels[locale];
  const t = taxLabels[locale];
  // The invoice's own text (its status is not the note's business: shown as paid or void elsewhere).
  const invoice = taxInvoiceView(snapshot.invoice.tax, { number: snapshot.invoice.number, status: 'paid' }, locale);
  const taxName = snapshot.invoice.tax.supplier.country === 'AE' ? t.vat : t.gst;
  const date = (iso: string) => formatBillingDate(iso, locale);
  const title = creditNoteTitle(snapshot) === 'tax-credit-note' ? l.taxCreditNoteTitle : l.creditNoteTitle;
  const sgd = snapshot.credited;
  const aed = snapshot.aed?.totals ?? null;
  const row = (label: string, pick: (f: { net: number; tax: number; gross: number }) => number) =>
    [
      label,
      formatBillingAmount(pick(sgd), locale, 'SGD'),
      aed ? formatBillingAmount(pick(aed), locale, 'AED') : null,
    ] as [string, string, string | null];
  const adjustmentRows = [
    row(fill(l.valueOnInvoice, { tax: taxName }), (f) => f.net),
    row(l.correctValue, () => 0),
    row(l.difference, (f) => f.net),
    row(fill(l.taxOnDifference, { tax: taxName }), (f) => f.tax),
    row(l.totalCredited, (f) => f.gross),
  ];
  const invoiceDate = date(snapshot.invoice.issuedAt);
  return {
    title,
    documentTitle: fill(l.documentTitle, { title, number: snapshot.number }),
    demo: snapshot.invoice.tax.supplier.demo ? l.demo : null,
    supplier: invoice.supplier,
    customer: invoice.customer,
    meta: [
      [l.number, snapshot.number],
      [l.issued, date(snapshot.issuedAt)],
      [l.invoice, snapshot.invoice.number],
      [l.invoiceDate, invoiceDate],
      [t.supplyDate, date(snapshot.invoice.tax.supplyDate)],
      [t.period, invoice.lines[0]?.period ?? ''],
    ],
    reason: [l.reason, snapshot.reason],
    number: snapshot.number,
    invoiceNumber: snapshot.invoice.number,
    fullCredit: fill(l.fullCredit, { number: snapshot.invoice.number, date: invoiceDate }),
    columns: invoice.columns,
    lines: invoice.lines,
    adjustment: { heading: l.adjustmentHeading, currencies: ['SGD', aed ? 'AED' : null], rows: adjustmentRows },
    aed: invoice.aed ? { heading: invoice.aed.heading, rate: invoice.aed.rate, fixture: invoice.aed.fixture } : null,
    statement: invoice.statement,
    currency: invoice.currency,
  };
}
