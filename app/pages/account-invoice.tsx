import { invoicePage, notFound, portalT, requireClient } from '~/server-api';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import {
  isolateNumberRuns,
  placeName,
  requestLocale,
  RouteErrorBoundary,
  useLocale,
  useLocalizePath,
  useT,
} from '~/kit';
import { Bidi, button, TitledSection } from '~/content-kit';
import {
  AmountList,
  InvoiceStatusBadge,
  portalMeta,
  TaxArticle,
  TaxDocumentPage,
  TaxFacts,
  TaxLines,
  taxTerm,
  useFormatDate,
} from '~/features/portal/kit';
import type { TaxInvoiceView } from '~/billing/tax/view';
import type { InvoiceStatus } from '~/billing/types';

/** /account/invoices/:invoiceId: one of the client's own invoices as a clean, printable page. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const session = await requireClient(request);
  const locale = requestLocale(request);
  const [page, t] = await Promise.all([invoicePage(session, params.invoiceId ?? '', locale), portalT(locale)]);
  // Another client's invoice, or none: as if it did not exist.
  if (!page) throw await notFound(locale);
  return { ...page, title: t('meta.invoice', { number: page.invoice.number }) };
}

export const meta: MetaFunction<typeof loader> = (args) => portalMeta(args, args.data?.title);

export const ErrorBoundary = RouteErrorBoundary;

/** A tax invoice (its snapshot, as text from app/billing/tax/view.ts: the same text as the PDF). */
function TaxInvoiceArticle({ tax, number, status }: { tax: TaxInvoiceView; number: string; status: InvoiceStatus }) {
  return (
    <TaxArticle
      id="invoice"
      testId="tax-invoice"
      view={tax}
      number={number}
      underTitle={<InvoiceStatusBadge status={status} />}
      notices={[tax.demo, tax.waiting]}
    >
      <TaxFacts facts={tax.meta} />
      <TaxLines columns={tax.columns} lines={tax.lines} />
      <dl className="ms-auto mt-4 max-w-md">
        {tax.totals.map(([label, value], i) => (
          <div
            key={label}
            className={`flex justify-between gap-4 px-3 py-2 ${i === tax.totals.length - 1 ? 'border-t-2 border-navy-900 text-lg font-bold' : ''}`}
          >
            <dt>{label}</dt>
            <dd className="tabular-nums" data-testid={i === tax.totals.length - 1 ? 'invoice-total' : undefined}>
              <Bidi>{value}</Bidi>
            </dd>
          </div>
        ))}
      </dl>
      {tax.aed && (
        <section
          className="mt-6 rounded-lg border border-navy-100 p-4"
          aria-labelledby="invoice-aed"
          data-testid="invoice-aed"
        >
          <h2 id="invoice-aed" className={taxTerm}>
            {tax.aed.heading}
          </h2>
          <AmountList rows={tax.aed.rows} />
          <p className="mt-2 text-sm text-navy-700">{isolateNumberRuns(tax.aed.rate)}</p>
          {tax.aed.fixture && <p className="mt-1 text-sm font-semibold text-amber-900">{tax.aed.fixture}</p>}
        </section>
      )}
      {tax.statement && <p className="mt-4 font-semibold">{tax.statement}</p>}
      <p className="mt-4 text-sm text-navy-700">{tax.currency}</p>
    </TaxArticle>
  );
}

export default function AccountInvoice() {
  const { invoice, planName, amount, customer, firm, pdfUrl, xmlUrl, tax, stripeTax } = useLoaderData<typeof loader>();
  const { t } = useT('portal');
  const locale = useLocale();
  const date = useFormatDate();
  const localize = useLocalizePath();
  const term = taxTerm;
  return (
    <TaxDocumentPage
      testId="invoice-page"
      back={{ to: `${localize('/account/subscription')}#billing-history`, label: t('invoice.back') }}
      links={
        <>
          {xmlUrl ? (
            <a href={xmlUrl} download className={`${button.outline} min-h-11`} data-testid="invoice-download-xml">
              {t('invoice.downloadXml')}
            </a>
          ) : null}
          <a href={pdfUrl} download className={`${button.primary} min-h-11`} data-testid="invoice-download">
            {t('invoice.download')}
          </a>
        </>
      }
    >
      {tax ? (
        <TaxInvoiceArticle tax={tax} number={invoice.number} status={invoice.status} />
      ) : (
        <article
          className="rounded-2xl border border-navy-100 bg-white p-6 shadow-sm print:rounded-none print:border-0 print:p-0 print:shadow-none md:p-10"
          aria-labelledby="invoice-title"
        >
          <header className="flex flex-wrap items-start justify-between gap-6 border-b-4 border-gold-500 pb-6">
            <div>
              <p className="text-2xl font-bold text-navy-900">{firm.name}</p>
              {firm.email && (
                <p className="mt-1 text-navy-700" dir="ltr">
                  {firm.email}
                </p>
              )}
            </div>
            <div className="text-end">
              <h1 id="invoice-title" className="text-3xl font-bold text-navy-900">
                {t('invoice.title')}{' '}
                <bdi dir="ltr" className="whitespace-nowrap">
                  {invoice.number}
                </bdi>
              </h1>
              <div className="mt-2">
                <InvoiceStatusBadge status={invoice.status} />
              </div>
            </div>
          </header>

          <dl className="grid gap-6 py-6 sm:grid-cols-3">
            <div>
              <dt className={term}>{t('invoice.number')}</dt>
              <dd className="mt-1 font-semibold">
                <bdi dir="ltr">{invoice.number}</bdi>
              </dd>
            </div>
            <div>
              <dt className={term}>{t('invoice.issued')}</dt>
              <dd className="mt-1 font-semibold">{date(invoice.created)}</dd>
            </div>
            <div>
              <dt className={term}>{t('invoice.period')}</dt>
              <dd className="mt-1 font-semibold">
                {t('invoice.periodValue', { start: date(invoice.periodStart), end: date(invoice.periodEnd) })}
              </dd>
            </div>
          </dl>

          <div className="grid gap-6 border-t border-navy-100 py-6 sm:grid-cols-2">
            <TitledSection id="billed-to" title={t('invoice.billedTo')} titleClassName={term}>
              <address className="mt-2 not-italic leading-7 text-navy-900">
                {/* Stripe's invoice names the customer as Stripe printed them (legal name, address, tax IDs). */}
                <span className="block font-semibold">{stripeTax?.customerName ?? customer.name}</span>
                {customer.company && customer.company !== stripeTax?.customerName && (
                  <span className="block">{customer.company}</span>
                )}
                {stripeTax?.customerLines.map((line, i) => (
                  <span key={i} className="block break-words">
                    {isolateNumberRuns(line)}
                  </span>
                ))}
                {stripeTax?.taxIds.map((id) => (
                  <span key={id.value} className="block font-semibold" data-testid="invoice-customer-tax-id">
                    {t('invoice.stripeTax.taxId')}: <bdi dir="ltr">{id.value}</bdi>
                  </span>
                ))}
                {/* Aligned with the lines above it; only the address itself runs left to right. */}
                <span className="block break-all">
                  <bdi dir="ltr">{customer.email}</bdi>
                </span>
              </address>
            </TitledSection>
            <TitledSection id="invoice-from" title={t('invoice.from')} titleClassName={term}>
              <address className="mt-2 not-italic leading-7 text-navy-900">
                <span className="block font-semibold">{firm.name}</span>
                {firm.offices.map((office) => (
                  <span key={office.city} className="mt-1 block text-navy-700">
                    <span className="font-medium text-navy-900">{placeName(office.city, office.country, locale)}</span>
                    {office.address && (
                      <span className="block whitespace-pre-line">{isolateNumberRuns(office.address)}</span>
                    )}
                  </span>
                ))}
              </address>
            </TitledSection>
          </div>

          <table className="w-full border-collapse text-navy-900">
            <thead>
              <tr className="border-y border-navy-200 bg-sand-50 print:bg-white">
                <th scope="col" className="px-3 py-3 text-start text-sm font-semibold">
                  {t('invoice.description')}
                </th>
                <th scope="col" className="px-3 py-3 text-end text-sm font-semibold">
                  {t('invoice.amount')}
                </th>
              </tr>
            </thead>
            <tbody>
              <tr className="border-b border-navy-100">
                <td className="px-3 py-4">
                  <span className="block font-semibold">{t('invoice.line', { plan: planName })}</span>
                  <span className="block text-sm text-navy-700">
                    {t('invoice.periodValue', { start: date(invoice.periodStart), end: date(invoice.periodEnd) })}
                  </span>
                </td>
                <td className="px-3 py-4 text-end tabular-nums whitespace-nowrap">
                  <Bidi>{amount}</Bidi>
                </td>
              </tr>
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" className="px-3 py-4 text-start text-lg font-bold">
                  {t('invoice.total')}
                </th>
                <td
                  className="px-3 py-4 text-end text-lg font-bold tabular-nums whitespace-nowrap"
                  data-testid="invoice-total"
                >
                  <Bidi>{amount}</Bidi>
                </td>
              </tr>
            </tfoot>
          </table>
          {stripeTax && (
            <section
              className="mt-6 rounded-lg border border-navy-100 p-4"
              aria-labelledby="invoice-stripe-tax"
              data-testid="invoice-stripe-tax"
            >
              <h2 id="invoice-stripe-tax" className={term}>
                {t('invoice.stripeTax.heading')}
              </h2>
              <AmountList
                rows={[
                  [t('invoice.stripeTax.net'), stripeTax.net] as const,
                  ...stripeTax.taxes.map(
                    (x) =>
                      [
                        t(x.inclusive ? 'invoice.stripeTax.taxIncluded' : 'invoice.stripeTax.taxAdded', {
                          name: x.name,
                          rate: x.rate,
                        }),
                        x.amount,
                      ] as const,
                  ),
                  [t('invoice.stripeTax.total'), stripeTax.total] as const,
                ]}
              />
              <p className="mt-2 text-sm text-navy-700">{t('invoice.stripeTax.note')}</p>
              <ul className="mt-3 flex flex-wrap gap-3 print:hidden">
                {stripeTax.hostedUrl && (
                  <li>
                    <a href={stripeTax.hostedUrl} className={`${button.outline} min-h-11`} data-testid="stripe-hosted">
                      {t('invoice.stripeTax.hosted')}
                    </a>
                  </li>
                )}
                {stripeTax.pdfUrl && (
                  <li>
                    <a href={stripeTax.pdfUrl} className={`${button.outline} min-h-11`} data-testid="stripe-pdf">
                      {t('invoice.stripeTax.pdf')}
                    </a>
                  </li>
                )}
              </ul>
            </section>
          )}
          <p className="mt-4 text-sm text-navy-700">{t('invoice.currency')}</p>
        </article>
      )}
    </TaxDocumentPage>
  );
}
