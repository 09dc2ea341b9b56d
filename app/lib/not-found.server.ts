import { data } from '@remix-run/node';
import type { Locale } from '~/i18n';
import { fixedT } from '~/i18next.server';

/**
 * The one 404 every page loader throws: `throw await notFound(locale)`. It renders the route's
 * localized not-found boundary with status 404, and carries the localized title for the meta
 * of pages that show it (see errorMeta in features/blog/meta.ts).
 */
export async function notFound(locale: Locale) {
  const t = fixedT(locale, 'common');
  return data({ title: t('notFound.title') }, { status: 404 });
}
