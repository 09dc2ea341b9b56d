import { localeFromPath, type Locale } from '~/i18n';
import { i18nServer } from '~/i18next.server';
import { env } from '~/lib/env.server';
import { parsePageParam } from '~/features/blog/pagination';

/**
 * What the loaders of the blog and case-study pages share: the request's language and page
 * number, the site's origin, a localized 404 and the insights strings.
 */

export function requestLocale(request: Request): Locale {
  return localeFromPath(new URL(request.url).pathname);
}

/** The site's public origin, for absolute URLs in structured data. */
export function siteUrl(): string {
  return env().siteUrl;
}

/** The ?page= of a listing; null for a value that is not a page number (a 404). */
export function requestedPage(request: Request): number | null {
  return parsePageParam(new URL(request.url).searchParams.get('page'));
}

export function insightsT(locale: Locale) {
  return i18nServer.getFixedT(locale, 'insights');
}
