/**
 * Translation state of a document: which localized fields have English but no Arabic.
 * Pure (no Sanity imports): used by the Studio badge and views, by content checks and tests.
 */
import { LOCALE_TYPE_NAMES, type LocaleTypeName } from './constants';

/** A Sanity path segment: field name, array index, or array item key. */
export type PathSegment = string | number | { _key: string };

export interface MissingTranslation {
  /** Readable path: "title", "hero.subtitle", "features[2]", "values[0].text". */
  path: string;
  /** The same location as a Sanity path (array items by _key when they have one), for opening the field in the Studio. */
  sanityPath: PathSegment[];
  /** Which locale object it is. */
  type: LocaleTypeName;
}

const localeTypes = new Set<string>(LOCALE_TYPE_NAMES);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when a language value holds no text: missing, blank string, or Portable Text without text or images. */
export function isLocaleValueEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) {
    return !value.some((item) => {
      if (!isRecord(item)) return false;
      if (item._type !== 'block') return true; // an image or other embedded object counts as content
      const children = Array.isArray(item.children) ? item.children : [];
      return children.some((child) => isRecord(child) && typeof child.text === 'string' && child.text.trim() !== '');
    });
  }
  return true;
}

export function isLocaleObject(value: unknown): value is { _type: LocaleTypeName; en?: unknown; ar?: unknown } {
  return isRecord(value) && typeof value._type === 'string' && localeTypes.has(value._type);
}

/**
 * Every localized field (localeString, localeText, localeBlockContent object, at any depth)
 * whose English has content and whose Arabic is empty. Fields empty in both languages are not
 * listed: there is nothing to translate yet (a missing required English is a validation error).
 */
export function findMissingArabic(document: unknown): MissingTranslation[] {
  const found: MissingTranslation[] = [];
  const walk = (value: unknown, readable: string, sanityPath: PathSegment[]): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        const segment: PathSegment = isRecord(item) && typeof item._key === 'string' ? { _key: item._key } : index;
        walk(item, `${readable}[${index}]`, [...sanityPath, segment]);
      });
      return;
    }
    if (!isRecord(value)) return;
    if (isLocaleObject(value)) {
      if (!isLocaleValueEmpty(value.en) && isLocaleValueEmpty(value.ar)) {
        found.push({ path: readable, sanityPath, type: value._type });
      }
      return; // the languages inside are leaves: do not descend (e.g. image alts inside rich text)
    }
    for (const [name, child] of Object.entries(value)) {
      if (name.startsWith('_')) continue;
      walk(child, readable ? `${readable}.${name}` : name, [...sanityPath, name]);
    }
  };
  walk(document, '', []);
  return found;
}

/** Readable paths of the fields whose Arabic is missing, e.g. ["hero.subtitle", "features[2]"]. */
export function missingArabicPaths(document: unknown): string[] {
  return findMissingArabic(document).map((entry) => entry.path);
}
