import { intlLocale, type Locale } from '~/i18n';

/** One formatter per language: creating an Intl formatter costs far more than using one. */
const publicationDate = {} as Record<Locale, Intl.DateTimeFormat>;

/**
 * Dates already printed, per language and ISO string: formatting is itself costly (about 10 µs
 * a date, a list page prints a dozen) and posts keep their dates. Emptied past MAX_KEPT dates.
 */
const printed = new Map<string, string>();
const MAX_KEPT = 2_000;

/**
 * A publication date in the page's language. The firm's time zone is fixed, so the server
 * and the browser print the same day (no hydration mismatch).
 */
export function formatDate(iso: string, locale: Locale): string {
  const key = `${locale} ${iso}`;
  let text = printed.get(key);
  if (text === undefined) {
    publicationDate[locale] ??= new Intl.DateTimeFormat(intlLocale[locale], {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'Asia/Dubai',
    });
    text = publicationDate[locale].format(new Date(iso));
    if (printed.size >= MAX_KEPT) printed.clear();
    printed.set(key, text);
  }
  return text;
}
