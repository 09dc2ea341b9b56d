/** Objects shared by several documents: SEO, images with translated alt text, navigation links. */
import { defineField, defineType } from 'sanity';
import { isValidHref } from '../validation';

export const seo = defineType({
  name: 'seo',
  title: 'Search & sharing',
  type: 'object',
  description:
    'How this page appears in Google and when shared. Leave empty to use the site defaults from Site settings.',
  options: { collapsible: true, collapsed: true },
  fields: [
    defineField({
      name: 'title',
      title: 'Search title',
      type: 'localeString',
      description: 'Shown as the clickable headline in search results. Aim for 50–60 characters.',
    }),
    defineField({
      name: 'description',
      title: 'Search description',
      type: 'localeText',
      description: 'The short summary under the headline in search results. Aim for 120–160 characters.',
    }),
    defineField({
      name: 'image',
      title: 'Sharing image',
      type: 'image',
      description: 'Shown when the page is shared on social media or WhatsApp. Best at 1200 × 630 pixels.',
      options: { hotspot: true },
    }),
  ],
});

/**
 * `localizedImage` (docs/content-model.md): an image with hotspot and an `alt` localeString
 * (English required). Deliberately not a named schema type: a named image type would be
 * stored as `_type: "localizedImage"`, while the bundled dataset and `sanity dataset import`
 * store these values as `_type: "image"`. Declaring each field as `type: "image"` keeps the
 * Studio, typegen and the data in agreement.
 */
export function localizedImageField(field: { name: string; title: string; description?: string; group?: string }) {
  return defineField({
    ...field,
    type: 'image',
    options: { hotspot: true },
    fields: [
      defineField({
        name: 'alt',
        title: 'Alternative text',
        type: 'localeString',
        description:
          'Describe what the image shows, for visitors using screen readers and for search engines. English is required.',
        validation: (rule) => rule.required(),
      }),
    ],
  });
}

export const navLink = defineType({
  name: 'navLink',
  title: 'Navigation link',
  type: 'object',
  fields: [
    defineField({
      name: 'label',
      title: 'Label',
      type: 'localeString',
      description: 'The text of the link in the menu.',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'href',
      title: 'Link to',
      type: 'string',
      description:
        'A page on this site starting with "/" (for example /about or /services#market-entry) or a full web address (https://…). Arabic visitors are taken to the Arabic version of site pages automatically.',
      validation: (rule) =>
        rule
          .required()
          .custom((value: string | undefined) =>
            value === undefined || isValidHref(value)
              ? true
              : 'Use a site path starting with "/" or a full https:// address.',
          ),
    }),
    defineField({
      name: 'icon',
      title: 'Icon',
      type: 'string',
      description: 'Optional icon name shown in the mobile menu: home, info, briefcase, folder, book or help.',
    }),
  ],
  preview: {
    select: { title: 'label.en', subtitle: 'href' },
  },
});

export const sharedTypes = [seo, navLink];
