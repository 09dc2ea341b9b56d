/** Advisory services, company setup options and the monthly packages. */
import { defineField, defineType } from 'sanity';
import {
  COMPANY_SETUP_KEYS,
  PACKAGE_KEYS,
  SERVICE_ANCHORS,
  SERVICE_ANCHOR_BY_KEY,
  SERVICE_COLORS,
  SERVICE_ICONS,
  SERVICE_KEYS,
} from '../constants';
import { keyField, localeStringListField, orderField } from '../fields';

const byOrder = [{ title: 'Display order', name: 'orderAsc', by: [{ field: 'order', direction: 'asc' as const }] }];

export const service = defineType({
  name: 'service',
  title: 'Service',
  type: 'document',
  fields: [
    keyField(SERVICE_KEYS, 'Which of the six services this is. Each service exists once.'),
    defineField({
      name: 'anchor',
      title: 'Section id on /services',
      type: 'string',
      description: 'Links such as /services#market-entry scroll to this service. Must match the key.',
      options: { list: SERVICE_ANCHORS },
      validation: (rule) =>
        rule.required().custom((value: string | undefined, context) => {
          const key = (context.document as { key?: string } | undefined)?.key;
          const expected = key ? SERVICE_ANCHOR_BY_KEY[key as keyof typeof SERVICE_ANCHOR_BY_KEY] : undefined;
          return !value || !expected || value === expected
            ? true
            : `The ${key} service uses the section id "${expected}".`;
        }),
    }),
    defineField({
      name: 'icon',
      title: 'Icon',
      type: 'string',
      description: 'The icon on the home page card.',
      options: { list: SERVICE_ICONS, layout: 'dropdown' },
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'color',
      title: 'Card colour',
      type: 'string',
      description: 'Accent colour of the home page card.',
      options: { list: SERVICE_COLORS, layout: 'dropdown' },
      validation: (rule) => rule.required(),
    }),
    defineField({ name: 'title', title: 'Title', type: 'localeString', validation: (rule) => rule.required() }),
    defineField({
      name: 'summary',
      title: 'Card text',
      type: 'localeText',
      description: 'One or two sentences for the card on the home page.',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'description',
      title: 'Description',
      type: 'localeText',
      description: 'The fuller description on the Services page.',
      validation: (rule) => rule.required(),
    }),
    localeStringListField('features', 'What is included', 'The bullet points listed under the service, one per line.', {
      min: 1,
    }),
    orderField(),
  ],
  orderings: byOrder,
  preview: {
    select: { title: 'title.en', anchor: 'anchor' },
    prepare: ({ title, anchor }: { title?: string; anchor?: string }) => ({
      title,
      subtitle: anchor ? `/services#${anchor}` : undefined,
    }),
  },
});

export const companySetupOption = defineType({
  name: 'companySetupOption',
  title: 'Company setup option',
  type: 'document',
  fields: [
    keyField(COMPANY_SETUP_KEYS, 'Which setup route this is. Each exists once.'),
    defineField({ name: 'title', title: 'Title', type: 'localeString', validation: (rule) => rule.required() }),
    defineField({
      name: 'description',
      title: 'Description',
      type: 'localeText',
      validation: (rule) => rule.required(),
    }),
    orderField(),
  ],
  orderings: byOrder,
  preview: { select: { title: 'title.en', subtitle: 'key' } },
});

export const packagePlan = defineType({
  name: 'packagePlan',
  title: 'Package',
  type: 'document',
  fields: [
    keyField(PACKAGE_KEYS, 'Which package this is. Each exists once.'),
    defineField({ name: 'name', title: 'Name', type: 'localeString', validation: (rule) => rule.required() }),
    defineField({
      name: 'description',
      title: 'Description',
      type: 'localeText',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'timeCommitment',
      title: 'Time commitment',
      type: 'localeString',
      description: 'For example "4 consultation hours per month".',
    }),
    defineField({
      name: 'consultationHours',
      title: 'Consultation hours per month',
      type: 'number',
      validation: (rule) => rule.required().integer().min(1),
    }),
    defineField({
      name: 'businessReports',
      title: 'Business reports',
      type: 'number',
      description: 'How many business reports the package includes (up to).',
      validation: (rule) => rule.integer().min(1),
    }),
    defineField({
      name: 'popularLabel',
      title: '"Most popular" label',
      type: 'localeString',
      description: 'Fill in only on the package to highlight (Business); leave empty on the others.',
    }),
    localeStringListField('keyAreas', 'Key areas', 'Areas the package focuses on. Used on the Starter package only.'),
    defineField({ name: 'bestFor', title: 'Best for', type: 'localeText', description: 'Who the package suits.' }),
    localeStringListField('features', 'Features', 'What the package includes, one per line.', { min: 1 }),
    defineField({
      name: 'priceSgd',
      title: 'Price per month (SGD)',
      type: 'number',
      description: 'In Singapore dollars, per month, without the currency sign: 1500.',
      validation: (rule) => rule.required().greaterThan(0),
    }),
    defineField({
      name: 'paymentLink',
      title: 'Payment link',
      type: 'url',
      description: 'The card-payment checkout page for this package (https://…).',
      validation: (rule) => rule.uri({ scheme: ['https'] }),
    }),
    defineField({
      name: 'stripePriceId',
      title: 'Stripe price id',
      type: 'string',
      description:
        'The monthly price of this package in Stripe (price_…), used when the site takes payments through Stripe. Leave empty to use the STRIPE_PRICE_* setting of the server.',
      validation: (rule) =>
        rule.custom(
          (value?: string) => !value || /^price_[A-Za-z0-9_]+$/.test(value) || 'A Stripe price id starts with price_',
        ),
    }),
    orderField(),
  ],
  orderings: byOrder,
  preview: {
    select: { title: 'name.en', price: 'priceSgd' },
    prepare: ({ title, price }: { title?: string; price?: number }) => ({
      title,
      subtitle: typeof price === 'number' ? `SGD ${price.toLocaleString('en')} / month` : 'No price yet',
    }),
  },
});

export const serviceTypes = [service, companySetupOption, packagePlan];
