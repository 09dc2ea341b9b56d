/** Small field factories shared by the document types. */
import { defineArrayMember, defineField, type CustomValidator, type SlugRule } from 'sanity';
import type { ListOption } from './constants';
import { slugify } from './validation';

export const API_VERSION = '2025-02-19';

/** `order`: position in lists, lowest first. */
export function orderField() {
  return defineField({
    name: 'order',
    title: 'Display order',
    type: 'number',
    description: 'Position in lists on the site: lower numbers come first (1, 2, 3…).',
    validation: (rule) => rule.integer().min(0),
  });
}

export function seoField() {
  return defineField({ name: 'seo', title: 'Search & sharing', type: 'seo', group: 'seo' });
}

/**
 * A custom validator: no other document of the same type uses this value for `field`.
 * Drafts of the document itself are ignored. Needs the Studio's client, so it passes
 * (returns true) where no client answers, e.g. in offline schema tests.
 */
export function uniqueInType(field: string): CustomValidator<string | undefined> {
  return async (value, context) => {
    const document = context.document;
    if (!value || !document?._id || !document._type) return true;
    const publishedId = document._id.replace(/^drafts\./, '');
    const isFree = await context
      .getClient({ apiVersion: API_VERSION })
      .fetch<boolean>(`!defined(*[_type == $type && ${field} == $value && !(_id in [$published, $draft])][0]._id)`, {
        type: document._type,
        value,
        published: publishedId,
        draft: `drafts.${publishedId}`,
      });
    return isFree ? true : `Another document of this type already uses "${value}".`;
  };
}

/** A fixed-choice `key` that ties a document to the site's code (routes, icons, translations). */
export function keyField(options: ListOption[], description: string, { required = true, unique = true } = {}) {
  return defineField({
    name: 'key',
    title: 'Key',
    type: 'string',
    description,
    options: { list: options, layout: options.length <= 4 ? 'radio' : 'dropdown' },
    validation: (rule) => {
      let r = required ? rule.required() : rule;
      if (unique) r = r.custom(uniqueInType('key'));
      return r;
    },
  });
}

/**
 * An array of short translated lines (each item a localeString with its own _key).
 * `min` / `exactly` make the list required with that many lines.
 */
export function localeStringListField(
  name: string,
  title: string,
  description: string,
  extra: { group?: string; min?: number; exactly?: number } = {},
) {
  const { group, min, exactly } = extra;
  return defineField({
    name,
    title,
    type: 'array',
    description,
    ...(group ? { group } : {}),
    of: [defineArrayMember({ type: 'localeString' })],
    validation: (rule) => {
      if (exactly !== undefined)
        return rule.required().length(exactly).error(`Exactly ${exactly} lines are needed here.`);
      if (min !== undefined) return rule.required().min(min);
      return rule;
    },
  });
}

/** Slug options generating from the English title. */
export function slugFromEnglishTitle(separator: '-' | '_' = '-') {
  return {
    source: 'title.en',
    maxLength: 96,
    slugify: (input: string) => slugify(input, separator),
  };
}

/** Slug validation: required and matching `test`. */
export function slugRule(test: (value: string) => boolean, message: string) {
  return (rule: SlugRule) =>
    rule.required().custom((value: { current?: string } | undefined) => {
      const current = value?.current;
      if (!current) return 'A slug is required: click "Generate".';
      return test(current) ? true : message;
    });
}
