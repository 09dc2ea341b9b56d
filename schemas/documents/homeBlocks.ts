/** Blocks shown on the home page: testimonials, statistics cards and indicator rows. */
import { defineField, defineType } from 'sanity';
import { TESTIMONIAL_KEYS, TRENDS } from '../constants';
import { keyField, orderField } from '../fields';
import { localizedImageField } from '../objects/shared';
import { isValidHref } from '../validation';

const byOrder = [{ title: 'Display order', name: 'orderAsc', by: [{ field: 'order', direction: 'asc' as const }] }];

export const testimonial = defineType({
  name: 'testimonial',
  title: 'Testimonial',
  type: 'document',
  fields: [
    keyField(TESTIMONIAL_KEYS, 'Links the testimonial to analytics. Leave empty for new testimonials.', {
      required: false,
    }),
    defineField({ name: 'quote', title: 'Quote', type: 'localeText', validation: (rule) => rule.required() }),
    defineField({ name: 'author', title: 'Name', type: 'localeString', validation: (rule) => rule.required() }),
    defineField({ name: 'position', title: 'Position', type: 'localeString', description: 'Job title, e.g. "CEO".' }),
    defineField({ name: 'company', title: 'Company', type: 'localeString' }),
    defineField({
      name: 'result',
      title: 'Result',
      type: 'localeString',
      description: 'The outcome in a few words, e.g. "Launched in 6 weeks".',
    }),
    localizedImageField({
      name: 'image',
      title: 'Photo',
      description: 'A portrait of the person or the company logo.',
    }),
    orderField(),
  ],
  orderings: byOrder,
  preview: { select: { title: 'author.en', subtitle: 'company.en', media: 'image' } },
});

export const statistic = defineType({
  name: 'statistic',
  title: 'Statistic',
  type: 'document',
  fields: [
    defineField({
      name: 'value',
      title: 'Figure',
      type: 'string',
      description: 'The figure as shown, the same in both languages: "68%", "16,000+".',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'label',
      title: 'Label',
      type: 'localeString',
      description: 'What the figure measures, e.g. "Foreign investment increase".',
      validation: (rule) => rule.required(),
    }),
    defineField({ name: 'description', title: 'Description', type: 'localeText' }),
    orderField(),
  ],
  orderings: byOrder,
  preview: {
    select: { value: 'value', label: 'label.en' },
    prepare: ({ value, label }: { value?: string; label?: string }) => ({
      title: [value, label].filter(Boolean).join(' · '),
    }),
  },
});

export const indicator = defineType({
  name: 'indicator',
  title: 'Indicator',
  type: 'document',
  fields: [
    defineField({
      name: 'category',
      title: 'Category',
      type: 'localeString',
      description: 'First column of the indicators table, e.g. "Connectivity".',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'metric',
      title: 'Metric',
      type: 'localeString',
      description: 'e.g. "Air destinations".',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'value',
      title: 'Value',
      type: 'localeString',
      description: 'e.g. "240+" or "Top 10".',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'trend',
      title: 'Trend',
      type: 'string',
      description: 'Rising, improving, expanding and accelerating show green; stable blue; the others amber.',
      options: { list: TRENDS, layout: 'dropdown' },
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'link',
      title: 'Link',
      type: 'string',
      description: 'Where "learn more" goes: a site path such as /services#market-entry or a full https:// address.',
      validation: (rule) =>
        rule.custom((value: string | undefined) =>
          value === undefined || isValidHref(value)
            ? true
            : 'Use a site path starting with "/" or a full https:// address.',
        ),
    }),
    defineField({
      name: 'linkText',
      title: 'Link text',
      type: 'localeString',
      validation: (rule) =>
        rule.custom((value: { en?: string } | undefined, context) => {
          const link = (context.document as { link?: string } | undefined)?.link;
          return link && !value?.en ? 'Add the link text, or remove the link.' : true;
        }),
    }),
    orderField(),
  ],
  orderings: byOrder,
  preview: {
    select: { title: 'metric.en', value: 'value.en', trend: 'trend', category: 'category.en' },
    prepare: ({
      title,
      value,
      trend,
      category,
    }: {
      title?: string;
      value?: string;
      trend?: string;
      category?: string;
    }) => ({
      title,
      subtitle: [category, value, trend].filter(Boolean).join(' · '),
    }),
  },
});

export const homeBlockTypes = [testimonial, statistic, indicator];
