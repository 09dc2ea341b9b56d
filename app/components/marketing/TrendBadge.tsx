import { useT } from '~/lib/locale';
import { normalizeTrend, TREND_KEYS, trendBadgeClass, trendTone } from '~/lib/trend';

/** An indicator's trend: colour from the trend key, label translated. */
export function TrendBadge({ trend }: { trend: string }) {
  const { t } = useT('marketing');
  const key = normalizeTrend(trend);
  const tone = trendTone(key);
  const label = (TREND_KEYS as readonly string[]).includes(key) ? t(`trends.${key}`) : t('trends.other');
  return (
    <span
      data-testid="trend-badge"
      data-trend={key}
      data-tone={tone}
      className={`inline-flex items-center gap-1.5 whitespace-nowrap rounded-full px-3 py-1 text-sm font-semibold ring-1 ring-inset ${trendBadgeClass[tone]}`}
    >
      <span aria-hidden="true" className="size-1.5 rounded-full bg-current" />
      {label}
    </span>
  );
}
