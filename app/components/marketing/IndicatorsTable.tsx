import { useId } from 'react';
import { useFallbackLang } from '~/lib/content-lang';
import { useT } from '~/lib/locale';
import type { HomeData } from '~/sanity/queries/marketing';
import { Bidi } from './Bidi';
import { CmsLink } from './ExternalLink';
import { PageBand } from './PageBand';
import { TrendBadge } from './TrendBadge';

/**
 * The strategic indicators: a real table (caption, column and row headers). From md up it is laid
 * out as a table (scrolling sideways if the viewport is narrower than it); on phones each row
 * stacks into a card (row header, metric, then value and trend side by side, then the source), so
 * every value is on screen without sideways scrolling.
 */
/** The table's columns, in order; each heading is the text `home.columns.<name>`. */
const COLUMNS = ['category', 'metric', 'value', 'trend', 'source'] as const;

export function IndicatorsTable({ title, indicators }: { title: string; indicators: HomeData['indicators'] }) {
  const { t } = useT('marketing');
  const captionId = useId();
  return (
    <PageBand title={title} className="bg-white py-16 md:py-24" testId="indicators">
      <div
        role="region"
        aria-labelledby={captionId}
        tabIndex={0}
        className="relative mt-8 overflow-x-auto rounded-2xl border border-navy-100 shadow-sm"
        data-testid="indicators-scroll"
      >
        <table className="w-full border-collapse bg-white text-navy-900 max-md:block md:min-w-[48rem]">
          <caption id={captionId} className="sr-only">
            {t('home.indicatorsCaption')}
          </caption>
          <thead className="bg-navy-900 text-white max-md:sr-only">
            <tr>
              {COLUMNS.map((column) => (
                <th key={column} scope="col" className="px-5 py-4 text-start text-sm font-semibold">
                  {t(`home.columns.${column}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-navy-100 max-md:block">
            {indicators.map((row) => (
              <IndicatorRow key={row._id} row={row} />
            ))}
          </tbody>
        </table>
      </div>
    </PageBand>
  );
}

type Indicator = HomeData['indicators'][number];

/** The cells' common classes: table padding from md up (on phones the row is a card with its own padding). */
const cell = 'text-start md:px-5 md:py-4';

/** One indicator: on phones a card (see IndicatorsTable), from md up a table row. */
function IndicatorRow({ row }: { row: Indicator }) {
  const inEnglish = useFallbackLang();
  return (
    <tr
      className="align-middle even:bg-sand-50/60 max-md:grid max-md:grid-cols-[auto_1fr] max-md:items-center max-md:gap-x-4 max-md:gap-y-1 max-md:p-4"
      data-testid="indicator-row"
    >
      <th
        scope="row"
        className={`${cell} font-semibold max-md:col-span-2 md:min-w-[9rem]`}
        {...inEnglish(row.category)}
      >
        {row.category}
      </th>
      <td className={`${cell} text-navy-700 max-md:col-span-2 md:min-w-[14rem]`} {...inEnglish(row.metric)}>
        {row.metric}
      </td>
      <td
        className={`${cell} text-lg font-bold tabular-nums whitespace-nowrap max-md:pt-1`}
        data-testid="indicator-value"
        {...inEnglish(row.value)}
      >
        <Bidi>{row.value}</Bidi>
      </td>
      <td className={`${cell} max-md:pt-1`}>
        <TrendBadge trend={row.trend} />
      </td>
      <td className={`${cell} max-md:col-span-2`}>
        {row.link ? (
          <CmsLink
            href={row.link}
            className="inline-block py-2.5 font-medium text-navy-700 underline decoration-gold-500 underline-offset-4 hover:text-navy-900"
          >
            <span {...inEnglish(row.linkText)}>{row.linkText ?? row.link}</span>
          </CmsLink>
        ) : null}
      </td>
    </tr>
  );
}
