import { Link, useLocation, useRevalidator } from '@remix-run/react';
import { Fragment, useId } from 'react';
import type { InvoiceRow, SubscriptionPageData } from '~/portal/service.server';
import { Bidi } from '~/components/marketing/Bidi';
import { useT } from '~/lib/locale';
import { InvoiceStatusBadge } from './SubscriptionSummary';
import { useFormatDate } from './shared';
import { button } from '~/components/marketing/ui';

/** The query parameter that carries the billing history's page cursor. */
export const INVOICE_CURSOR_PARAM = 'invoices';

/** The billing-history table's columns, in order (their headings are portal.json's invoices.columns.*). */
const COLUMNS = ['invoice', 'date', 'amount', 'status', 'actions'] as const;

/**
 * Billing history: Invoice, Date, Amount, Status, Actions (View invoice, Download PDF), newest
 * first, a page at a time. From md (768 px) a table, inside a labelled region that scrolls
 * sideways if it must and can be focused and scrolled with the keyboard; below md the same table
 * shows each invoice as a stacked block (number, date, amount, status with their labels, then the
 * two links), so nothing needs a sideways swipe on a phone, in either direction. When the invoices
 * could not be read, an error with a retry; the rest of the page keeps working.
 */
export function BillingHistory({ invoices }: { invoices: SubscriptionPageData['invoices'] }) {
  const { t } = useT('portal');
  const uid = useId();
  const titleId = `${uid}-title`;
  return (
    <section
      id="billing-history"
      aria-labelledby={titleId}
      data-testid="billing-history"
      className="min-w-0 scroll-mt-4"
    >
      <h2 id={titleId} className="text-2xl font-bold text-navy-900">
        {t('invoices.title')}
      </h2>
      {invoices.status === 'error' ? (
        <InvoicesError />
      ) : invoices.rows.length === 0 && invoices.page === 1 ? (
        <p
          className="mt-4 rounded-xl border border-dashed border-navy-200 bg-sand-50 p-5 text-navy-700"
          data-testid="invoices-empty"
        >
          {t('invoices.empty')}
        </p>
      ) : (
        <>
          <InvoiceTable rows={invoices.rows} />
          <Pagination page={invoices.page} prevCursor={invoices.prevCursor} nextCursor={invoices.nextCursor} />
        </>
      )}
    </section>
  );
}

function InvoicesError() {
  const { t } = useT('portal');
  const location = useLocation();
  const revalidator = useRevalidator();
  const busy = revalidator.state === 'loading';
  // Without JavaScript the link must load the page again. A link to the current address that
  // differs only in its fragment would just scroll, so each retry counts up a `retry` parameter
  // (which no loader reads) and the address is always a new one.
  const params = new URLSearchParams(location.search);
  params.set('retry', String((Number(params.get('retry')) || 0) + 1));
  return (
    <div
      role="alert"
      data-testid="invoices-error"
      className="mt-4 flex flex-wrap items-center justify-between gap-4 rounded-xl border border-red-300 bg-red-50 p-5 text-red-800"
    >
      <p className="font-medium">{t('invoices.error')}</p>
      {/* Without JavaScript the page loads again; with it, the loaders run again in place. */}
      <a
        href={`${location.pathname}?${params}#billing-history`}
        onClick={(event) => {
          event.preventDefault();
          if (!busy) revalidator.revalidate();
        }}
        aria-disabled={busy || undefined}
        data-testid="invoices-retry"
        className={`${button.outline} min-h-11 aria-disabled:opacity-70`}
      >
        {t('invoices.retry')}
      </a>
    </div>
  );
}

/**
 * A value's column name above it in the stacked rows of a phone. Not hidden from screen readers:
 * a browser may drop a table's semantics once its cells are displayed as blocks (explicit ARIA
 * roles on table elements, which would keep them, are invalid HTML), and then this label is what
 * names the value. From md it is not displayed and the column header names the cell.
 */
function CellLabel({ text }: { text: string }) {
  return <span className="mb-1 block text-xs font-semibold text-navy-600 md:hidden">{text}</span>;
}

function InvoiceTable({ rows }: { rows: InvoiceRow[] }) {
  const { t } = useT('portal');
  const date = useFormatDate();
  const uid = useId();
  const captionId = `${uid}-caption`;
  const th = 'px-4 py-3 text-start text-sm font-semibold text-navy-800 whitespace-nowrap';
  // From md a table row; below it each invoice is a stacked block (see BillingHistory) whose
  // values carry visible labels (CellLabel), which also name them where a browser drops the
  // table's semantics for the stacked display; the column headers stay in the document, visually hidden.
  const td = 'block min-w-0 md:table-cell md:px-4 md:py-3 md:align-middle md:whitespace-nowrap';
  const action =
    'inline-flex min-h-11 items-center rounded-lg px-2 font-semibold text-navy-900 underline decoration-gold-500 decoration-2 underline-offset-4 hover:bg-sand-50';
  return (
    <div
      role="region"
      aria-labelledby={captionId}
      tabIndex={0}
      data-testid="invoices-scroll"
      className="relative mt-4 rounded-2xl border border-navy-100 bg-white shadow-sm md:overflow-x-auto"
    >
      <table
        className="block w-full border-collapse text-navy-900 md:table md:min-w-[40rem]"
        data-testid="invoices-table"
      >
        <caption id={captionId} className="sr-only">
          {t('invoices.tableLabel')}
        </caption>
        <thead className="sr-only md:not-sr-only md:bg-sand-50">
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col" className={th}>
                {t(`invoices.columns.${column}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="block md:table-row-group">
          {rows.map((row) => (
            <Fragment key={row.id}>
              <tr
                data-testid="invoice-row"
                className="grid grid-cols-2 gap-x-4 gap-y-3 border-t border-navy-100 p-4 first:border-t-0 md:table-row md:p-0 md:first:border-t"
              >
                <th scope="row" className={`${td} text-start font-semibold`}>
                  <CellLabel text={t('invoices.columns.invoice')} />
                  <bdi dir="ltr">{row.number}</bdi>
                </th>
                <td className={td}>
                  <CellLabel text={t('invoices.columns.date')} />
                  {date(row.created)}
                </td>
                <td className={`${td} tabular-nums`}>
                  <CellLabel text={t('invoices.columns.amount')} />
                  <Bidi>{row.amount}</Bidi>
                </td>
                <td className={td}>
                  <CellLabel text={t('invoices.columns.status')} />
                  <InvoiceStatusBadge status={row.status} />
                </td>
                <td className={`${td} col-span-2`}>
                  <div className="-mx-2 flex flex-wrap gap-x-2 md:mx-0 md:flex-nowrap">
                    <a href={row.viewUrl} className={action} data-testid="invoice-view">
                      {t('invoices.view')}
                      <span className="sr-only">, {t('invoices.invoiceNumber', { number: row.number })}</span>
                    </a>
                    <a href={row.pdfUrl} download className={action} data-testid="invoice-pdf">
                      {t('invoices.download')}
                      <span className="sr-only">, {t('invoices.invoiceNumber', { number: row.number })}</span>
                    </a>
                  </div>
                </td>
              </tr>
              {/* A credit note sits right under the invoice it corrects. */}
              {row.creditNotes.map((note) => (
                <tr
                  key={note.id}
                  data-testid="credit-note-row"
                  className="grid grid-cols-2 gap-x-4 gap-y-3 border-t border-dashed border-navy-100 bg-sand-50 p-4 md:table-row md:p-0"
                >
                  <th scope="row" className={`${td} text-start font-semibold`}>
                    <CellLabel text={t('invoices.columns.invoice')} />
                    {t('creditNotes.row', { number: '' })}
                    <bdi dir="ltr" className="whitespace-nowrap">
                      {note.number}
                    </bdi>
                    <span className="block text-sm font-normal text-navy-700">
                      {t('creditNotes.corrects', { number: '' })}
                      <bdi dir="ltr" className="whitespace-nowrap">
                        {row.number}
                      </bdi>
                    </span>
                  </th>
                  <td className={td}>
                    <CellLabel text={t('invoices.columns.date')} />
                    {date(note.created)}
                  </td>
                  <td className={`${td} tabular-nums`}>
                    <CellLabel text={t('invoices.columns.amount')} />
                    <Bidi>{note.amount}</Bidi>
                  </td>
                  <td className={`${td} hidden md:table-cell`} />
                  <td className={`${td} col-span-2`}>
                    <div className="-mx-2 flex flex-wrap gap-x-2 md:mx-0 md:flex-nowrap">
                      <a href={note.viewUrl} className={action} data-testid="credit-note-view">
                        {t('creditNotes.view')}
                        <span className="sr-only">, {t('creditNotes.number', { number: note.number })}</span>
                      </a>
                      <a href={note.pdfUrl} download className={action} data-testid="credit-note-pdf">
                        {t('creditNotes.download')}
                        <span className="sr-only">, {t('creditNotes.number', { number: note.number })}</span>
                      </a>
                    </div>
                  </td>
                </tr>
              ))}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Pagination({
  page,
  prevCursor,
  nextCursor,
}: {
  page: number;
  prevCursor: string | null;
  nextCursor: string | null;
}) {
  const { t } = useT('portal');
  const location = useLocation();
  if (prevCursor === null && nextCursor === null) return null;
  const hrefFor = (cursor: string) => {
    const params = new URLSearchParams(location.search);
    params.delete('step');
    params.delete('welcome');
    if (cursor) params.set(INVOICE_CURSOR_PARAM, cursor);
    else params.delete(INVOICE_CURSOR_PARAM);
    const search = params.toString();
    return `${location.pathname}${search ? `?${search}` : ''}#billing-history`;
  };
  const link = `${button.outline} min-h-11`;
  return (
    <nav
      aria-label={t('invoices.pagination')}
      className="mt-4 flex flex-wrap items-center justify-between gap-3"
      data-testid="invoices-pagination"
    >
      {prevCursor !== null ? (
        <Link to={hrefFor(prevCursor)} className={link} rel="prev" data-testid="invoices-newer">
          <span aria-hidden="true" className="inline-block rtl:rotate-180">
            ←
          </span>{' '}
          {t('invoices.newer')}
        </Link>
      ) : (
        <span />
      )}
      <span className="text-sm text-navy-700" aria-current="page">
        {t('invoices.page', { page })}
      </span>
      {nextCursor !== null ? (
        <Link to={hrefFor(nextCursor)} className={link} rel="next" data-testid="invoices-older">
          {t('invoices.older')}{' '}
          <span aria-hidden="true" className="inline-block rtl:rotate-180">
            →
          </span>
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
