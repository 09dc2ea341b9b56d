import { useId } from 'react';
import { useFallbackLang } from '~/lib/content-lang';
import { useT } from '~/lib/locale';
import type { HomeData } from '~/sanity/queries/marketing';
import { Bidi } from './Bidi';
import { CmsLink } from './ExternalLink';
import { TrendBadge } from './TrendBadge';
import { container, sectionTitle } from './ui';

/** The strategic indicators: a real table (caption, column and row headers), scrollable on phones. */
export function IndicatorsTable({ title, indicators }: { title: string; indicators: HomeData['indicators'] }) {
  const { t } = useT('marketing');
  const titleId = useId();
  const hintId = useId();
  const inEnglish = useFallbackLang();
  const th = 'px-5 py-4 text-start text-sm font-semibold';
  return (
    <section aria-labelledby={titleId} className="bg-white py-16 md:py-24" data-testid="indicators">
      <div className={container}>
        <h2 id={titleId} className={sectionTitle} {...inEnglish(title)}>{title}</h2>
        <p id={hintId} className="mt-3 text-sm text-navy-700 md:hidden">{t('home.indicatorsScrollHint')}</p>
        <div
          role="region"
          aria-labelledby={titleId}
          aria-describedby={hintId}
          tabIndex={0}
          className="relative mt-8 overflow-x-auto rounded-2xl border border-navy-100 shadow-sm"
          data-testid="indicators-scroll"
        >
          <table className="w-full min-w-[48rem] border-collapse bg-white text-navy-900">
            <caption className="sr-only">{t('home.indicatorsCaption')}</caption>
            <thead className="bg-navy-900 text-white">
              <tr>
                <th scope="col" className={th}>{t('home.columns.category')}</th>
                <th scope="col" className={th}>{t('home.columns.metric')}</th>
                <th scope="col" className={th}>{t('home.columns.value')}</th>
                <th scope="col" className={th}>{t('home.columns.trend')}</th>
                <th scope="col" className={th}>{t('home.columns.source')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-navy-100">
              {indicators.map((row) => (
                <tr key={row._id} className="align-middle even:bg-sand-50/60" data-testid="indicator-row">
                  <th scope="row" className="min-w-[9rem] px-5 py-4 text-start font-semibold" {...inEnglish(row.category)}>{row.category}</th>
                  <td className="min-w-[14rem] px-5 py-4 text-navy-700" {...inEnglish(row.metric)}>{row.metric}</td>
                  <td className="px-5 py-4 text-lg font-bold tabular-nums whitespace-nowrap" {...inEnglish(row.value)}><Bidi>{row.value}</Bidi></td>
                  <td className="px-5 py-4"><TrendBadge trend={row.trend} /></td>
                  <td className="px-5 py-4">
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
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}
