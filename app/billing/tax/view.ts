import type { Locale } from '~/i18n';
import enLabels from '../../../public/locales/en/emails.json';
import arLabels from '../../../public/locales/ar/emails.json';
import { formatBillingAmount, formatBillingDate } from '../format';
import { intlLocale } from '~/i18n';
import type { InvoiceStatus } from '../types';
import type { InvoiceSnapshot } from './snapshot';

/**
 * A tax invoice's snapshot as text in one language: what the invoice page and the PDF both lay
 * out, so the two cannot say different things. Labels are the `taxInvoice` section of
 * public/locales/{en,ar}/emails.json; every value comes from the snapshot (never from the
 * current profile, prices or client details).
 */
export type TaxLabels = (typeof enLabels)['taxInvoice'];
export const taxLabels: Record<Locale, TaxLabels> = { en: enLabels.taxInvoice, ar: arLabels.taxInvoice };

export interface Party {
  heading: string;
  name: string;
  /** Further lines: company, address lines, email. */
  lines: string[];
  /** The registration number and its name (TRN, GST Reg. No.), or null. */
  registration: { label: string; value: string } | null;
}

export interface TaxInvoiceView {
  title: string;
  documentTitle: string;
  /** The demo profile's warning, or null. */
  demo: string | null;
  /** The notice of an invoice that waits for its exchange rate, or null. */
  waiting: string | null;
  supplier: Party;
  customer: Party;
  meta: [string, string][];
  columns: { description: string; quantity: string; unitPrice: string; net: string; rate: string; tax: string };
  lines: {
    description: string;
    period: string;
    quantity: string;
    unitPrice: string;
    net: string;
    rate: string;
    tax: string;
    /**
     * The line's net and tax in AED (a UAE supplier billing in SGD), each converted and rounded to
     * the fils on its own (VATP006): shown under the SGD figures. Null without AED figures.
     */
    aed: { net: string; tax: string } | null;
  }[];
  totals: [string, string][];
  aed: { heading: string; rows: [string, string][]; rate: string; fixture: string | null } | null;
  /** The zero-rating or not-registered statement, or null. */
  statement: string | null;
  currency: string;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, key: string) => values[key] ?? '');
}

/**
 * The client's address lines, the country's name ending the last one ("Singapore 018960,
 * Singapore"): one line less than a line of its own, which keeps an Arabic invoice on one page.
 */
function addressWithCountry(c: InvoiceSnapshot['client'], locale: Locale): string[] {
  const lines = c.address ? c.address.split('\n') : [];
  const country = c.countryName?.[locale];
  if (!country) return lines;
  if (!lines.length) return [country];
  return [...lines.slice(0, -1), `${lines.at(-1)}${locale === 'ar' ? '، ' : ', '}${country}`];
}

export function taxInvoiceView(
  snapshot: InvoiceSnapshot,
  invoice: { number: string; status: InvoiceStatus },
  locale: Locale,
): TaxInvoiceView {
  const l = taxLabels[locale];
  const statusLabel = (locale === 'ar' ? arLabels : enLabels).invoice.statuses[invoice.status] ?? invoice.status;
  const money = (minor: number, currency: 'SGD' | 'AED' = 'SGD') => formatBillingAmount(minor, locale, currency);
  const date = (iso: string) => formatBillingDate(iso, locale);
  const percent = (p: number) =>
    new Intl.NumberFormat(intlLocale[locale], { style: 'percent', maximumFractionDigits: 2 }).format(p / 100);
  const s = snapshot.supplier;
  const taxName = s.country === 'AE' ? l.vat : l.gst;
  const registrationLabel = s.country === 'AE' ? l.trn : l.gstNo;
  const title = snapshot.treatment.title === 'tax-invoice' ? l.taxInvoiceTitle : l.invoiceTitle;
  const period = fill(l.periodValue, { start: date(snapshot.periodStart), end: date(snapshot.periodEnd) });
  const c = snapshot.client;
  const clientRegistrationLabel = c.country === 'AE' ? l.trn : c.country === 'SG' ? l.gstNo : l.taxNo;
  const statement =
    snapshot.treatment.statement !== null
      ? l[snapshot.treatment.statement]
      : snapshot.treatment.kind === 'not-registered'
        ? l.notRegistered
        : null;
  return {
    title,
    documentTitle: fill(l.documentTitle, { title, number: invoice.number }),
    demo: s.demo ? l.demo : null,
    waiting: snapshot.status === 'waiting' ? l.waiting : null,
    supplier: {
      heading: l.supplier,
      name: s.legalName[locale],
      lines: s.address[locale].split('\n'),
      registration: s.registrationNumber ? { label: registrationLabel, value: s.registrationNumber } : null,
    },
    customer: {
      heading: l.customer,
      name: c.name,
      lines: [c.company, ...addressWithCountry(c, locale), c.email].filter((x): x is string => Boolean(x)),
      registration: c.registrationNumber ? { label: clientRegistrationLabel, value: c.registrationNumber } : null,
    },
    meta: [
      [l.number, invoice.number],
      ...(snapshot.issuedAt ? [[l.issued, date(snapshot.issuedAt)] as [string, string]] : []),
      [l.supplyDate, date(snapshot.supplyDate)],
      [l.period, period],
      [l.status, statusLabel],
    ],
    columns: {
      description: l.description,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      net: l.net,
      rate: l.rate,
      tax: fill('{{tax}}', { tax: taxName }),
    },
    lines: snapshot.lines.map((line, i) => ({
      description: fill(l.line, { plan: line.description[locale] }),
      period,
      quantity: new Intl.NumberFormat(intlLocale[locale]).format(line.quantity),
      unitPrice: money(line.unitPrice),
      net: money(line.net),
      rate: percent(line.ratePercent),
      tax: money(line.tax),
      // The snapshot converted each line on its own, in the order of its lines.
      aed: snapshot.aed?.lines[i]
        ? { net: money(snapshot.aed.lines[i].net, 'AED'), tax: money(snapshot.aed.lines[i].tax, 'AED') }
        : null,
    })),
    totals: [
      [fill(l.totalNet, { tax: taxName }), money(snapshot.totals.net)],
      [fill(l.totalTax, { tax: taxName }), money(snapshot.totals.tax)],
      [l.totalGross, money(snapshot.totals.gross)],
    ],
    aed: snapshot.aed
      ? {
          heading: l.aedHeading,
          rows: [
            [fill(l.totalNet, { tax: taxName }), money(snapshot.aed.totals.net, 'AED')],
            [fill(l.totalTax, { tax: taxName }), money(snapshot.aed.totals.tax, 'AED')],
            [l.totalGross, money(snapshot.aed.totals.gross, 'AED')],
          ],
          rate: fill(l.aedRate, {
            rate: snapshot.aed.exchangeRate.rate,
            date: date(`${snapshot.aed.exchangeRate.date}T00:00:00Z`),
            source: snapshot.aed.exchangeRate.source,
          }),
          fixture: snapshot.aed.exchangeRate.fixture ? l.aedFixture : null,
        }
      : null,
    statement,
    currency: snapshot.aed ? l.currencyAed : l.currency,
  };
}
