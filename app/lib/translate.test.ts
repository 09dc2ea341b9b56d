/**
 * The browser's translator gives what i18next gives (the server renders with i18next, so any
 * difference would be a hydration mismatch): every key of every namespace the browser loads, in
 * both languages, bare, with every placeholder it has, and with counts that reach each of the
 * Arabic plural forms (zero, one, two, few, many, other).
 */
import { describe, expect, it } from 'vitest';
import { locales, namespaces } from '~/i18n';
import { i18nFor, serverResources } from '~/i18next.server';
import { translator, type KeyFile } from './translate';

const PLURAL = /_(zero|one|two|few|many|other)$/;
const COUNTS = [0, 1, 2, 3, 5, 10, 11, 99, 100, 101, 102, 1.5];

/** Every key (plural suffixes taken off) of a namespace, with the placeholders its strings name. */
function keysOf(node: Record<string, unknown>, prefix = '', out = new Map<string, Set<string>>()) {
  for (const [name, value] of Object.entries(node)) {
    const key = prefix + name;
    if (value && typeof value === 'object') keysOf(value as Record<string, unknown>, `${key}.`, out);
    else if (typeof value === 'string') {
      const base = key.replace(PLURAL, '');
      const names = out.get(base) ?? new Set<string>();
      for (const [, placeholder] of value.matchAll(/\{\{(.+?)\}\}/g)) names.add(placeholder.trim());
      out.set(base, names);
    }
  }
  return out;
}

describe('translator', () => {
  for (const locale of locales) {
    it(`gives i18next's string for every key in ${locale}`, () => {
      const file = serverResources()[locale] as KeyFile;
      let checked = 0;
      for (const ns of namespaces) {
        const ours = translator(file, locale, ns) as unknown as (key: string, options?: object) => string;
        const theirs = i18nFor(locale).getFixedT(locale, ns) as unknown as (key: string, options?: object) => string;
        for (const [key, names] of keysOf(file[ns] ?? {})) {
          const values = Object.fromEntries([...names].map((name) => [name, `«${name}»`]));
          const calls: (object | undefined)[] = [undefined, values, ...COUNTS.map((count) => ({ ...values, count }))];
          for (const options of calls) {
            expect(ours(key, options), `${locale} ${ns}:${key} ${JSON.stringify(options)}`).toBe(theirs(key, options));
            // The same key named with its namespace, from another namespace's t (as the chat's
            // toasts and the newsletter's statuses name theirs).
            const other = ns === 'common' ? 'forms' : 'common';
            const oursFrom = translator(file, locale, other) as unknown as typeof ours;
            const theirsFrom = i18nFor(locale).getFixedT(locale, other) as unknown as typeof theirs;
            expect(oursFrom(`${ns}:${key}`, options), `${locale} ${ns}:${key} from ${other}`).toBe(
              theirsFrom(`${ns}:${key}`, options),
            );
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(1000);
    });
  }

  it('uses the Arabic forms for two, few and many, and _zero for a count of 0', () => {
    const file: KeyFile = {
      common: {
        n_zero: 'صفر',
        n_one: 'واحد',
        n_two: 'اثنان',
        n_few: '{{count}} قليل',
        n_many: '{{count}} كثير',
        n_other: '{{count}} آخر',
      },
    };
    const t = translator(file, 'ar', 'common') as unknown as (key: string, options?: object) => string;
    expect([0, 1, 2, 3, 11, 100].map((count) => t('n', { count }))).toEqual([
      'صفر',
      'واحد',
      'اثنان',
      '3 قليل',
      '11 كثير',
      '100 آخر',
    ]);
  });

  it('answers a missing key with the key, and leaves a placeholder without a value', () => {
    const t = translator({ common: { a: { b: 'Hi {{name}}' } } }, 'en', 'common') as unknown as (
      key: string,
      options?: object,
    ) => string;
    expect(t('a.c')).toBe('a.c');
    expect(t('a')).toBe('a');
    expect(t('a.b')).toBe('Hi {{name}}');
    expect(t('a.b', { name: 'Sara' })).toBe('Hi Sara');
  });
});
