/** Options for @sanity/language-filter: which locale members to show for the chosen languages. */
import type { FilterFieldFunction, LanguageFilterConfig } from '@sanity/language-filter';
import { LANGUAGES, LOCALE_TYPE_NAMES, typesWithLocaleFields } from '../schemas';

const languageIds = new Set<string>(LANGUAGES.map((language) => language.id));
const localeTypeNames = new Set<string>(LOCALE_TYPE_NAMES);

/** True when a schema type is, or derives from, one of the locale objects. */
export function isLocaleType(type: { name: string; type?: unknown } | undefined): boolean {
  for (let current = type; current; current = current.type as typeof type) {
    if (localeTypeNames.has(current.name)) return true;
  }
  return false;
}

/**
 * Hides the `en`/`ar` members of locale objects whose language is not selected and leaves
 * every other field alone (unlike the plugin's default, which matches any type whose name
 * starts with "locale").
 */
export const filterLocaleField: FilterFieldFunction = (enclosingType, member, selectedLanguageIds) =>
  !isLocaleType(enclosingType) || !languageIds.has(member.name) || selectedLanguageIds.includes(member.name);

/**
 * No language is pinned: the plugin makes "default" languages impossible to hide, and
 * translators need Arabic only, English only, or both side by side (both shown at first).
 */
export const DEFAULT_LANGUAGES: string[] = [];

export const languageFilterOptions: LanguageFilterConfig = {
  supportedLanguages: LANGUAGES.map(({ id, title }) => ({ id, title })),
  defaultLanguages: DEFAULT_LANGUAGES,
  documentTypes: typesWithLocaleFields(),
  filterField: filterLocaleField,
};
