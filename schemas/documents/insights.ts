/** Blog posts, categories and tags. */
import { defineArrayMember, defineField, defineType } from 'sanity';
import { BLOG_CATEGORY_SLUGS, BLOG_TAG_SLUGS } from '../constants';
import { localizedImageField } from '../objects/shared';
import { seoField, slugFromEnglishTitle, slugRule } from '../fields';
import { isHyphenSlug, isUnderscoreSlug } from '../validation';

export const blogCategory = defineType({
  name: 'blogCategory',
  title: 'Blog category',
  type: 'document',
  fields: [
    defineField({ name: 'title', title: 'Name', type: 'localeString', validation: (rule) => rule.required() }),
    defineField({
      name: 'slug',
      title: 'Address',
      type: 'slug',
      description: `Used in /blog/category/…: lowercase letters, digits and underscores. The site launched with ${BLOG_CATEGORY_SLUGS.join(', ')}.`,
      options: slugFromEnglishTitle('_'),
      validation: slugRule(isUnderscoreSlug, 'Use lowercase letters, digits and underscores, e.g. market_insights.'),
    }),
    defineField({ name: 'description', title: 'Description', type: 'localeText' }),
  ],
  preview: { select: { title: 'title.en', subtitle: 'slug.current' } },
});

export const blogTag = defineType({
  name: 'blogTag',
  title: 'Blog tag',
  type: 'document',
  fields: [
    defineField({ name: 'title', title: 'Name', type: 'localeString', validation: (rule) => rule.required() }),
    defineField({
      name: 'slug',
      title: 'Address',
      type: 'slug',
      description: `Used in /blog/tag/…: lowercase letters, digits and underscores. The site launched with ${BLOG_TAG_SLUGS.join(', ')}.`,
      options: slugFromEnglishTitle('_'),
      validation: slugRule(isUnderscoreSlug, 'Use lowercase letters, digits and underscores, e.g. free_zone.'),
    }),
  ],
  preview: { select: { title: 'title.en', subtitle: 'slug.current' } },
});

export const blogPost = defineType({
  name: 'blogPost',
  title: 'Blog post',
  type: 'document',
  groups: [
    { name: 'content', title: 'Content', default: true },
    { name: 'meta', title: 'Category & details' },
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
      name: 'slug',
      title: 'Address',
      type: 'slug',
      group: 'content',
      description:
        'The article address after /blog/. Generate it from the English title; avoid changing it once published.',
      options: slugFromEnglishTitle('-'),
      validation: slugRule(isHyphenSlug, 'Use lowercase words joined by hyphens, e.g. uae-free-zone-guide.'),
    }),
    defineField({
      name: 'excerpt',
      title: 'Excerpt',
      type: 'localeText',
      group: 'content',
      description: 'Two or three sentences shown on the blog list and in search results.',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'body',
      title: 'Article',
      type: 'localeBlockContent',
      group: 'content',
      validation: (rule) => rule.required(),
    }),
    localizedImageField({
      name: 'coverImage',
      title: 'Cover image',
      group: 'content',
      description: 'Shown on the blog list and at the top of the article.',
    }),
    defineField({
      name: 'category',
      title: 'Category',
      type: 'reference',
      group: 'meta',
      to: [{ type: 'blogCategory' }],
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'tags',
      title: 'Tags',
      type: 'array',
      group: 'meta',
      of: [defineArrayMember({ type: 'reference', to: [{ type: 'blogTag' }] })],
      validation: (rule) => rule.unique(),
    }),
    defineField({
      name: 'author',
      title: 'Author',
      type: 'localeString',
      group: 'meta',
      description: 'The name shown with the article.',
    }),
    defineField({
      name: 'publishedAt',
      title: 'Publication date',
      type: 'datetime',
      group: 'meta',
      description: 'Articles are listed newest first by this date.',
      initialValue: () => new Date().toISOString(),
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'featured',
      title: 'Featured',
      type: 'boolean',
      group: 'meta',
      description: 'Show this article in the featured spot at the top of the blog.',
      initialValue: false,
    }),
    seoField(),
  ],
  orderings: [{ title: 'Newest first', name: 'publishedAtDesc', by: [{ field: 'publishedAt', direction: 'desc' }] }],
  preview: {
    select: {
      title: 'title.en',
      category: 'category.title.en',
      publishedAt: 'publishedAt',
      featured: 'featured',
      media: 'coverImage',
    },
    prepare: ({
      title,
      category,
      publishedAt,
      featured,
      media,
    }: {
      title?: string;
      category?: string;
      publishedAt?: string;
      featured?: boolean;
      media?: unknown;
    }) => ({
      title,
      subtitle: [featured ? '★ Featured' : undefined, category, publishedAt?.slice(0, 10)].filter(Boolean).join(' · '),
      media: media as never,
    }),
  },
});

export const insightTypes = [blogPost, blogCategory, blogTag];
