/**
 * Monthly billing periods, computed in UTC. Every period is counted from the subscription's
 * billing anchor (its start), so a subscription started on the 31st renews on the last day of
 * shorter months and comes back to the 31st afterwards (Jan 31 → Feb 28/29 → Mar 31).
 */

export function daysInMonthUtc(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** The anchor moved by `months` calendar months (negative goes back), the day clamped to the month's end. */
export function addMonthsUtc(anchor: Date, months: number): Date {
  const total = anchor.getUTCFullYear() * 12 + anchor.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const day = Math.min(anchor.getUTCDate(), daysInMonthUtc(year, month));
  return new Date(
    Date.UTC(
      year,
      month,
      day,
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

/** Period `index` (1 is the first) of a subscription anchored at `anchor`. */
export function periodBounds(anchor: Date, index: number): { start: Date; end: Date } {
  return { start: addMonthsUtc(anchor, index - 1), end: addMonthsUtc(anchor, index) };
}
