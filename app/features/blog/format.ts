import { intlLocale, type Locale } from '~/i18n';

/**
 * A publication date in the page's language. The firm's time zone is fixed, so the server
 * and the browser print the same day (no hydration mismatch).
 */
export function formatDate(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(intlLocale[locale], {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'Asia/Dubai',
  }).format(new Date(iso));
}
