/**
 * The colour of an indicator's trend badge, decided by the trend KEY from the CMS (never by
 * the displayed, translated word), so both languages show the same colours:
 * green for rising, improving, expanding or accelerating; blue for stable; amber otherwise.
 */
export type TrendTone = 'green' | 'blue' | 'amber';

const GREEN = new Set(['rising', 'improving', 'expanding', 'accelerating']);

/** Known trend keys; each has a translated label under marketing:trends.{key}. */
export const TREND_KEYS = [
  'rising',
  'improving',
  'expanding',
  'accelerating',
  'stable',
  'moderate',
  'declining',
] as const;

export function normalizeTrend(trend: string | null | undefined): string {
  return (trend ?? '').trim().toLowerCase();
}

export function trendTone(trend: string | null | undefined): TrendTone {
  const key = normalizeTrend(trend);
  if (GREEN.has(key)) return 'green';
  if (key === 'stable') return 'blue';
  return 'amber';
}

/** Badge classes per tone: tinted background, dark text (WCAG AA on the tint). */
export const trendBadgeClass: Record<TrendTone, string> = {
  green: 'bg-green-100 text-green-800 ring-green-600/25',
  blue: 'bg-blue-100 text-blue-800 ring-blue-600/25',
  amber: 'bg-amber-100 text-amber-900 ring-amber-600/30',
};
