import { useLocation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { dir, localeFromPath, localizePath, type Locale } from '~/i18n';

/** The language of the page being shown, from its URL. */
export function useLocale(): Locale {
  return localeFromPath(useLocation().pathname);
}

export function useDir() {
  return dir(useLocale());
}

/**
 * Translations pinned to the page's language. Pinning (instead of switching the shared
 * i18next language) means a page never renders in the previous language for a frame.
 */
export function useT(ns: string | string[] = 'common') {
  const locale = useLocale();
  return useTranslation(ns, { lng: locale });
}

/** A site path for the page's language. */
export function useLocalizePath() {
  const locale = useLocale();
  return (href: string) => localizePath(href, locale);
}
