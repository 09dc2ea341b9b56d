import { Bidi } from '~/components/marketing/Bidi';
import { TitledSection } from '~/components/marketing/TitledSection';
import type { TaxInvoiceView } from '~/billing/tax/view';
import { isolateNumberRuns } from '~/lib/digits';

/**
 * The parts a tax invoice's page and a tax credit note's page share (their texts come from
 * app/billing/tax/view.ts and credit-note-view.ts, the same as their PDFs): the parties, the
 * facts list and the lines with their AED figures.
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
