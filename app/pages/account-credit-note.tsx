import { creditNotePage, notFound, portalT, requireClient } from '~/server-api';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { Fragment } from 'react';
import { isolateNumberRuns, requestLocale, RouteErrorBoundary, useLocalizePath, useT } from '~/kit';
import { Bidi, button } from '~/content-kit';
import {
  portalMeta,
  TaxArticle,
  TaxDocumentPage,
  TaxFacts,
  TaxLines,
  taxTerm,
  useFormatDate,
} from '~/features/portal/kit';
import type { CreditNoteView } from '~/billing/tax/credit-note-view';

/** /account/credit-notes/:creditNoteId: one of the client's own tax credit notes as a printable page. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const session = await requireClient(request);
  const locale = requestLocale(request);
  const [page, t] = await Promise.all([creditNotePage(session, params.creditNoteId ?? '', locale), portalT(locale)]);
  // Another client's note, or none: as if it did not exist.
  if (!page) throw await notFound(locale);
  return { ...page, title: t('meta.creditNote', { number: page.note.number }) };
}

export const meta: MetaFunction<typeof loader> = (args) => portalMeta(args, args.data?.title);

export const ErrorBoundary = RouteErrorBoundary;

const term = taxTerm;

/** The note's text (app/billing/tax/credit-note-view.ts: the same text as its PDF). */
function CreditNoteArticle({ view }: { view: CreditNoteView }) {
  const [sgd, aed] = view.adjustment.currencies;
  return (
    <TaxArticle id="credit-note" testId="credit-note" view={view} number={view.number} notices={[view.demo]}>
      <TaxFacts facts={[...view.meta, view.reason]} />
      <p className="font-semibold" data-testid="credit-note-full">
        {/* The invoice number runs left to right inside the Arabic sentence (BWB-2026-0008, not 2026-0008-BWB). */}
        {view.fullCredit.split(view.invoiceNumber).map((part, i) => (
          <Fragment key={i}>
            {i > 0 && (
              <bdi dir="ltr" className="whitespace-nowrap">
                {view.invoiceNumber}
              </bdi>
            )}
            {isolateNumberRuns(part)}
          </Fragment>
        ))}
      </p>
      <div className="mt-4">
        <TaxLines columns={view.columns} lines={view.lines} />
      </div>
      {/* Label above its amounts on a phone, beside them from sm: no sideways scroll for the figures that matter. */}
      <section className="mt-6" aria-labelledby="credit-note-adjustment" data-testid="credit-note-adjustment">
        <h2 id="credit-note-adjustment" className={term}>
          {view.adjustment.heading}
        </h2>
        {/* Column heads for the eye: each amount names its currency itself. */}
        <div
          aria-hidden="true"
          className="mt-2 grid grid-cols-2 gap-x-4 border-b border-navy-200 py-2 text-sm font-semibold sm:grid-cols-[1fr_9rem_9rem]"
        >
          <span className="hidden sm:block" />
          {[sgd, aed].map((c) =>
            c ? (
              <span key={c} className="text-end">
                {c}
              </span>
            ) : null,
          )}
        </div>
        <dl className="text-navy-900">
          {view.adjustment.rows.map(([label, sgdValue, aedValue], i) => (
            <div
              key={label}
              className={`grid grid-cols-2 gap-x-4 py-2 sm:grid-cols-[1fr_9rem_9rem] ${i === view.adjustment.rows.length - 1 ? 'border-t-2 border-navy-900 text-lg font-bold' : ''}`}
            >
              <dt className="col-span-2 sm:col-span-1">{label}</dt>
              {[sgdValue, aedValue].map((value, j) =>
                value ? (
                  <dd key={j} className="text-end tabular-nums whitespace-nowrap">
                    <Bidi>{value}</Bidi>
                  </dd>
                ) : null,
              )}
            </div>
          ))}
        </dl>
      </section>
      {view.aed && (
        <p className="mt-4 text-sm text-navy-700">
          {isolateNumberRuns(view.aed.rate)}
          {view.aed.fixture && <span className="block font-semibold text-amber-900">{view.aed.fixture}</span>}
        </p>
      )}
      {view.statement && <p className="mt-4 font-semibold">{view.statement}</p>}
      <p className="mt-4 text-sm text-navy-700">{view.currency}</p>
    </TaxArticle>
  );
}

export default function AccountCreditNote() {
  const { note, amount, view, pdfUrl, xmlUrl, invoiceUrl } = useLoaderData<typeof loader>();
  const { t } = useT('portal');
  const date = useFormatDate();
  const localize = useLocalizePath();
  return (
    <TaxDocumentPage
      testId="credit-note-page"
      back={{ to: `${localize('/account/subscription')}#billing-history`, label: t('creditNotes.back') }}
      links={
        <>
          <Link to={invoiceUrl} className={`${button.outline} min-h-11`}>
            {t('creditNotes.invoice')}
          </Link>
          {xmlUrl ? (
            <a href={xmlUrl} download className={`${button.outline} min-h-11`} data-testid="credit-note-download-xml">
              {t('invoice.downloadXml')}
            </a>
          ) : null}
          <a href={pdfUrl} download className={`${button.primary} min-h-11`} data-testid="credit-note-download">
            {t('creditNotes.download')}
          </a>
        </>
      }
    >
      {view ? (
        <CreditNoteArticle view={view} />
      ) : (
        <article
          className="rounded-2xl border border-navy-100 bg-white p-6 shadow-sm md:p-10"
          data-testid="credit-note"
        >
          <h1 className="text-3xl font-bold text-navy-900">
            {t('creditNotes.row', { number: '' })}
            <bdi dir="ltr">{note.number}</bdi>
          </h1>
          <dl className="mt-6 grid gap-4 sm:grid-cols-2">
            {(
              [
                [
                  t('creditNotes.corrects', { number: '' }),
                  <bdi key="n" dir="ltr">
                    {note.invoiceNumber}
                  </bdi>,
                ],
                [t('creditNotes.issued'), date(note.created)],
                [t('creditNotes.amount'), <Bidi key="a">{amount}</Bidi>],
                [t('creditNotes.reason'), note.reason ?? ''],
              ] as const
            ).map(([label, value]) => (
              <div key={label}>
                <dt className={term}>{label}</dt>
                <dd className="mt-1 font-semibold">{value}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-6 text-navy-700">{t('creditNotes.hosted')}</p>
        </article>
      )}
    </TaxDocumentPage>
  );
}
