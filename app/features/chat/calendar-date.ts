const MINUTE_MS = 60 * 1000;

/** Local calendar date as YYYY-MM-DD, in `timeZone` or the runtime's local zone. */
export function localDateKey(ms: number, timeZone?: string): string {
  if (timeZone) {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).formatToParts(new Date(ms));
    const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
    return `${get('year')}-${get('month')}-${get('day')}`;
  }
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Whole minutes (rounded up, at least 1) until the calendar date changes. */
export function minutesUntilNextDay(ms: number, timeZone?: string): number {
  const today = localDateKey(ms, timeZone);
  // The date is `today` for the first k minutes and another date after: search k.
  let lo = 1;
  let hi = 26 * 60; // longer than any day, DST included
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (localDateKey(ms + mid * MINUTE_MS, timeZone) === today) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
