import { intlLocale, type Locale } from '~/i18n';

/**
 * Money and dates as the billing documents show them (the invoice PDF and the clients' emails):
 * amounts in minor units (SGD cents, AED fils on tax invoices) with two decimals, dates in long style on the UTC calendar day like the
 * billing clock, both in the document's language (ar-AE's default digits, which are Latin).
 */
export function formatBillingAmount(cents: number, locale: Locale, currency: 'SGD' | 'AED' = 'SGD'): string {
  return new Intl.NumberFormat(intlLocale[locale], {
    style: 'currency',
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(cents / 100);
}

export function formatBillingDate(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(intlLocale[locale], { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso));
}
