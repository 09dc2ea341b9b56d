import { intlLocale, type Locale } from '~/i18n';

/** A monthly package price in Singapore dollars, whole dollars, for the page's language. */
export function formatSgd(amount: number, locale: Locale): string {
  return new Intl.NumberFormat(intlLocale[locale], {
    style: 'currency',
    currency: 'SGD',
    minimumFractionDigits: 0,
    maximumFractionDigits: 0,
  }).format(amount);
}
