import { type Locale } from '~/i18n';
import { fixedT } from '~/i18next.server';
import { env } from '~/lib/env.server';
import { parsePageParam } from '~/features/blog/pagination';

// What the loaders of the blog and case-study pages share: the listing's page number,
// the site's origin and the insights strings.

/** The site's public origin, for absolute URLs in structured data. */
export function siteUrl(): string {
  return env().siteUrl;
}

/** The ?page= of a listing; null for a value that is not a page number (a 404). */
export function requestedPage(request: Request): number | null {
  return parsePageParam(new URL(request.url).searchParams.get('page'));
}

export function insightsT(locale: Locale) {
  return fixedT(locale, 'insights');
}
