import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, asc, gte, isNotNull, lt } from 'drizzle-orm';
import { billingCreditNotes, billingInvoices } from '~/db/schema.server';
import type { Db } from '~/db/types.server';
import { eInvoiceEligibility, eInvoiceFilename, pintAeCreditNote, pintAeInvoice } from './pint-ae.server';

/**
 * The operator's export of PINT AE e-invoices for the firm's Accredited Service Provider
 * (docs/accounting.md, "E-invoices"): each eligible invoice and tax credit note issued in a date
 * range written to a folder as <number>.xml (a credit note is eligible when its invoice was). Bounded (at most `limit` documents a run) and idempotent: a document
 * already in the folder with the same content is left alone, and one with other content is never
 * overwritten (an issued document does not change; a difference is reported for a person to look at).
 */
export const EINVOICE_USAGE =
  'usage: npm run einvoice -- export --from YYYY-MM-DD --to YYYY-MM-DD --out <folder> [--limit N (1-5000, default 500)]';
export const MAX_EXPORT = 5000;

export interface ExportResult {
  written: string[];
  unchanged: string[];
  /** Documents in the range with no e-invoice, and why (waiting for a rate, not a business client…). */
  skipped: { number: string; reason: string }[];
  /** Files in the folder whose content differs from the document: left as they were. */
  conflicts: string[];
  /** Documents in the range beyond the limit, not looked at this run. */
  more: boolean;
}

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

function parseDay(value: string | undefined): Date | null {
  if (!value || !DAY_RE.test(value)) return null;
  const d = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value ? null : d;
}

export async function exportEInvoices(
  db: Db,
  opts: { from: Date; to: Date; outDir: string; limit: number },
): Promise<ExportResult> {
  const end = new Date(opts.to.getTime() + 86_400_000);
  const invoices = await db
    .select({ number: billingInvoices.number, tax: billingInvoices.tax })
    .from(billingInvoices)
    .where(
      and(
        isNotNull(billingInvoices.tax),
        gte(billingInvoices.createdAt, opts.from),
        lt(billingInvoices.createdAt, end),
      ),
    )
    .orderBy(asc(billingInvoices.sequence))
    .limit(opts.limit + 1);
  const notes = await db
    .select({ number: billingCreditNotes.number, snapshot: billingCreditNotes.snapshot })
    .from(billingCreditNotes)
    .where(and(gte(billingCreditNotes.createdAt, opts.from), lt(billingCreditNotes.createdAt, end)))
    .orderBy(asc(billingCreditNotes.sequence))
    .limit(opts.limit + 1);
  // Invoices first, then the credit notes of the same range: each a number and how to render it.
  const documents = [
    ...invoices.map((row) => ({
      number: row.number,
      eligible: eInvoiceEligibility(row.tax),
      render: () => pintAeInvoice({ number: row.number, snapshot: row.tax! }),
    })),
    ...notes.map((row) => ({
      number: row.number,
      eligible: eInvoiceEligibility(row.snapshot.invoice.tax),
      render: () => pintAeCreditNote(row.snapshot),
    })),
  ];
  const result: ExportResult = {
    written: [],
    unchanged: [],
    skipped: [],
    conflicts: [],
    more: documents.length > opts.limit,
  };
  await mkdir(opts.outDir, { recursive: true });
  for (const row of documents.slice(0, opts.limit)) {
    if (!row.eligible.ok) {
      result.skipped.push({ number: row.number, reason: row.eligible.reason });
      continue;
    }
    const xml = row.render();
    const file = path.join(opts.outDir, eInvoiceFilename(row.number));
    const existing = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return null;
      throw e;
    });
    if (existing === xml) {
      result.unchanged.push(row.number);
      continue;
    }
    if (existing !== null) {
      result.conflicts.push(row.number);
      continue;
    }
    // Written whole or not at all: a provider's pickup never sees half a document.
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(tmp, xml, { encoding: 'utf8', flag: 'wx' });
      await rename(tmp, file);
    } finally {
      await rm(tmp, { force: true });
    }
    result.written.push(row.number);
  }
  return result;
}

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

/** `export --from … --to … --out … [--limit N]`: exit 0 done, 1 a conflict, 2 bad arguments. */
export async function einvoiceCommand(db: Db, args: string[]): Promise<{ code: number; out: string }> {
  const [verb, ...rest] = args;
  if (verb !== 'export') return { code: 2, out: `${EINVOICE_USAGE}\n` };
  const from = parseDay(flag(rest, '--from'));
  const to = parseDay(flag(rest, '--to'));
  const outDir = flag(rest, '--out');
  const limitText = flag(rest, '--limit') ?? '500';
  const limit = /^\d{1,4}$/.test(limitText) ? Number(limitText) : NaN;
  if (!from || !to || !outDir || outDir.startsWith('--'))
    return { code: 2, out: `einvoice: --from, --to (YYYY-MM-DD) and --out are required\n${EINVOICE_USAGE}\n` };
  if (to < from) return { code: 2, out: 'einvoice: --to is before --from\n' };
  if (!(limit >= 1 && limit <= MAX_EXPORT)) return { code: 2, out: `einvoice: --limit is 1 to ${MAX_EXPORT}\n` };
  const r = await exportEInvoices(db, { from, to, outDir: path.resolve(outDir), limit });
  const lines = [
    `written: ${r.written.length}${r.written.length ? `  (${r.written.join(', ')})` : ''}`,
    `unchanged: ${r.unchanged.length}`,
    `skipped: ${r.skipped.length}${r.skipped.length ? `  (${r.skipped.map((s) => `${s.number}: ${s.reason}`).join(', ')})` : ''}`,
  ];
  if (r.conflicts.length)
    lines.push(`CONFLICT, left as they were: ${r.conflicts.join(', ')} (a file of that name holds another document)`);
  if (r.more) lines.push(`more documents in the range than --limit ${limit}: run again with a later --from`);
  return { code: r.conflicts.length ? 1 : 0, out: `${lines.join('\n')}\n` };
}
