import { useLocation } from '@remix-run/react';
import { useContext } from 'react';
import { getI18n, I18nContext, useTranslation } from 'react-i18next';
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
  return usePinnedTranslation(ns, useLocale());
}

type Translation = ReturnType<typeof useTranslation>;

function useBrowserTranslation(ns: string | string[], locale: Locale): Translation {
  return useTranslation(ns, { lng: locale });
}

/**
 * The server's useT: one translation per i18next instance, language and namespace, made on first
 * use and kept. react-i18next's hook would make a new `t` (getFixedT), merge its options and
 * check the namespaces on every call, for a render that never re-renders and key files that are
 * all loaded at start (app/i18next.server.ts); its effects never run on the server. The `t` is
 * the one useTranslation gives for these arguments (i18next's getFixedT for the first namespace).
 */
function useServerTranslation(ns: string | string[], locale: Locale): Translation {
  const i18n = (useContext(I18nContext)?.i18n ?? getI18n()) as Translation['i18n'];
  let kept = serverTranslations.get(i18n);
  if (!kept) serverTranslations.set(i18n, (kept = new Map()));
  const id = `${locale}\u0000${String(ns)}\u0000`;
  let translation = kept.get(id);
  if (!translation) {
    const t = i18n.getFixedT(locale, typeof ns === 'string' ? ns : ns[0]);
    translation = withServerMemo(
      Object.assign([t, i18n, true], { t, i18n, ready: true }) as unknown as Translation,
      id,
    );
    kept.set(id, translation);
  }
  return translation;
}

const usePinnedTranslation = typeof document === 'undefined' ? useServerTranslation : useBrowserTranslation;
const serverTranslations = new WeakMap<object, Map<string, Translation>>();

/**
 * On the server the key files are read once and never change, and a page asks for the same
 * strings many times: each answer is kept, per i18next instance, language and namespace, so
 * i18next resolves a key once per process instead of once per use. A call with options is kept
 * too when its options are plain values (a count, a name: `t('readTime', { count: 5 })`), keyed
 * by them; one with anything else (objects, `returnObjects`) always goes to i18next. Bounded.
 */
const serverStrings = typeof document === 'undefined' ? new WeakMap<object, Map<string, string>>() : null;
const SERVER_STRINGS_MAX = 5_000;

/** The memo key of a call's options, or null when they are not plain values. */
function optionsKey(rest: unknown[]): string | null {
  if (rest.length === 0) return '';
  if (rest.length > 1) return null;
  const [options] = rest;
  if (typeof options === 'string') return `\u0000${JSON.stringify(options)}`;
  if (options === null || typeof options !== 'object' || Object.getPrototypeOf(options) !== Object.prototype)
    return null;
  for (const value of Object.values(options)) {
    if (value !== null && value !== undefined && !['string', 'number', 'boolean'].includes(typeof value)) return null;
  }
  return `\u0000${JSON.stringify(options)}`;
}

function withServerMemo(translation: Translation, prefix: string): Translation {
  const { i18n, ready } = translation;
  // i18next's TFunction is a set of typed overloads; here it is called as what it is at run time.
  const translate = translation.t as unknown as (key: unknown, ...rest: unknown[]) => unknown;
  let strings = serverStrings!.get(i18n);
  if (!strings) serverStrings!.set(i18n, (strings = new Map()));
  const memo = strings;
  const t = (key: unknown, ...rest: unknown[]) => {
    const options = typeof key === 'string' ? optionsKey(rest) : null;
    if (options === null) return translate(key, ...rest);
    const id = prefix + (key as string) + options;
    let value: unknown = memo.get(id);
    if (value === undefined) {
      value = translate(key, ...rest);
      if (typeof value !== 'string') return value;
      if (memo.size < SERVER_STRINGS_MAX) memo.set(id, value);
    }
    return value;
  };
  // The function i18next gives carries its language, namespace and key prefix, which <Trans t={t}>
  // reads to find its key: the kept-strings function carries them too.
  Object.assign(t, translation.t);
  return Object.assign([t, i18n, ready], { t, i18n, ready }) as unknown as Translation;
}

/** A site path for the page's language. */
export function useLocalizePath() {
  const locale = useLocale();
  return (href: string) => localizePath(href, locale);
}
