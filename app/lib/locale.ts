import { useLocation } from '@remix-run/react';
import type { TFunction } from 'i18next';
import { createContext, useContext } from 'react';
import { dir, localeFromPath, localizePath, type Locale } from '~/i18n';

/** The language of the page being shown, from its URL. */
export function useLocale(): Locale {
  return localeFromPath(useLocation().pathname);
}

export function useDir() {
  return dir(useLocale());
}

/** What useT gives: a `t` of one language and namespace. */
export type Translation = { t: TFunction };

/**
 * Where useT finds its strings: on the server the shared i18next instances
 * (app/lib/translations.server.ts, given by entry.server.tsx), in the browser the page's key files
 * (app/lib/i18n-backend.ts, given by entry.client.tsx). Neither i18next nor react-i18next is in
 * the browser's scripts (issue 43); app/lib/translate.test.ts holds the two to the same strings.
 */
export type Translations = (locale: Locale, ns: string) => Translation;

export const TranslationsContext = createContext<Translations>(() => {
  throw new Error('useT needs a TranslationsContext provider (entry.server.tsx, entry.client.tsx)');
});

/**
 * Translations pinned to the page's language. Pinning (instead of switching a shared language)
 * means a page never renders in the previous language for a frame.
 */
export function useT(ns = 'common'): Translation {
  return useContext(TranslationsContext)(useLocale(), ns);
}

/** A site path for the page's language. */
export function useLocalizePath() {
  const locale = useLocale();
  return (href: string) => localizePath(href, locale);
}
