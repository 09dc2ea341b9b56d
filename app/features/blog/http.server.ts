import { localeFromPath, type Locale } from '~/i18n';
import { i18nServer } from '~/i18next.server';
import { env } from '~/lib/env.server';
import { parsePageParam } from './pagination';

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

/** The image URL settings of this server's content world (for absolute image URLs in meta and JSON-LD). */
export function imageConfig() {
  const { content } = env();
  return { projectId: content.projectId, dataset: content.dataset, world: content.world };
}

export function insightsT(locale: Locale) {
  return i18nServer.getFixedT(locale, 'insights');
}
