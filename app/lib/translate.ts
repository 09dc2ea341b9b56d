import type { TFunction } from 'i18next';

/** A language's interface strings as the key file holds them: namespace, then nested keys. */
export type KeyFile = Record<string, Record<string, unknown>>;

/**
 * The browser's `t`: what i18next does with this site's key files, without i18next's 47 kB in
 * every page's first scripts (issue 43). It covers exactly what the files and the calls use —
 * nested keys (`nav.getStarted`), another namespace named in the key (`chat:openingTitle`), plural forms by the language's Intl rules with i18next's
 * suffixes (`_zero` for a count of 0 first, then `_one`, `_two`, `_few`, `_many`, `_other`),
 * `{{name}}` values (unescaped: React escapes what it renders) — and answers a missing key with
 * the key, as i18next does. translate.test.ts checks every key of both languages against
 * i18next, which the server still renders with: the two must give the same strings.
 */
export function translator(file: KeyFile, locale: string, ns: string): TFunction {
  const plural = new Intl.PluralRules(locale);
  const find = (space: string, path: string): unknown =>
    path
      .split('.')
      .reduce<unknown>(
        (node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined),
        file[space],
      );
  const t = (fullKey: string, options?: Record<string, unknown>) => {
    // `chat:openingTitle` names its namespace, as i18next reads it (its namespace separator).
    const sep = fullKey.indexOf(':');
    const space = sep > 0 ? fullKey.slice(0, sep) : ns;
    const key = sep > 0 ? fullKey.slice(sep + 1).replaceAll(':', '.') : fullKey;
    const count = options?.count;
    let value: unknown;
    if (typeof count === 'number')
      value = (count === 0 ? find(space, `${key}_zero`) : undefined) ?? find(space, `${key}_${plural.select(count)}`);
    if (typeof value !== 'string') value = find(space, key);
    if (typeof value !== 'string') return key;
    // As i18next: a value not given leaves its placeholder, a null one becomes ''.
    return value.replace(/\{\{(.+?)\}\}/g, (text, name: string) => {
      const given = options?.[name.trim()];
      return given === undefined ? text : String(given ?? '');
    });
  };
  return t as unknown as TFunction;
}
