import { intlLocale, type Locale } from '~/i18n';

/** One formatter per language: creating an Intl formatter costs far more than using one. */
const publicationDate = {} as Record<Locale, Intl.DateTimeFormat>;

/**
 * A publication date in the page's language. The firm's time zone is fixed, so the server
 * and the browser print the same day (no hydration mismatch).
 */
export function formatDate(iso: string, locale: Locale): string {
  publicationDate[locale] ??= new Intl.DateTimeFormat(intlLocale[locale], {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'Asia/Dubai',
  });
  return publicationDate[locale].format(new Date(iso));
}
