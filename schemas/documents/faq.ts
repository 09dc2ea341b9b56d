/** FAQ categories and their questions. */
import { defineField, defineType } from 'sanity';
import { FAQ_CATEGORY_KEYS } from '../constants';
import { keyField, orderField } from '../fields';

export const faqCategory = defineType({
  name: 'faqCategory',
  title: 'FAQ category',
  type: 'document',
  fields: [
    keyField(FAQ_CATEGORY_KEYS, 'Which FAQ section this is. Each exists once.'),
    defineField({ name: 'title', title: 'Title', type: 'localeString', validation: (rule) => rule.required() }),
    orderField(),
  ],
  orderings: [{ title: 'Display order', name: 'orderAsc', by: [{ field: 'order', direction: 'asc' }] }],
  preview: { select: { title: 'title.en', subtitle: 'key' } },
});

export const faqItem = defineType({
  name: 'faqItem',
  title: 'FAQ question',
  type: 'document',
  fields: [
    defineField({
      name: 'category',
      title: 'Category',
      type: 'reference',
      to: [{ type: 'faqCategory' }],
      validation: (rule) => rule.required(),
    }),
    defineField({ name: 'question', title: 'Question', type: 'localeString', validation: (rule) => rule.required() }),
    defineField({
      name: 'answer',
      title: 'Answer',
      type: 'localeText',
      description: 'Prices in the FAQ are quoted in AED.',
      validation: (rule) => rule.required(),
    }),
    defineField({ ...orderField(), description: 'Position within its category: lower numbers come first.' }),
  ],
  orderings: [
    {
      title: 'Category, then order',
      name: 'categoryOrder',
      by: [
        { field: 'category.order', direction: 'asc' },
        { field: 'order', direction: 'asc' },
      ],
    },
  ],
  preview: { select: { title: 'question.en', subtitle: 'category.title.en' } },
});
