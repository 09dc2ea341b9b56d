/** Site-wide settings, the page singletons, landing pages, legal pages and offices. */
import { defineArrayMember, defineField, defineType } from 'sanity';
// The landing page's path (its preview subtitle) comes from `landingKey` in the route table.
import { landingPagePaths } from '../../app/route-table.js';
import { LANDING_PAGE_KEYS, LEGAL_PAGE_SLUGS, OFFICE_KEYS } from '../constants';
import { keyField, localeStringListField, orderField, seoField, slugRule } from '../fields';
import { localizedImageField } from '../objects/shared';
import { isInternationalPhone, isWhatsappNumber } from '../validation';

const phoneRule = (value: string | undefined) =>
  value === undefined || isInternationalPhone(value)
    ? true
    : 'Use the international format with a country code, e.g. +971 4 555 0142.';

const whatsappRule = (value: string | undefined) =>
  value === undefined || isWhatsappNumber(value)
    ? true
    : 'Digits only, starting with the country code, no "+" or spaces, e.g. 971505550142.';

export const siteSettings = defineType({
  name: 'siteSettings',
  title: 'Site settings',
  type: 'document',
  groups: [
    { name: 'brand', title: 'Brand', default: true },
    { name: 'contact', title: 'Contact & booking' },
    { name: 'navigation', title: 'Navigation' },
    { name: 'seo', title: 'Search & sharing' },
  ],
  fields: [
    defineField({
      name: 'brandName',
      title: 'Brand name',
      type: 'localeString',
      group: 'brand',
      description: 'The company name, shown in the header when the logo cannot load, in the footer and in page titles.',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'tagline',
      title: 'Tagline',
      type: 'localeText',
      group: 'brand',
      description: 'One or two sentences about the firm, shown in the footer.',
    }),
    localizedImageField({
      name: 'logo',
      title: 'Logo',
      group: 'brand',
      description: 'Shown in the header and footer. A wide PNG on a transparent background works best.',
    }),
    defineField({
      name: 'contactEmail',
      title: 'Contact email',
      type: 'string',
      group: 'contact',
      description: 'The general enquiries address shown on the site.',
      validation: (rule) => rule.required().email(),
    }),
    defineField({
      name: 'contactPhone',
      title: 'Contact phone',
      type: 'string',
      group: 'contact',
      description: 'Shown on the site as written, with the country code: +971 4 555 0142.',
      validation: (rule) => rule.custom(phoneRule),
    }),
    defineField({
      name: 'whatsappNumber',
      title: 'WhatsApp number (chat button)',
      type: 'string',
      group: 'contact',
      description:
        'The number the floating chat button opens. Digits only, starting with the country code: 971505550142.',
      validation: (rule) => rule.required().custom(whatsappRule),
    }),
    defineField({
      name: 'whatsappMessage',
      title: 'WhatsApp greeting (chat button)',
      type: 'localeText',
      group: 'contact',
      description: 'The message typed in for the visitor when the chat opens. They can change it before sending.',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'bookingWhatsappNumber',
      title: 'WhatsApp number (booking dialog)',
      type: 'string',
      group: 'contact',
      description: 'The number behind the "WhatsApp Us" button in the booking dialog. Digits only, country code first.',
      validation: (rule) => rule.required().custom(whatsappRule),
    }),
    defineField({
      name: 'bookingWhatsappMessage',
      title: 'WhatsApp greeting (booking dialog)',
      type: 'localeText',
      group: 'contact',
      description: 'The message prepared for visitors who choose WhatsApp in the booking dialog.',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'schedulingUrl',
      title: 'Scheduling page',
      type: 'url',
      group: 'contact',
      description:
        'The booking page of the scheduling service (for example a Calendly link) embedded in the booking dialog.',
      validation: (rule) => rule.required().uri({ scheme: ['https'] }),
    }),
    defineField({
      name: 'showTestBookingLink',
      title: 'Show "Test Direct Link" button',
      type: 'boolean',
      group: 'contact',
      description:
        'Shows a button in the booking dialog that opens the confirmation page with test parameters. Keep off on the live site.',
      initialValue: false,
    }),
    defineField({
      name: 'headerNavigation',
      title: 'Header menu',
      type: 'array',
      group: 'navigation',
      description: 'The links in the header and the mobile menu, in order.',
      of: [defineArrayMember({ type: 'navLink' })],
      validation: (rule) => rule.required().min(1),
    }),
    defineField({
      name: 'footerNavigation',
      title: 'Footer links',
      type: 'array',
      group: 'navigation',
      description: 'The main links in the footer. The service links are added automatically.',
      of: [defineArrayMember({ type: 'navLink' })],
    }),
    defineField({
      name: 'legalNavigation',
      title: 'Legal links',
      type: 'array',
      group: 'navigation',
      description: 'Privacy, terms and cookies links at the bottom of the footer.',
      of: [defineArrayMember({ type: 'navLink' })],
    }),
    defineField({
      name: 'seo',
      title: 'Default search & sharing',
      type: 'seo',
      group: 'seo',
      description: 'Used by every page that does not set its own title, description or sharing image.',
    }),
  ],
  preview: {
    select: { title: 'brandName.en', media: 'logo' },
    prepare: ({ title, media }) => ({ title: 'Site settings', subtitle: title, media }),
  },
});

export const office = defineType({
  name: 'office',
  title: 'Office',
  type: 'document',
  fields: [
    keyField(OFFICE_KEYS, 'Which office this is. Each office exists once.'),
    defineField({ name: 'city', title: 'City', type: 'localeString', validation: (rule) => rule.required() }),
    defineField({ name: 'country', title: 'Country', type: 'localeString', validation: (rule) => rule.required() }),
    defineField({
      name: 'address',
      title: 'Address',
      type: 'localeText',
      description: 'Street address as it should appear in the footer.',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'phone',
      title: 'Phone',
      type: 'string',
      description: 'With the country code: +971 4 555 0142.',
      validation: (rule) => rule.custom(phoneRule),
    }),
    defineField({ name: 'email', title: 'Email', type: 'string', validation: (rule) => rule.email() }),
    defineField({
      name: 'hours',
      title: 'Opening hours',
      type: 'localeString',
      description: 'For example "Mon–Fri, 9:00–18:00 GST".',
    }),
    orderField(),
  ],
  orderings: [{ title: 'Display order', name: 'orderAsc', by: [{ field: 'order', direction: 'asc' }] }],
  preview: { select: { title: 'city.en', subtitle: 'country.en' } },
});

export const homePage = defineType({
  name: 'homePage',
  title: 'Home page',
  type: 'document',
  groups: [
    { name: 'hero', title: 'Hero', default: true },
    { name: 'sections', title: 'Sections' },
    { name: 'seo', title: 'Search & sharing' },
  ],
  fields: [
    defineField({
      name: 'hero',
      title: 'Hero',
      type: 'object',
      group: 'hero',
      description: 'The first screen of the home page.',
      options: { collapsible: false },
      validation: (rule) => rule.required(),
      fields: [
        defineField({
          name: 'headline',
          title: 'Headline',
          type: 'localeString',
          description: 'The main heading, e.g. "Your Gateway to Business Success in the UAE".',
          validation: (rule) => rule.required(),
        }),
        defineField({
          name: 'highlight',
          title: 'Highlighted word',
          type: 'localeString',
          description:
            'The word of the headline shown in gold ("UAE" / "الإمارات"). It must appear in the headline exactly as typed.',
          validation: (rule) =>
            rule.custom((value: { en?: string; ar?: string } | undefined, context) => {
              const headline = (context.parent as { headline?: { en?: string; ar?: string } } | undefined)?.headline;
              const problems: string[] = [];
              for (const [lang, label] of [
                ['en', 'English'],
                ['ar', 'Arabic'],
              ] as const) {
                const word = value?.[lang]?.trim();
                const text = headline?.[lang];
                if (word && text && !text.includes(word))
                  problems.push(`The ${label} highlight "${word}" does not appear in the ${label} headline.`);
              }
              return problems.length ? problems.join(' ') : true;
            }),
        }),
        defineField({ name: 'subtitle', title: 'Subtitle', type: 'localeText', validation: (rule) => rule.required() }),
        defineField({
          name: 'trustedLine',
          title: 'Trusted-partner line',
          type: 'localeString',
          description: 'A short line under the buttons, e.g. "Trusted by 500+ businesses".',
        }),
        localizedImageField({ name: 'image', title: 'Image', description: 'The picture beside the list of reasons.' }),
        defineField({
          name: 'reasonsTitle',
          title: 'Reasons title',
          type: 'localeString',
          description: 'Heading over the list of reasons beside the image, e.g. "Why the UAE?".',
        }),
        localeStringListField('reasons', 'Reasons', 'Short reasons to choose the UAE, one per line.'),
      ],
    }),
    defineField({
      name: 'businessesLaunched',
      title: 'Businesses launched claim',
      type: 'localeString',
      group: 'hero',
      description: 'For example "500+ businesses launched".',
    }),
    localeStringListField(
      'claims',
      'Claims',
      'Short proof points shown near the hero, such as "150+ companies" or "10+ years of experience".',
      { group: 'hero' },
    ),
    defineField({
      name: 'servicesIntro',
      title: 'Services overview',
      type: 'object',
      group: 'sections',
      validation: (rule) => rule.required(),
      fields: [
        defineField({ name: 'title', title: 'Title', type: 'localeString', validation: (rule) => rule.required() }),
        defineField({ name: 'subtitle', title: 'Subtitle', type: 'localeText' }),
      ],
    }),
    defineField({
      name: 'strategyCta',
      title: 'Strategy session call-to-action',
      type: 'object',
      group: 'sections',
      description: 'The "Schedule a Strategy Session" box under the services.',
      validation: (rule) => rule.required(),
      fields: [
        defineField({ name: 'title', title: 'Title', type: 'localeString', validation: (rule) => rule.required() }),
        defineField({ name: 'text', title: 'Text', type: 'localeText' }),
        localeStringListField('options', 'Options', 'What a session can cover, one per line.'),
      ],
    }),
    defineField({
      name: 'testimonialsTitle',
      title: 'Testimonials title',
      type: 'localeString',
      group: 'sections',
      description: 'Heading over the testimonials (the testimonials themselves are under Home blocks).',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'statisticsTitle',
      title: 'Statistics title',
      type: 'localeString',
      group: 'sections',
      description: 'Heading over the market statistics cards.',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'indicatorsTitle',
      title: 'Indicators title',
      type: 'localeString',
      group: 'sections',
      description: 'Heading over the strategic indicators table.',
      validation: (rule) => rule.required(),
    }),
    seoField(),
  ],
  preview: { prepare: () => ({ title: 'Home page' }) },
});

export const aboutPage = defineType({
  name: 'aboutPage',
  title: 'About page',
  type: 'document',
  groups: [
    { name: 'content', title: 'Content', default: true },
    { name: 'seo', title: 'Search & sharing' },
  ],
  fields: [
    defineField({
      name: 'title',
      title: 'Title',
      type: 'localeString',
      group: 'content',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'intro',
      title: 'Introduction',
      type: 'localeText',
      group: 'content',
      description: 'The opening paragraph under the title.',
    }),
    defineField({ name: 'body', title: 'Story', type: 'localeBlockContent', group: 'content' }),
    defineField({ name: 'mission', title: 'Mission', type: 'localeText', group: 'content' }),
    defineField({ name: 'vision', title: 'Vision', type: 'localeText', group: 'content' }),
    defineField({
      name: 'values',
      title: 'Values',
      type: 'array',
      group: 'content',
      of: [
        defineArrayMember({
          name: 'aboutValue',
          title: 'Value',
          type: 'object',
          fields: [
            defineField({ name: 'title', title: 'Title', type: 'localeString', validation: (rule) => rule.required() }),
            defineField({ name: 'text', title: 'Text', type: 'localeText' }),
          ],
          preview: { select: { title: 'title.en', subtitle: 'text.en' } },
        }),
      ],
    }),
    localeStringListField('claims', 'Claims', 'Short proof points such as "500+ businesses launched".', {
      group: 'content',
    }),
    localizedImageField({ name: 'image', title: 'Image', group: 'content' }),
    seoField(),
  ],
  preview: { prepare: () => ({ title: 'About page' }) },
});

export const landingPage = defineType({
  name: 'landingPage',
  title: 'Landing page',
  type: 'document',
  groups: [
    { name: 'content', title: 'Content', default: true },
    { name: 'seo', title: 'Search & sharing' },
  ],
  fields: [
    {
      ...keyField(LANDING_PAGE_KEYS, 'Which page of the site this text belongs to. Each page exists once.'),
      group: 'content',
    },
    defineField({
      name: 'title',
      title: 'Title',
      type: 'localeString',
      group: 'content',
      description: 'The heading at the top of the page.',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'intro',
      title: 'Introduction',
      type: 'localeText',
      group: 'content',
      description: 'The paragraph under the heading.',
    }),
    seoField(),
  ],
  preview: {
    select: { title: 'title.en', key: 'key' },
    prepare: ({ title, key }: { title?: string; key?: string }) => ({
      title,
      subtitle: key ? (landingPagePaths[key] ?? key) : undefined,
    }),
  },
});

export const legalPage = defineType({
  name: 'legalPage',
  title: 'Legal page',
  type: 'document',
  groups: [
    { name: 'content', title: 'Content', default: true },
    { name: 'seo', title: 'Search & sharing' },
  ],
  fields: [
    defineField({
      name: 'slug',
      title: 'Address',
      type: 'slug',
      group: 'content',
      description: 'The page address: privacy-policy, terms-of-service or cookies-policy.',
      options: { source: 'title.en' },
      validation: slugRule(
        (value) => LEGAL_PAGE_SLUGS.some((option) => option.value === value),
        `Must be one of: ${LEGAL_PAGE_SLUGS.map((option) => option.value).join(', ')}.`,
      ),
    }),
    defineField({
      name: 'title',
      title: 'Title',
      type: 'localeString',
      group: 'content',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'body',
      title: 'Text',
      type: 'localeBlockContent',
      group: 'content',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'updatedAt',
      title: 'Last updated',
      type: 'date',
      group: 'content',
      description: 'Shown as "Last updated" on the page. Change it whenever the text changes materially.',
    }),
    seoField(),
  ],
  preview: {
    select: { title: 'title.en', slug: 'slug.current', updatedAt: 'updatedAt' },
    prepare: ({ title, slug, updatedAt }: { title?: string; slug?: string; updatedAt?: string }) => ({
      title,
      subtitle: [slug ? `/${slug}` : undefined, updatedAt ? `updated ${updatedAt}` : undefined]
        .filter(Boolean)
        .join(' · '),
    }),
  },
});

export const siteTypes = [siteSettings, homePage, aboutPage, landingPage, legalPage, office];
