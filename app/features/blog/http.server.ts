import { data } from '@remix-run/node';
import { type Locale } from '~/i18n';
import { fixedT } from '~/i18next.server';
import { env } from '~/lib/env.server';
import { parsePageParam } from './pagination';

export { requestLocale } from '~/i18n';

/** The site's public origin, for absolute URLs in structured data. */
export function siteUrl(): string {
  return env().siteUrl;
}

/**
 * A real 404 to throw, carrying the localized title its meta shows (see errorMeta):
 * `throw await notFound(locale)`.
 */
export async function notFound(locale: Locale) {
  const t = fixedT(locale, 'common');
  return data({ title: t('notFound.title') }, { status: 404 });
}

/** The ?page= of a listing; null for a value that is not a page number (a 404). */
export function requestedPage(request: Request): number | null {
  return parsePageParam(new URL(request.url).searchParams.get('page'));
}

/** The image URL settings of this server's content world (for absolute image URLs in meta and JSON-LD). */
export function imageConfig() {
  const { content } = env();
  return { projectId: content.projectId, dataset: content.dataset, world: content.world };
}

export function insightsT(locale: Locale) {
  return fixedT(locale, 'insights');
}
