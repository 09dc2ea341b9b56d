import type { TFunction } from 'i18next';
import type { Locale } from '~/i18n';
import { i18nFor } from '~/i18next.server';
import type { Translation, Translations } from './locale';

/**
 * The server's useT (given by entry.server.tsx): one translation per language and namespace,
 * made on first use and kept. The key files are all loaded at start (app/i18next.server.ts) and a
 * server render never re-renders, so nothing needs to follow a change. The `t` is i18next's
 * getFixedT of the language's shared instance.
 */
export const serverTranslations: Translations = (locale: Locale, ns: string) => {
  const i18n = i18nFor(locale);
  let kept = keptTranslations.get(i18n);
  if (!kept) keptTranslations.set(i18n, (kept = new Map()));
  const id = `${locale}\u0000${ns}\u0000`;
  let translation = kept.get(id);
  if (!translation) {
    translation = { t: withServerMemo(i18n.getFixedT(locale, ns), i18n, id) };
    kept.set(id, translation);
  }
  return translation;
};
const keptTranslations = new WeakMap<object, Map<string, Translation>>();

/**
 * A page asks for the same strings many times: each answer is kept, per i18next instance,
 * language and namespace, so i18next resolves a key once per process instead of once per use. A
 * call with options is kept too when its options are plain values (a count, a name:
 * `t('readTime', { count: 5 })`), keyed by them; one with anything else (objects,
 * `returnObjects`) always goes to i18next. Bounded.
 */
const serverStrings = new WeakMap<object, Map<string, string>>();
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

function withServerMemo(fixed: TFunction, i18n: object, prefix: string): TFunction {
  // i18next's TFunction is a set of typed overloads; here it is called as what it is at run time.
  const translate = fixed as unknown as (key: unknown, ...rest: unknown[]) => unknown;
  let strings = serverStrings.get(i18n);
  if (!strings) serverStrings.set(i18n, (strings = new Map()));
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
  Object.assign(t, fixed);
  return t as unknown as TFunction;
}
