import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document, Font, Page, StyleSheet, Text, View, renderToBuffer } from '@react-pdf/renderer';
import { placeName, type Locale } from '~/i18n';
import enLabels from '../../public/locales/en/emails.json';
import arLabels from '../../public/locales/ar/emails.json';
import { formatBillingAmount, formatBillingDate } from './format';
import { rtlLigaturesInReadingOrder } from './pdf-rtl-text.server';
import type { CreditNoteView } from './tax/credit-note-view';
import type { TaxInvoiceView } from './tax/view';
import type { InvoiceStatus, InvoiceView } from './types';

/**
 * The invoice as a PDF, in the client's language. Labels are the `invoice` section of
 * public/locales/{en,ar}/emails.json; everything else (plan name, firm, offices) arrives
 * localized from the caller. Arabic pages run right to left, with the Arabic face first and a
 * Latin face for names, addresses and numbers written in Latin script.
 */
export interface InvoiceDocument {
  locale: Locale;
  invoice: InvoiceView;
  /** The plan's name in this language, from the CMS. */
  planName: string;
  customer: { name: string; company: string | null; email: string };
  /** The firm's name, contact address and offices in this language, from the CMS site settings. */
  firm: { name: string; email: string | null; offices: { city: string; country?: string | null; address: string }[] };
  /**
   * The tax invoice as text (app/billing/tax/view.ts, from the invoice's snapshot): when present
   * the PDF is the tax invoice; absent (an invoice from before tax invoices), it renders exactly
   * as it always did.
   */
  tax?: TaxInvoiceView | null;
  labels?: never;
}

type InvoiceLabels = (typeof enLabels)['invoice'];
const labels: Record<Locale, InvoiceLabels> = { en: enLabels.invoice, ar: arLabels.invoice };

/**
 * The font files live in app/billing/fonts/ (see the README there). They are looked up next to
 * this module first (source tree, tests) and then under the working directory
 * (`process.cwd()/app/billing/fonts`: the built server runs from the repository root, and the
 * bundle's own folder has no fonts). INVOICE_FONTS_DIR overrides both.
 */
const FONT_FILES = [
  'NotoKufiArabic-Regular.ttf',
  'NotoKufiArabic-Bold.ttf',
  'NotoSans-Regular.ttf',
  'NotoSans-Bold.ttf',
] as const;

export function invoiceFontsDir(): string {
  const candidates: string[] = [];
  if (process.env.INVOICE_FONTS_DIR) candidates.push(process.env.INVOICE_FONTS_DIR);
  try {
    candidates.push(path.join(path.dirname(fileURLToPath(import.meta.url)), 'fonts'));
  } catch {
    // import.meta.url is not a file URL (for example inside some bundlers): use the working directory.
  }
  candidates.push(path.resolve(process.cwd(), 'app/billing/fonts'));
  const found = candidates.find((dir) => FONT_FILES.every((file) => existsSync(path.join(dir, file))));
  if (!found) throw new Error(`invoice PDF: font files not found (looked in ${candidates.join(', ')})`);
  return found;
}

const ARABIC = 'Noto Kufi Arabic';
const LATIN = 'Noto Sans';
let fontsRegistered = false;

function registerFonts() {
  if (fontsRegistered) return;
  const dir = invoiceFontsDir();
  Font.register({
    family: ARABIC,
    fonts: [
      { src: path.join(dir, 'NotoKufiArabic-Regular.ttf'), fontWeight: 'normal' },
      { src: path.join(dir, 'NotoKufiArabic-Bold.ttf'), fontWeight: 'bold' },
    ],
  });
  Font.register({
    family: LATIN,
    fonts: [
      { src: path.join(dir, 'NotoSans-Regular.ttf'), fontWeight: 'normal' },
      { src: path.join(dir, 'NotoSans-Bold.ttf'), fontWeight: 'bold' },
    ],
  });
  // Words are never split with hyphens (Arabic has none; invoice numbers and emails must stay whole).
  Font.registerHyphenationCallback((word) => [word]);
  fontsRegistered = true;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, key: string) => values[key] ?? '');
}

const NAVY = '#0f2a44';
const MUTED = '#33597f';
const GOLD = '#a8861a';
const RULE = '#d6e2ee';

function stylesFor(locale: Locale) {
  const rtl = locale === 'ar';
  const start = rtl ? 'right' : 'left';
  const end = rtl ? 'left' : 'right';
  // react-pdf does not inherit `direction` into text, and its flex rows do not mirror: every
  // text states its own direction (so bidi runs and punctuation land right), and every row is
  // reversed in Arabic.
  const direction = rtl ? 'rtl' : 'ltr';
  const row = rtl ? 'row-reverse' : 'row';
  const text = { direction, textAlign: start } as const;
  return StyleSheet.create({
    page: {
      direction,
      fontFamily: rtl ? [ARABIC, LATIN] : [LATIN, ARABIC],
      fontSize: 10,
      lineHeight: rtl ? 1.6 : 1.45,
      color: NAVY,
      paddingTop: 44,
      paddingBottom: 72,
      paddingHorizontal: 48,
    },
    text,
    header: {
      flexDirection: row,
      justifyContent: 'space-between',
      alignItems: 'flex-start',
      borderBottomWidth: 2,
      borderBottomColor: GOLD,
      paddingBottom: 16,
    },
    firmBlock: { width: '60%' },
    firmName: { ...text, fontSize: 16, lineHeight: 1.4, fontWeight: 'bold', marginBottom: 4 },
    office: { ...text, fontSize: 8.5, color: MUTED, marginTop: 2 },
    officeCity: { fontWeight: 'bold', color: NAVY },
    titleBlock: { width: '36%' },
    title: { ...text, textAlign: end, fontSize: 24, lineHeight: 1.3, fontWeight: 'bold', color: NAVY },
    titleNumber: { ...text, textAlign: end, fontSize: 11, color: MUTED, marginTop: 2 },
    columns: { flexDirection: row, justifyContent: 'space-between', marginTop: 22 },
    billedTo: { width: '38%' },
    meta: { width: '58%' },
    heading: { ...text, fontSize: 8.5, fontWeight: 'bold', color: GOLD, textTransform: 'uppercase', marginBottom: 4 },
    strong: { ...text, fontWeight: 'bold' },
    metaRow: {
      flexDirection: row,
      justifyContent: 'space-between',
      borderBottomWidth: 0.5,
      borderBottomColor: RULE,
      paddingVertical: 3,
    },
    metaLabel: { ...text, width: '30%', color: MUTED },
    metaValue: { ...text, width: '70%', textAlign: end, fontWeight: 'bold' },
    table: { marginTop: 28 },
    tableHead: { flexDirection: row, backgroundColor: '#eef3f8', paddingVertical: 5, paddingHorizontal: 8 },
    tableRow: {
      flexDirection: row,
      paddingVertical: 8,
      paddingHorizontal: 8,
      borderBottomWidth: 0.5,
      borderBottomColor: RULE,
    },
    totalRow: {
      flexDirection: row,
      alignItems: 'center',
      paddingVertical: 8,
      paddingHorizontal: 8,
      borderTopWidth: 1.5,
      borderTopColor: NAVY,
      marginTop: 6,
    },
    cellDescription: { width: '70%' },
    cellAmount: { width: '30%' },
    headCell: { ...text, fontSize: 8.5, fontWeight: 'bold', color: MUTED },
    startText: text,
    endText: { ...text, textAlign: end },
    small: { ...text, fontSize: 8.5, color: MUTED },
    total: { ...text, fontSize: 13, lineHeight: 1.4, fontWeight: 'bold' },
    note: { ...text, marginTop: 14, fontSize: 8.5, color: MUTED },
    footer: {
      position: 'absolute',
      bottom: 32,
      left: 48,
      right: 48,
      borderTopWidth: 0.5,
      borderTopColor: RULE,
      paddingTop: 8,
    },
    footerText: { ...text, fontSize: 8.5, color: MUTED, textAlign: 'center' },
  });
}

/** The thanks and contact line at the foot of every page, in both layouts. */
function PageFooter({
  firm,
  l,
  s,
}: {
  firm: InvoiceDocument['firm'];
  l: (typeof labels)[Locale];
  s: ReturnType<typeof stylesFor>;
}) {
  return (
    <View style={s.footer} fixed>
      <Text style={s.footerText}>{fill(l.footer, { firm: firm.name })}</Text>
      {firm.email ? <Text style={s.footerText}>{fill(l.contact, { email: firm.email })}</Text> : null}
    </View>
  );
}

/** The label-value rows beside the billed-to block (number, dates, status), in both layouts. */
function MetaRows({ rows, s }: { rows: readonly (readonly [string, string])[]; s: ReturnType<typeof stylesFor> }) {
  return (
    <View style={s.meta}>
      {rows.map(([label, value]) => (
        <View key={label} style={s.metaRow}>
          <Text style={s.metaLabel}>{label}</Text>
          <Text style={s.metaValue}>{value}</Text>
        </View>
      ))}
    </View>
  );
}

function InvoicePdf({ doc }: { doc: InvoiceDocument }) {
  const { locale, invoice, customer, firm } = doc;
  const l = labels[locale];
  const s = stylesFor(locale);
  const date = (iso: string) => formatBillingDate(iso, locale);
  const amount = formatBillingAmount(invoice.amount, locale);
  const period = fill(l.periodValue, { start: date(invoice.periodStart), end: date(invoice.periodEnd) });
  const status = (l.statuses as Record<InvoiceStatus, string>)[invoice.status] ?? invoice.status;
  const meta: [string, string][] = [
    [l.number, invoice.number],
    [l.issued, date(invoice.created)],
    [l.period, period],
    [l.status, status],
  ];
  return (
    <Document
      title={fill(l.documentTitle, { number: invoice.number })}
      author={firm.name}
      language={locale}
      creator={firm.name}
      producer={firm.name}
    >
      <Page size="A4" style={s.page}>
        <View style={s.header}>
          <View style={s.firmBlock}>
            <Text style={s.firmName}>{firm.name}</Text>
            {firm.offices.map((office, i) => (
              <Text key={i} style={s.office}>
                <Text style={s.officeCity}>{placeName(office.city, office.country, locale)}</Text>
                {office.address ? `: ${office.address}` : ''}
              </Text>
            ))}
          </View>
          <View style={s.titleBlock}>
            <Text style={s.title}>{l.title}</Text>
            <Text style={s.titleNumber}>{invoice.number}</Text>
          </View>
        </View>

        <View style={s.columns}>
          <View style={s.billedTo}>
            <Text style={s.heading}>{l.billedTo}</Text>
            <Text style={s.strong}>{customer.name}</Text>
            {customer.company ? <Text style={s.text}>{customer.company}</Text> : null}
            <Text style={s.text}>{customer.email}</Text>
          </View>
          <MetaRows rows={meta} s={s} />
        </View>

        <View style={s.table}>
          <View style={s.tableHead}>
            <Text style={[s.cellDescription, s.headCell, s.startText]}>{l.description}</Text>
            <Text style={[s.cellAmount, s.headCell, s.endText]}>{l.amount}</Text>
          </View>
          <View style={s.tableRow} wrap={false}>
            <View style={s.cellDescription}>
              <Text style={[s.strong]}>{fill(l.line, { plan: doc.planName })}</Text>
              <Text style={[s.small, s.startText]}>{period}</Text>
            </View>
            <Text style={[s.cellAmount, s.endText]}>{amount}</Text>
          </View>
          <View style={s.totalRow} wrap={false}>
            <Text style={[s.cellDescription, s.total, s.startText]}>{l.total}</Text>
            <Text style={[s.cellAmount, s.total, s.endText]}>{amount}</Text>
          </View>
          <Text style={s.note}>{l.currency}</Text>
        </View>

        <PageFooter firm={firm} l={l} s={s} />
      </Page>
    </Document>
  );
}

/** A tax invoice (snapshot version 1): the same page and styles, with the fields of Art. 59 / IRAS. */
function TaxInvoicePdf({ doc, tax }: { doc: InvoiceDocument; tax: TaxInvoiceView }) {
  const { locale, firm } = doc;
  const l = labels[locale];
  const s = stylesFor(locale);
  const t = taxStylesFor(locale);
  return (
    <Document
      title={tax.documentTitle}
      author={tax.supplier.name}
      language={locale}
      creator={firm.name}
      producer={firm.name}
    >
      <Page size="A4" style={s.page}>
        <TaxPdfHeader supplier={tax.supplier} title={tax.title} number={doc.invoice.number} s={s} t={t} />
        {tax.demo ? <Text style={t.banner}>{tax.demo}</Text> : null}
        {tax.waiting ? <Text style={t.banner}>{tax.waiting}</Text> : null}

        <TaxPdfParties customer={tax.customer} meta={tax.meta} s={s} t={t} />

        <View style={s.table}>
          <TaxPdfLines columns={tax.columns} lines={tax.lines} s={s} t={t} />
          {tax.totals.map(([label, value], i) => (
            <View key={label} style={i === tax.totals.length - 1 ? s.totalRow : t.subtotalRow} wrap={false}>
              <Text style={[t.totalLabel, i === tax.totals.length - 1 ? s.total : s.startText]}>{label}</Text>
              <Text style={[t.totalValue, i === tax.totals.length - 1 ? s.total : s.endText, s.endText]}>{value}</Text>
            </View>
          ))}
          {tax.aed ? (
            <View style={t.aed} wrap={false}>
              <Text style={s.heading}>{tax.aed.heading}</Text>
              {tax.aed.rows.map(([label, value]) => (
                <View key={label} style={t.subtotalRow}>
                  <Text style={[t.totalLabel, s.startText]}>{label}</Text>
                  <Text style={[t.totalValue, s.strong, s.endText]}>{value}</Text>
                </View>
              ))}
              <Text style={[s.note, t.tightNote]}>{tax.aed.rate}</Text>
              {tax.aed.fixture ? <Text style={s.small}>{tax.aed.fixture}</Text> : null}
            </View>
          ) : null}
          {tax.statement ? <Text style={[s.note, s.strong, t.tightNote]}>{tax.statement}</Text> : null}
          <Text style={[s.note, t.tightNote]}>{tax.currency}</Text>
        </View>

        <PageFooter firm={firm} l={l} s={s} />
      </Page>
    </Document>
  );
}

/**
 * A tax credit note (app/billing/tax/credit-note-view.ts, from its snapshot): the tax layout's
 * header, parties and lines, then the reason and the adjustment (value on the invoice, correct
 * value, difference, its tax, total credited), in SGD and, for a UAE supplier, in AED.
 */
function CreditNotePdf({ doc }: { doc: CreditNoteDocument }) {
  const { locale, firm, note } = doc;
  const l = labels[locale];
  const s = stylesFor(locale);
  const t = taxStylesFor(locale);
  const twoCurrencies = note.adjustment.currencies[1] !== null;
  const labelCol = { width: twoCurrencies ? '52%' : '70%' };
  const moneyCol = { width: twoCurrencies ? '24%' : '30%' };
  const last = note.adjustment.rows.length - 1;
  return (
    <Document
      title={note.documentTitle}
      author={note.supplier.name}
      language={locale}
      creator={firm.name}
      producer={firm.name}
    >
      <Page size="A4" style={s.page}>
        {/* Smaller than an invoice's: "إشعار دائن ضريبي" stays on one line. */}
        <TaxPdfHeader supplier={note.supplier} title={note.title} number={note.number} titleSize={18} s={s} t={t} />
        {note.demo ? <Text style={t.banner}>{note.demo}</Text> : null}

        <TaxPdfParties customer={note.customer} meta={note.meta} s={s} t={t} />
        <Text style={[s.note, s.strong, t.tightNote]}>{note.fullCredit}</Text>
        <Text style={[s.note, t.tightNote]}>
          {note.reason[0]}: {note.reason[1]}
        </Text>

        <View style={s.table}>
          <TaxPdfLines columns={note.columns} lines={note.lines} s={s} t={t} />
          <View style={t.subtotalRow}>
            <Text style={[labelCol, s.heading, s.startText]}>{note.adjustment.heading}</Text>
            {note.adjustment.currencies.map((c) =>
              c ? (
                <Text key={c} style={[moneyCol, s.heading, s.endText]}>
                  {c}
                </Text>
              ) : null,
            )}
          </View>
          {note.adjustment.rows.map(([label, sgd, aed], i) => (
            <View key={label} style={i === last ? s.totalRow : t.subtotalRow} wrap={false}>
              <Text style={[labelCol, i === last ? s.total : s.startText, s.startText]}>{label}</Text>
              {[sgd, aed].map((value, j) =>
                value ? (
                  <Text key={j} style={[moneyCol, i === last ? s.total : s.endText, s.endText]}>
                    {value}
                  </Text>
                ) : null,
              )}
            </View>
          ))}
          {note.aed ? (
            <View wrap={false}>
              <Text style={[s.note, t.tightNote]}>{note.aed.rate}</Text>
              {note.aed.fixture ? <Text style={s.small}>{note.aed.fixture}</Text> : null}
            </View>
          ) : null}
          {note.statement ? <Text style={[s.note, s.strong, t.tightNote]}>{note.statement}</Text> : null}
          <Text style={[s.note, t.tightNote]}>{note.currency}</Text>
        </View>

        <PageFooter firm={firm} l={l} s={s} />
      </Page>
    </Document>
  );
}

type PdfStyles = ReturnType<typeof stylesFor>;
type TaxPdfStyles = ReturnType<typeof taxStylesFor>;
type TaxParty = TaxInvoiceView['supplier'];

/** A tax document's header: the supplier (name, address, registration number) and its title and number. */
function TaxPdfHeader(props: {
  supplier: TaxParty;
  title: string;
  number: string;
  titleSize?: number;
  s: PdfStyles;
  t: TaxPdfStyles;
}) {
  const { supplier, s, t } = props;
  return (
    <View style={s.header}>
      <View style={s.firmBlock}>
        <Text style={s.firmName}>{supplier.name}</Text>
        {supplier.lines.map((line, i) => (
          <Text key={i} style={s.office}>
            {line}
          </Text>
        ))}
        {supplier.registration ? (
          <Text style={[s.office, s.officeCity]}>
            {supplier.registration.label}: <Text style={t.number}>{supplier.registration.value}</Text>
          </Text>
        ) : null}
      </View>
      <View style={s.titleBlock}>
        <Text style={props.titleSize ? [s.title, { fontSize: props.titleSize }] : s.title}>{props.title}</Text>
        <Text style={s.titleNumber}>{props.number}</Text>
      </View>
    </View>
  );
}

/** The customer's column (name, address, registration number) beside the document's facts. */
function TaxPdfParties({
  customer,
  meta,
  s,
  t,
}: {
  customer: TaxParty;
  meta: [string, string][];
  s: PdfStyles;
  t: TaxPdfStyles;
}) {
  return (
    <View style={s.columns}>
      <View style={s.billedTo}>
        <Text style={s.heading}>{customer.heading}</Text>
        <Text style={s.strong}>{customer.name}</Text>
        {customer.lines.map((line, i) => (
          <Text key={i} style={s.text}>
            {line}
          </Text>
        ))}
        {customer.registration ? (
          <>
            <Text style={s.strong}>{customer.registration.label}</Text>
            <Text style={[s.strong, t.number]}>{customer.registration.value}</Text>
          </>
        ) : null}
      </View>
      <MetaRows rows={meta} s={s} />
    </View>
  );
}

/** The lines' head and rows (net and tax in AED under the SGD figures), inside the document's table. */
function TaxPdfLines({
  columns,
  lines,
  s,
  t,
}: Pick<TaxInvoiceView, 'columns' | 'lines'> & { s: PdfStyles; t: TaxPdfStyles }) {
  const cols = [t.colDescription, t.colQuantity, t.colMoney, t.colMoney, t.colRate, t.colMoney];
  const head = [columns.description, columns.quantity, columns.unitPrice, columns.net, columns.rate, columns.tax];
  return (
    <>
      <View style={s.tableHead}>
        {head.map((label, i) => (
          <Text key={i} style={[cols[i], s.headCell, i === 0 ? s.startText : s.endText]}>
            {label}
          </Text>
        ))}
      </View>
      {lines.map((line, n) => (
        <View key={n} style={s.tableRow} wrap={false}>
          <View style={t.colDescription}>
            <Text style={s.strong}>{line.description}</Text>
            <Text style={[s.small, s.startText]}>{line.period}</Text>
          </View>
          {[line.quantity, line.unitPrice, line.net, line.rate, line.tax].map((value, i) =>
            // The net and the tax of the line in AED too, under the SGD figure (no extra row: the
            // description cell is two lines high already).
            line.aed && (i === 2 || i === 4) ? (
              <View key={i} style={cols[i + 1]}>
                <Text style={s.endText}>{value}</Text>
                <Text style={[s.small, s.endText]}>{i === 2 ? line.aed.net : line.aed.tax}</Text>
              </View>
            ) : (
              <Text key={i} style={[cols[i + 1], s.endText]}>
                {value}
              </Text>
            ),
          )}
        </View>
      ))}
    </>
  );
}

function taxStylesFor(locale: Locale) {
  const rtl = locale === 'ar';
  const row = rtl ? 'row-reverse' : 'row';
  const text = { direction: rtl ? 'rtl' : 'ltr', textAlign: rtl ? 'right' : 'left' } as const;
  return StyleSheet.create({
    banner: {
      ...text,
      marginTop: 8,
      padding: 8,
      fontSize: 9,
      fontWeight: 'bold',
      color: '#7a4b00',
      backgroundColor: '#fdf3dc',
    },
    colDescription: { width: '34%' },
    colQuantity: { width: '8%' },
    colMoney: { width: '15.5%' },
    colRate: { width: '11.5%' },
    subtotalRow: { flexDirection: row, paddingVertical: 3, paddingHorizontal: 8 },
    totalLabel: { width: '70%' },
    totalValue: { width: '30%' },
    aed: { marginTop: 10, padding: 8, borderWidth: 0.5, borderColor: RULE },
    // The tax layout's notes sit closer than the old layout's, so a demo or zero-rated invoice (a
    // banner, a statement, a fixture rate's line) still fits one A4 page in Arabic.
    tightNote: { marginTop: 6 },
    // A registration number is one left-to-right run, never split across lines.
    number: { direction: 'ltr', fontFamily: LATIN },
  });
}

export async function renderInvoicePdf(doc: InvoiceDocument): Promise<Buffer> {
  registerFonts();
  const pdf = await renderToBuffer(doc.tax ? <TaxInvoicePdf doc={doc} tax={doc.tax} /> : <InvoicePdf doc={doc} />);
  // Arabic ligatures (لا in للاستشارات) would extract with their letters swapped: see the module.
  // Both languages: an English invoice may still carry a client's name written in Arabic.
  return rtlLigaturesInReadingOrder(pdf);
}

/** A tax credit note as a PDF in the client's language (the same fonts and Arabic handling as invoices). */
export interface CreditNoteDocument {
  locale: Locale;
  firm: InvoiceDocument['firm'];
  note: CreditNoteView;
}

export async function renderCreditNotePdf(doc: CreditNoteDocument): Promise<Buffer> {
  registerFonts();
  return rtlLigaturesInReadingOrder(await renderToBuffer(<CreditNotePdf doc={doc} />));
}
