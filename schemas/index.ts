/**
 * The one schema source: used by the Studio (studio/sanity.config.ts), the schema tests and
 * typegen. Field names follow docs/content-model.md exactly.
 */
import { LOCALE_TYPE_NAMES, SINGLETON_TYPES } from './constants';
import { caseStudy } from './documents/caseStudy';
import { faqCategory, faqItem } from './documents/faq';
import { homeBlockTypes } from './documents/homeBlocks';
import { insightTypes } from './documents/insights';
import { serviceTypes } from './documents/services';
import { siteTypes } from './documents/site';
import { localeTypes } from './objects/locale';
import { sharedTypes } from './objects/shared';

export const schemaTypes = [
  ...localeTypes,
  ...sharedTypes,
  ...siteTypes,
  ...serviceTypes,
  ...insightTypes,
  caseStudy,
  faqCategory,
  faqItem,
  ...homeBlockTypes,
];

export const documentTypeNames: string[] = schemaTypes
  .filter((type) => type.type === 'document')
  .map((type) => type.name);

/** Structural view of a type definition, enough to walk fields and array members. */
interface TypeShape {
  name?: string;
  type?: string;
  fields?: TypeShape[];
  of?: TypeShape[];
}

/**
 * Names of the document types that contain a localized field anywhere (directly, in nested
 * objects and arrays, or through named types such as `seo`). The Studio's language filter is
 * offered on exactly these.
 */
export function typesWithLocaleFields(
  types: ReadonlyArray<TypeShape> = schemaTypes as ReadonlyArray<TypeShape>,
): string[] {
  const named = new Map(types.filter((type) => type.name).map((type) => [type.name as string, type]));
  const localeNames = new Set<string>(LOCALE_TYPE_NAMES);
  const memo = new Map<string, boolean>();

  const containsLocale = (shape: TypeShape, seen: Set<string>): boolean => {
    const typeName = shape.type;
    if (typeName && localeNames.has(typeName)) return true;
    const children = [...(shape.fields ?? []), ...(shape.of ?? [])];
    if (children.some((child) => containsLocale(child, seen))) return true;
    if (typeName && named.has(typeName) && !seen.has(typeName)) {
      if (!memo.has(typeName))
        memo.set(typeName, containsLocale(named.get(typeName) as TypeShape, new Set([...seen, typeName])));
      return memo.get(typeName) as boolean;
    }
    return false;
  };

  return types
    .filter((type) => type.type === 'document' && containsLocale(type, new Set()))
    .map((type) => type.name as string);
}

export { findMissingArabic, isLocaleValueEmpty, missingArabicPaths } from './translation-state';
export type { MissingTranslation, PathSegment } from './translation-state';
export * from './constants';
export { isHttpUrl, isSitePath, isValidHref } from './validation';

/** Types that exist once and are opened directly (fixed document ids equal to the type name). */
export const singletonTypes: ReadonlySet<string> = new Set(SINGLETON_TYPES);
