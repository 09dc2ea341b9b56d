import type { Locale } from '~/i18n';
import { fixedT } from '~/i18next.server';

/** The portal's interface strings on the server (page titles for the meta function). */
export function portalT(locale: Locale) {
  return fixedT(locale, 'portal');
}
