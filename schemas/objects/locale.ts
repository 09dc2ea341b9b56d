/**
 * Translation objects: one field per language. English is required; an empty Arabic is a
 * warning (the Arabic site then falls back to the English text).
 */
import { defineArrayMember, defineField, defineType, type ValidationContext } from 'sanity';
import { ArabicInput } from '../components/ArabicInput';
import { isLocaleValueEmpty } from '../translation-state';
import { isValidHref } from '../validation';

export const ARABIC_MISSING_MESSAGE = 'Arabic translation missing: the Arabic site will show the English text here.';

/** Warns when the English has text and the Arabic does not. */
function arabicCheck(value: unknown, context: ValidationContext): true | string {
  const parent = context.parent as { en?: unknown } | undefined;
  if (isLocaleValueEmpty(parent?.en)) return true;
  return isLocaleValueEmpty(value) ? ARABIC_MISSING_MESSAGE : true;
}

const englishTitle = 'English';
const arabicTitle = 'العربية (Arabic)';
const arabicDescription = 'Shown on the Arabic site (/ar). Leave empty only while a translation is pending.';

export const localeString = defineType({
  name: 'localeString',
  title: 'Text in English and Arabic',
  type: 'object',
  fields: [
    defineField({ name: 'en', title: englishTitle, type: 'string', validation: (rule) => rule.required() }),
    defineField({
      name: 'ar',
      title: arabicTitle,
      type: 'string',
      description: arabicDescription,
      components: { input: ArabicInput },
      validation: (rule) => rule.custom(arabicCheck).warning(),
    }),
  ],
  preview: { select: { title: 'en', subtitle: 'ar' } },
});

export const localeText = defineType({
  name: 'localeText',
  title: 'Paragraph in English and Arabic',
  type: 'object',
  fields: [
    defineField({ name: 'en', title: englishTitle, type: 'text', rows: 3, validation: (rule) => rule.required() }),
    defineField({
      name: 'ar',
      title: arabicTitle,
      type: 'text',
      rows: 3,
      description: arabicDescription,
      components: { input: ArabicInput },
      validation: (rule) => rule.custom(arabicCheck).warning(),
    }),
  ],
  preview: { select: { title: 'en', subtitle: 'ar' } },
});

/** The rich-text blocks one language of a `localeBlockContent` holds. */
function richTextMembers() {
  return [
    defineArrayMember({
      type: 'block',
      styles: [
        { title: 'Paragraph', value: 'normal' },
        { title: 'Heading 2', value: 'h2' },
        { title: 'Heading 3', value: 'h3' },
        { title: 'Heading 4', value: 'h4' },
        { title: 'Quote', value: 'blockquote' },
      ],
      lists: [
        { title: 'Bulleted list', value: 'bullet' },
        { title: 'Numbered list', value: 'number' },
      ],
      marks: {
        decorators: [
          { title: 'Bold', value: 'strong' },
          { title: 'Italic', value: 'em' },
          { title: 'Code', value: 'code' },
        ],
        annotations: [
          defineArrayMember({
            name: 'link',
            title: 'Link',
            type: 'object',
            fields: [
              defineField({
                name: 'href',
                title: 'Link to',
                type: 'string',
                description:
                  'A page on this site starting with "/" (for example /pricing or /services#market-entry), a full web address (https://…), mailto:name@example.com or tel:+971….',
                validation: (rule) =>
                  rule
                    .required()
                    .custom((value: string | undefined) =>
                      value === undefined || isValidHref(value)
                        ? true
                        : 'Use a site path starting with "/", an http(s) address, mailto: or tel:.',
                    ),
              }),
            ],
          }),
        ],
      },
    }),
    defineArrayMember({
      type: 'image',
      title: 'Image',
      options: { hotspot: true },
      fields: [
        defineField({
          name: 'alt',
          title: 'Alternative text',
          type: 'localeString',
          description: 'Describes the image for screen readers and search engines.',
          validation: (rule) => rule.required(),
        }),
        defineField({
          name: 'caption',
          title: 'Caption',
          type: 'localeString',
          description: 'Optional line shown under the image.',
        }),
      ],
    }),
  ];
}

export const localeBlockContent = defineType({
  name: 'localeBlockContent',
  title: 'Rich text in English and Arabic',
  type: 'object',
  fields: [
    defineField({
      name: 'en',
      title: englishTitle,
      type: 'array',
      of: richTextMembers(),
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'ar',
      title: arabicTitle,
      type: 'array',
      of: richTextMembers(),
      description: arabicDescription,
      components: { input: ArabicInput },
      validation: (rule) => rule.custom(arabicCheck).warning(),
    }),
  ],
});

export const localeTypes = [localeString, localeText, localeBlockContent];
