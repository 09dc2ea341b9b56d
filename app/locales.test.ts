// Every interface string exists in both languages. The browser loads only the page's language
// (an Arabic page does not fetch the English files as a fallback), so a key missing in Arabic
// would show as a raw key once the page is interactive.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { namespaces } from './i18n';

type Tree = { [key: string]: string | Tree };
const dir = path.resolve(import.meta.dirname, '../public/locales');
const load = (locale: string, file: string) => JSON.parse(readFileSync(path.join(dir, locale, file), 'utf8')) as Tree;

/** Dotted keys; plural forms (Arabic has six, English two) count as their base key. */
function keys(tree: Tree, prefix = ''): Set<string> {
  const out = new Set<string>();
  for (const [key, value] of Object.entries(tree)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.add(name.replace(/_(zero|one|two|few|many|other)$/, ''));
    else for (const k of keys(value, name)) out.add(k);
  }
  return out;
}

describe('interface strings', () => {
  const files = readdirSync(path.join(dir, 'en')).filter((f) => f.endsWith('.json'));

  it('the two languages have the same files, and the browser namespaces are among them', () => {
    expect(
      readdirSync(path.join(dir, 'ar'))
        .filter((f) => f.endsWith('.json'))
        .sort(),
    ).toEqual([...files].sort());
    for (const ns of namespaces) expect(files).toContain(`${ns}.json`);
  });

  it.each(files)('%s has every key in Arabic that it has in English, and no other', (file) => {
    const en = keys(load('en', file));
    const ar = keys(load('ar', file));
    expect(
      [...en].filter((k) => !ar.has(k)),
      'missing in Arabic',
    ).toEqual([]);
    expect(
      [...ar].filter((k) => !en.has(k)),
      'only in Arabic',
    ).toEqual([]);
  });
});
