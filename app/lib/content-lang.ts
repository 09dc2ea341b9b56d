import { useMatches } from '@remix-run/react';
import { useCallback, useMemo } from 'react';
import { useLocale } from './locale';

/** The attributes of text shown in English inside a page in another language. */
export const ENGLISH_TEXT = { lang: 'en', dir: 'ltr' } as const;

/**
 * Marks CMS text that fell back to English because its translation is missing:
 *
 *   const inEnglish = useFallbackLang();
 *   <h2 {...inEnglish(service.title)}>{service.title}</h2>
 *
 * gives lang="en" dir="ltr" on an Arabic page when that title is an English stand-in, and
 * nothing otherwise. The texts come from the loaders of the matched routes
 * (`englishFallbacks`, collected by loadQuery; see app/sanity/fallback.ts).
 */
export function useFallbackLang() {
  const locale = useLocale();
  const matches = useMatches();
  const texts = useMemo(() => fallbackTexts(matches), [matches]);
  return useCallback(
    (text: string | null | undefined) => (locale !== 'en' && text && texts.has(text) ? ENGLISH_TEXT : undefined),
    [locale, texts],
  );
}

type Matches = ReturnType<typeof useMatches>;
/**
 * The set built for a page's loader data, found by its deepest route's data. Each component
 * gets its own `matches` array from useMatches, but the data objects in it are the page's own,
 * so the set is built once per render, not once per marked text.
 */
const textsByLeafData = new WeakMap<object, { data: unknown[]; texts: Set<string> }>();

/** The English stand-ins of a page's matched routes. */
function fallbackTexts(matches: Matches): Set<string> {
  const data = matches.map((match) => match.data);
  let leaf: object | undefined;
  for (const item of data) if (item !== null && typeof item === 'object') leaf = item;
  const known = leaf ? textsByLeafData.get(leaf) : undefined;
  if (known && known.data.length === data.length && known.data.every((item, i) => item === data[i])) return known.texts;
  const texts = new Set<string>();
  for (const item of data) {
    const list = (item as { englishFallbacks?: unknown } | undefined)?.englishFallbacks;
    if (Array.isArray(list)) for (const text of list) texts.add(text);
  }
  if (leaf) textsByLeafData.set(leaf, { data, texts });
  return texts;
}

/** Portable Text that stands in for a missing translation (its blocks carry _lang "en"). */
export function portableTextLang(blocks: ReadonlyArray<{ _lang?: string }> | null | undefined) {
  return blocks?.some((block) => block._lang === 'en') ? ENGLISH_TEXT : undefined;
}

const LATIN_LETTER = /\p{Script=Latin}/u;
const ARABIC_LETTER = /\p{Script=Arabic}/u;

/**
 * Text from outside the CMS (what the scheduling service puts in the confirmation URL: an
 * event name, a person's name) has no language of its own. On a page in another language,
 * text written only in Latin letters is marked lang="en", so a screen reader does not read
 * "Layla Haddad" with an Arabic voice; anything with Arabic letters keeps the page's language.
 * Direction is left to the caller (<bdi> isolates it).
 */
export function latinTextLang(pageLocale: string, text: string | null | undefined) {
  return pageLocale !== 'en' && text && LATIN_LETTER.test(text) && !ARABIC_LETTER.test(text)
    ? { lang: 'en' }
    : undefined;
}
