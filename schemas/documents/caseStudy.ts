/** Case studies: a client's challenge, our solution and four results. */
import { defineField, defineType } from 'sanity';
import { CASE_STUDY_KEYS } from '../constants';
import { keyField, localeStringListField, orderField, seoField, slugFromEnglishTitle, slugRule } from '../fields';
import { localizedImageField } from '../objects/shared';
import { isHyphenSlug } from '../validation';

export const caseStudy = defineType({
  name: 'caseStudy',
  title: 'Case study',
  type: 'document',
  groups: [
    { name: 'content', title: 'Content', default: true },
    { name: 'seo', title: 'Search & sharing' },
  ],
  fields: [
    {
      ...keyField(
        CASE_STUDY_KEYS,
        'Links the case study to its launch illustration and analytics. Leave empty for new case studies.',
        {
          required: false,
        },
      ),
      group: 'content',
    },
    defineField({
      name: 'title',
      title: 'Title',
      type: 'localeString',
      group: 'content',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'slug',
      title: 'Address',
      type: 'slug',
      group: 'content',
      description:
        'The address after /case-studies/. Generate it from the English title; avoid changing it once published.',
      options: slugFromEnglishTitle('-'),
      validation: slugRule(isHyphenSlug, 'Use lowercase words joined by hyphens, e.g. tech-startup-dubai.'),
    }),
    defineField({
      name: 'excerpt',
      title: 'Summary',
      type: 'localeText',
      group: 'content',
      description: 'One or two sentences for the case-study cards.',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'client',
      title: 'Client',
      type: 'localeString',
      group: 'content',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'industry',
      title: 'Industry',
      type: 'localeString',
      group: 'content',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'location',
      title: 'Location',
      type: 'localeString',
      group: 'content',
      description: 'For example "Dubai, UAE".',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'challenge',
      title: 'Challenge',
      type: 'localeText',
      group: 'content',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'solution',
      title: 'Solution',
      type: 'localeText',
      group: 'content',
      validation: (rule) => rule.required(),
    }),
    localeStringListField(
      'results',
      'Results',
      'Exactly four measurable results, e.g. "Licence obtained in 3 weeks".',
      {
        group: 'content',
        exactly: 4,
      },
    ),
    defineField({
      name: 'testimonial',
      title: 'Client quote',
      type: 'object',
      group: 'content',
      fields: [
        defineField({ name: 'quote', title: 'Quote', type: 'localeText', validation: (rule) => rule.required() }),
        defineField({ name: 'author', title: 'Name', type: 'localeString', validation: (rule) => rule.required() }),
        defineField({
          name: 'position',
          title: 'Position',
          type: 'localeString',
          description: 'Job title and company.',
        }),
      ],
    }),
    localizedImageField({ name: 'coverImage', title: 'Cover image', group: 'content' }),
    { ...orderField(), group: 'content' },
    seoField(),
  ],
  orderings: [{ title: 'Display order', name: 'orderAsc', by: [{ field: 'order', direction: 'asc' }] }],
  preview: { select: { title: 'title.en', subtitle: 'industry.en', media: 'coverImage' } },
});
