import { intlLocale, type Locale } from '~/i18n';

/** One formatter per language: creating an Intl formatter costs far more than using one. */
const sgd = {} as Record<Locale, Intl.NumberFormat>;

/** A monthly package price in Singapore dollars, whole dollars, for the page's language. */
export function formatSgd(amount: number, locale: Locale): string {
  sgd[locale] ??= new Intl.NumberFormat(intlLocale[locale], {
    style: 'currency',
    currency: 'SGD',
    minimumFractionDigits: 0,
    maximumFractionDigits: 0,
  });
  return sgd[locale].format(amount);
}
