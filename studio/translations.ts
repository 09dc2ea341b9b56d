/**
 * Translation state for the Studio: the document badge and the Translations tool.
 * Pure (no Sanity runtime imports), built on findMissingArabic from schemas/translation-state.ts,
 * and unit-tested in schemas/studio-translations.test.ts.
 */
import type { DocumentBadgeDescription } from 'sanity';
import { findMissingArabic, typesWithLocaleFields, type MissingTranslation } from '../schemas';
import { isLocaleObject, isLocaleValueEmpty } from '../schemas/translation-state';
import { DESK_GROUPS } from './desk';
import { TYPE_LOCATIONS } from './presentation-locations';

/** Document types that hold at least one localized field: the badge and the tool cover exactly these. */
export const TRANSLATABLE_TYPES: string[] = typesWithLocaleFields();

/**
 * Every public document of the translatable types, drafts included. `_id in path("*")` is a
 * published id without a period; `path("drafts.*")` its draft. Private ids (a period, e.g.
 * "submission.…") and release versions ("versions.…") are left out.
 */
export const TRANSLATIONS_QUERY = `*[_type in $types && (_id in path("*") || _id in path("drafts.*"))] | order(_type asc, _id asc)`;

export interface StudioDocument {
  _id: string;
  _type: string;
  [field: string]: unknown;
}

const DRAFT_PREFIX = 'drafts.';

export const publishedIdOf = (id: string): string => (id.startsWith(DRAFT_PREFIX) ? id.slice(DRAFT_PREFIX.length) : id);

/** One document per published id: the draft when there is one (what an editor sees), else the published document. */
export function overlayDrafts(
  documents: readonly StudioDocument[],
): (StudioDocument & { _id: string; hasDraft: boolean })[] {
  const byId = new Map<string, StudioDocument & { hasDraft: boolean }>();
  for (const document of documents) {
    const id = publishedIdOf(document._id);
    const isDraft = document._id !== id;
    const existing = byId.get(id);
    if (existing && existing.hasDraft && !isDraft) continue;
    byId.set(id, { ...document, _id: id, hasDraft: isDraft });
  }
  return [...byId.values()];
}

const getPath = (value: unknown, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>(
      (current, name) =>
        current && typeof current === 'object' ? (current as Record<string, unknown>)[name] : undefined,
      value,
    );

/** The English title of a document (the type's title field, e.g. title, name, question), or its id. */
export function englishTitle(document: StudioDocument): string {
  const field = TYPE_LOCATIONS[document._type]?.title ?? 'title';
  const value = getPath(document, `${field}.en`);
  return typeof value === 'string' && value.trim() !== '' ? value : document._id;
}

export interface UntranslatedDocument {
  /** Published id (the Studio opens the draft when there is one). */
  id: string;
  type: string;
  title: string;
  hasDraft: boolean;
  missing: MissingTranslation[];
}

export interface UntranslatedGroup {
  type: string;
  /** The type's name in the Studio menu, e.g. "Blog posts". */
  title: string;
  documents: UntranslatedDocument[];
}

/** Menu titles and order of the document types (desk.ts), so the tool reads like the side menu. */
const DESK_ITEMS = DESK_GROUPS.flatMap((group) => group.items);

/**
 * The documents with untranslated fields, grouped by type in menu order, each group sorted by
 * English title. Drafts are laid over their published documents first.
 */
export function groupUntranslated(documents: readonly StudioDocument[]): UntranslatedGroup[] {
  const rows = overlayDrafts(documents)
    .map((document) => ({
      id: document._id,
      type: document._type,
      title: englishTitle(document),
      hasDraft: document.hasDraft,
      missing: findMissingArabic(document),
    }))
    .filter((row) => row.missing.length > 0);
  const types = [...new Set(rows.map((row) => row.type))];
  const position = (type: string) => {
    const index = DESK_ITEMS.findIndex((item) => item.type === type);
    return index === -1 ? Number.MAX_SAFE_INTEGER : index;
  };
  return types
    .sort((a, b) => position(a) - position(b) || a.localeCompare(b))
    .map((type) => ({
      type,
      title: DESK_ITEMS.find((item) => item.type === type)?.title ?? type,
      documents: rows.filter((row) => row.type === type).sort((a, b) => a.title.localeCompare(b.title, 'en')),
    }));
}

/** True when some localized field of the document has English text (so there is something to translate). */
export function hasEnglishText(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasEnglishText);
  if (!value || typeof value !== 'object') return false;
  if (isLocaleObject(value)) return !isLocaleValueEmpty(value.en);
  return Object.entries(value).some(([name, child]) => !name.startsWith('_') && hasEnglishText(child));
}

/** A schema type as the Studio compiles it (`useSchema().get(name)`): enough to read titles along a path. */
export interface TitledSchemaType {
  title?: string;
  fields?: readonly { name: string; type: TitledSchemaType }[];
  of?: readonly TitledSchemaType[];
}

/**
 * A missing field as an editor knows it: the titles the schema gives each step of its readable path
 * ("Search & sharing › Description", "Features › item 3"), the raw name where the schema has no
 * title for it (or no such field). Titles are the schema's, in the language it is written in.
 */
export function fieldTitle(type: TitledSchemaType | undefined, path: string): string {
  const steps = path.match(/[^.[\]]+|\[\d+\]/g) ?? [];
  const titles: string[] = [];
  let current = type;
  steps.forEach((step, at) => {
    const index = /^\[(\d+)\]$/.exec(step);
    if (index) {
      titles.push(`item ${Number(index[1]) + 1}`);
      // The member that has the next field (arrays of several object types), else the first.
      const next = steps[at + 1];
      current = current?.of?.find((member) => member.fields?.some((field) => field.name === next)) ?? current?.of?.[0];
      return;
    }
    const field = current?.fields?.find((candidate) => candidate.name === step);
    titles.push(field?.type.title?.trim() || step);
    current = field?.type;
  });
  return titles.join(' › ');
}

export const missingLabel = (count: number): string => `Arabic missing: ${count} ${count === 1 ? 'field' : 'fields'}`;

/**
 * The badge for one document: draft if present, else published. Missing Arabic -> a warning
 * badge with the count (the field paths in its tooltip); complete -> "Arabic complete";
 * no document yet, or no English text to translate yet -> no badge.
 */
export function translationBadge(draft: unknown, published: unknown): DocumentBadgeDescription | null {
  const document = draft ?? published;
  if (!document) return null;
  const missing = findMissingArabic(document);
  if (missing.length === 0 && !hasEnglishText(document)) return null;
  if (missing.length === 0)
    return { label: 'Arabic complete', color: 'success', title: 'Every field with English text has its Arabic.' };
  return {
    label: missingLabel(missing.length),
    color: 'warning',
    title: `No Arabic yet: ${missing.map((entry) => entry.path).join(', ')}`,
  };
}
