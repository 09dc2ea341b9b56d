import { and, asc, eq, gt, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import { faqQuestions, newsletterSignups } from '~/db/schema.server';
import type { Db } from '~/db/types.server';

/**
 * Staff list and export the forms' submissions from the firm's own database (never the CMS):
 * `npm run submissions -- --since 2026-11-01 [--until 2026-12-01] [--kind faq|newsletter] [--csv]`
 * (scripts/submissions.ts). Read a page at a time, oldest first, so any number of rows is
 * written with bounded memory. Newsletter sign-ups are listed only once the address confirmed
 * (double opt-in, app/features/newsletter/), each with when it was confirmed and the version of
 * the wording the person agreed to (`submitted_at` and `locale`: when and in which language).
 */
export type SubmissionKind = 'faq' | 'newsletter';

export type SubmissionRow = {
  kind: SubmissionKind;
  submittedAt: Date;
  email: string;
  name: string;
  phone: string;
  locale: string;
  page: string;
  question: string;
  id: string;
  /** Newsletter: when the address confirmed (null for FAQ questions). */
  confirmedAt: Date | null;
  /** Newsletter: the version of the sign-up wording agreed to ('' for FAQ questions). */
  wordingVersion: string;
};

export type ListOptions = { since: Date; until?: Date; kinds: SubmissionKind[]; pageSize?: number };

/** Every submission in the period, oldest first (by time, then id), a page at a time. */
export async function* listSubmissions(db: Db, options: ListOptions): AsyncGenerator<SubmissionRow> {
  const pageSize = options.pageSize ?? 500;
  for (const kind of ['faq', 'newsletter'] as const) {
    if (!options.kinds.includes(kind)) continue;
    const table = kind === 'faq' ? faqQuestions : newsletterSignups;
    let after: { at: Date; id: string } | null = null;
    for (;;) {
      const conditions: (SQL | undefined)[] = [gte(table.submittedAt, options.since)];
      // A sign-up never confirmed is never exported (pending, or unsubscribed).
      if (kind === 'newsletter') conditions.push(eq(newsletterSignups.status, 'confirmed'));
      if (options.until) conditions.push(lt(table.submittedAt, options.until));
      if (after)
        conditions.push(
          or(gt(table.submittedAt, after.at), and(sql`${table.submittedAt} = ${after.at}`, gt(table.id, after.id))),
        );
      const where = and(...conditions);
      const page: SubmissionRow[] =
        kind === 'faq'
          ? (
              await db
                .select()
                .from(faqQuestions)
                .where(where)
                .orderBy(asc(faqQuestions.submittedAt), asc(faqQuestions.id))
                .limit(pageSize)
            ).map((r) => ({ kind, ...r, confirmedAt: null, wordingVersion: '' }))
          : (
              await db
                .select()
                .from(newsletterSignups)
                .where(where)
                .orderBy(asc(newsletterSignups.submittedAt), asc(newsletterSignups.id))
                .limit(pageSize)
            ).map((r) => ({
              kind,
              id: r.id,
              submittedAt: r.submittedAt,
              email: r.email,
              name: '',
              phone: '',
              locale: r.locale,
              page: r.page,
              question: '',
              confirmedAt: r.confirmedAt,
              wordingVersion: r.consentVersion ?? '',
            }));
      yield* page;
      if (page.length < pageSize) break;
      const last = page[page.length - 1]!;
      after = { at: last.submittedAt, id: last.id };
    }
  }
}

export const CSV_COLUMNS = [
  'kind',
  'submitted_at',
  'name',
  'email',
  'phone',
  'locale',
  'page',
  'question',
  'id',
  'confirmed_at',
  'wording_version',
] as const;

/**
 * One CSV cell (RFC 4180). A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR at
 * its start: text typed by a visitor) gets a leading apostrophe, so it is shown, not run.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(row: SubmissionRow): string {
  const cells = [
    row.kind,
    row.submittedAt.toISOString(),
    row.name,
    row.email,
    row.phone,
    row.locale,
    row.page,
    row.question,
    row.id,
    row.confirmedAt?.toISOString() ?? '',
    row.wordingVersion,
  ];
  return cells.map(csvCell).join(',') + '\r\n';
}

export const csvHeader = () => CSV_COLUMNS.join(',') + '\r\n';

/** A submission as text for a terminal: one line, then the question indented. */
export function textBlock(row: SubmissionRow): string {
  const when = row.submittedAt.toISOString().slice(0, 16).replace('T', ' ');
  const who =
    row.kind === 'faq'
      ? `${row.name} <${row.email}> ${row.phone}`
      : `${row.email} (confirmed ${row.confirmedAt?.toISOString().slice(0, 16).replace('T', ' ') ?? '?'} UTC, wording ${row.wordingVersion || '?'})`;
  const head = `${when} UTC  ${row.kind === 'faq' ? 'FAQ       ' : 'newsletter'}  ${who}  (${row.locale}, ${row.page})`;
  if (!row.question) return head + '\n';
  return (
    head +
    '\n' +
    row.question
      .split(/\r?\n/)
      .map((l) => `    ${l}`)
      .join('\n') +
    '\n\n'
  );
}
