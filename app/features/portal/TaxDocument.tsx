import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { Bidi } from '~/components/marketing/Bidi';
import { button } from '~/components/marketing/ui';
import { TitledSection } from '~/components/marketing/TitledSection';
import type { TaxInvoiceView } from '~/billing/tax/view';
import { isolateNumberRuns } from '~/lib/digits';
import { portalContainer } from './ui';

/**
 * The parts a tax invoice's page and a tax credit note's page share (their texts come from
 * app/billing/tax/view.ts and credit-note-view.ts, the same as their PDFs): the page around
 * the article, the article's head and parties, the facts list, the lines with their AED figures
 * and lists of amounts.
 */
export const taxTerm = 'text-sm font-semibold uppercase tracking-wider text-gold-700';

/** A party (supplier or customer): name, address lines, and registration number when registered. */
export function TaxParty({ party, id }: { party: TaxInvoiceView['supplier']; id: string }) {
  return (
    <TitledSection id={id} title={party.heading} titleClassName={taxTerm}>
      <address className="mt-2 not-italic leading-7 text-navy-900">
        <span className="block font-semibold">{party.name}</span>
        {party.lines.map((line, i) => (
          <span key={i} className="block break-words">
            {isolateNumberRuns(line)}
          </span>
        ))}
        {party.registration && (
          <span className="block font-semibold" data-testid={`${id}-registration`}>
            {party.registration.label}: <bdi dir="ltr">{party.registration.value}</bdi>
          </span>
        )}
      </address>
    </TitledSection>
  );
}

/** The document's facts (number, dates, period, reason…) as label and value, two columns from sm. */
export function TaxFacts({ facts }: { facts: [string, string][] }) {
  return (
    <dl className="grid gap-4 border-t border-navy-100 py-6 sm:grid-cols-2">
      {facts.map(([label, value]) => (
        <div key={label}>
          <dt className={taxTerm}>{label}</dt>
          <dd className="mt-1 font-semibold">
            <Bidi>{value}</Bidi>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The lines: description and period, quantity, unit price, net, rate, tax (net and tax in AED under them). */
export function TaxLines({ columns, lines }: Pick<TaxInvoiceView, 'columns' | 'lines'>) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[36rem] border-collapse text-navy-900">
        <thead>
          <tr className="border-y border-navy-200 bg-sand-50 text-sm print:bg-white">
            <th scope="col" className="px-3 py-3 text-start font-semibold">
              {columns.description}
            </th>
            {[columns.quantity, columns.unitPrice, columns.net, columns.rate, columns.tax].map((label) => (
              <th key={label} scope="col" className="px-3 py-3 text-end font-semibold">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {lines.map((line, i) => (
            <tr key={i} className="border-b border-navy-100">
              <td className="px-3 py-3">
                <span className="block font-semibold">{line.description}</span>
                <span className="block text-sm text-navy-700">{line.period}</span>
              </td>
              {[line.quantity, line.unitPrice, line.net, line.rate, line.tax].map((value, j) => (
                <td key={j} className="px-3 py-3 text-end tabular-nums whitespace-nowrap">
                  <Bidi>{value}</Bidi>
                  {/* The net and the tax of the line in AED too, under the SGD figure. */}
                  {line.aed && (j === 2 || j === 4) && (
                    <span className="block text-sm text-navy-700" data-testid="invoice-line-aed">
                      <Bidi>{j === 2 ? line.aed.net : line.aed.tax}</Bidi>
                    </span>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A tax document's page around its article: the way back to the billing history, then the
 * document's own links (the invoice it corrects, its XML, its PDF last as the main action).
 */
export function TaxDocumentPage({
  testId,
  back,
  links,
  children,
}: {
  testId: string;
  back: { to: string; label: string };
  links: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="bg-sand-50 py-8 print:bg-white print:py-0 md:py-14" data-testid={testId}>
      <div className={`${portalContainer.wide} max-w-4xl`}>
        <nav className="mb-6 flex flex-wrap items-center justify-between gap-3 print:hidden">
          <Link to={back.to} className={`${button.outline} min-h-11`}>
            <span aria-hidden="true" className="inline-block rtl:rotate-180">
              ←
            </span>{' '}
            {back.label}
          </Link>
          <div className="flex flex-wrap gap-3">{links}</div>
        </nav>
        {children}
      </div>
    </div>
  );
}

/**
 * A tax document as a printable article: the supplier and the title with the number (and what
 * goes under it, such as the invoice's status), its notices, then both parties; the rest of
 * the document follows as children.
 */
export function TaxArticle({
  id,
  testId,
  view,
  number,
  underTitle,
  notices,
  children,
}: {
  id: string;
  testId: string;
  view: Pick<TaxInvoiceView, 'title' | 'supplier' | 'customer'>;
  number: string;
  underTitle?: ReactNode;
  notices: (string | null | undefined)[];
  children: ReactNode;
}) {
  return (
    <article
      className="rounded-2xl border border-navy-100 bg-white p-6 shadow-sm print:rounded-none print:border-0 print:p-0 print:shadow-none md:p-10"
      aria-labelledby={`${id}-title`}
      data-testid={testId}
    >
      <header className="flex flex-wrap items-start justify-between gap-6 border-b-4 border-gold-500 pb-6">
        <p className="text-2xl font-bold text-navy-900">{view.supplier.name}</p>
        <div className="text-end">
          <h1 id={`${id}-title`} className="text-3xl font-bold text-navy-900">
            {view.title}{' '}
            <bdi dir="ltr" className="whitespace-nowrap">
              {number}
            </bdi>
          </h1>
          {underTitle && <div className="mt-2">{underTitle}</div>}
        </div>
      </header>
      {notices.map((notice, i) =>
        notice ? (
          <p key={i} className="mt-4 rounded-lg bg-amber-50 p-3 font-semibold text-amber-900" role="note">
            {notice}
          </p>
        ) : null,
      )}
      <div className="grid gap-6 py-6 sm:grid-cols-2">
        <TaxParty party={view.supplier} id={`${id}-supplier`} />
        <TaxParty party={view.customer} id={`${id}-customer`} />
      </div>
      {children}
    </article>
  );
}

/** Amounts as label and figure on one line each (the AED summary, Stripe's tax breakdown). */
export function AmountList({ rows }: { rows: readonly (readonly [string, string])[] }) {
  return (
    <dl className="mt-2">
      {rows.map(([label, value]) => (
        <div key={label} className="flex justify-between gap-4 py-1">
          <dt>{label}</dt>
          <dd className="font-semibold tabular-nums">
            <Bidi>{value}</Bidi>
          </dd>
        </div>
      ))}
    </dl>
  );
}
