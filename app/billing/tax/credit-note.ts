import type { AedFigures, InvoiceSnapshot } from './snapshot';

/**
 * A tax credit note's content, frozen when it is issued and stored with it (the engine's
 * billing_credit_notes.snapshot, which the database refuses to update). It credits one issued
 * tax invoice in full: the invoice's own snapshot is copied as it was, so the note shows the
 * supplier, client, lines, treatment and AED figures the invoice showed, whatever has changed
 * since. The page, the PDF and the PINT AE export all render from this shape; keep it stable
 * (a new shape gets a new `version`).
 *
 * What it carries answers Article 60(1) of the UAE VAT Executive Regulation (Cabinet Decision 52
 * of 2017) and regulation 12 of Singapore's GST (General) Regulations: the title, both parties
 * (from the invoice), the note's date and number, the invoice's number and date, the value shown
 * on the invoice, the corrected value (nil), the difference and its tax (in AED for a UAE
 * supplier, as the invoice had them), and the reason.
 */
export interface CreditNoteSnapshot {
  version: 1;
  /** The credit note's own number (CN-YYYY-NNNN, its own gapless sequence). */
  number: string;
  /** When it was issued (ISO 8601, UTC). */
  issuedAt: string;
  /** The operator's brief explanation of why (one line). */
  reason: string;
  /** The invoice it corrects: its number, its issue date, and its snapshot copied as it was. */
  invoice: {
    number: string;
    issuedAt: string;
    tax: IssuedInvoiceSnapshot;
  };
  /** What is credited, in SGD cents: the whole invoice (net, tax, gross). */
  credited: { net: number; tax: number; gross: number };
  /** The same in AED fils, as the invoice had them (a UAE supplier), else null. */
  aed: AedFigures | null;
}

export type IssuedInvoiceSnapshot = Extract<InvoiceSnapshot, { status: 'issued' }>;

/** The document's title: "Tax Credit Note" from a registered supplier, "Credit Note" otherwise. */
export function creditNoteTitle(snapshot: Pick<CreditNoteSnapshot, 'invoice'>): 'tax-credit-note' | 'credit-note' {
  return snapshot.invoice.tax.treatment.title === 'tax-invoice' ? 'tax-credit-note' : 'credit-note';
}

export const CREDIT_NOTE_PREFIX = 'CN';
export const REASON_MAX = 300;

export class CreditNoteError extends Error {
  constructor(
    /** bad_reason, not_found, not_tax_invoice (issued before tax invoices), waiting (no rate yet), already (credited before). */
    readonly code: 'bad_reason' | 'not_found' | 'not_tax_invoice' | 'waiting' | 'already',
    message: string,
  ) {
    super(message);
    this.name = 'CreditNoteError';
  }
}

/** The reason as stored: one line, trimmed, 3 to REASON_MAX characters (CreditNoteError otherwise). */
export function checkReason(reason: unknown): string {
  const text = typeof reason === 'string' ? reason.trim() : '';
  if (text.length < 3 || text.length > REASON_MAX || [...text].some((c) => c.charCodeAt(0) < 32 || c === '\u007f'))
    throw new CreditNoteError(
      'bad_reason',
      `the reason must be one line of 3 to ${REASON_MAX} characters (a brief explanation for the client and the auditor)`,
    );
  return text;
}

/**
 * The snapshot of a full credit of `invoice` (whose snapshot must be issued: a waiting invoice
 * has no AED figures to reverse yet, and one from before tax invoices has no tax content).
 */
export function buildCreditNote(input: {
  number: string;
  now: Date;
  reason: string;
  invoice: { number: string; tax: InvoiceSnapshot | null };
}): CreditNoteSnapshot {
  const tax = input.invoice.tax;
  if (!tax)
    throw new CreditNoteError(
      'not_tax_invoice',
      `invoice ${input.invoice.number} was issued before tax invoices: it has no tax content to credit`,
    );
  if (tax.status !== 'issued')
    throw new CreditNoteError(
      'waiting',
      `invoice ${input.invoice.number} waits for its exchange rate: record the rate (npm run rates -- add …) and run the jobs first`,
    );
  return {
    version: 1,
    number: input.number,
    issuedAt: input.now.toISOString(),
    reason: checkReason(input.reason),
    invoice: { number: input.invoice.number, issuedAt: tax.issuedAt, tax },
    credited: { ...tax.totals },
    aed: tax.aed,
  };
}
