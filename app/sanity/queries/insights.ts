import { z } from 'zod';
import {
  image,
  landing,
  loc,
  localizedList,
  localizedListSchema,
  namedQuery,
  optionalTexts,
  portableText,
  portableTextSchema,
  seo,
} from '../groq';

/**
 * Queries of the blog and the case studies. Every localized field is read in GROQ with an
 * English fallback; slugs, page slices and the language are GROQ params.
 *
 * They are written to stay fast as the blog grows (bench/content-scale.mjs, 1,000 posts):
 * lists are sliced in GROQ with a count beside them, never read whole; a value every post is
 * compared with (the featured post's id, the post's own terms) is computed once in an outer
 * scope and read with `^`, not as a sub-query inside the filter (groq-js would run it again
 * for every post); posts are matched to terms by their reference ids (`category._ref`,
 * `tags[]._ref`), not with `references()`, which walks every post's whole body.
 */

/** Only what the reading time needs from a body: the text of its spans. */
const readBody = `coalesce(coalesce(body[$lang], body.en)[_type == "block"]{ _type, _key, "children": children[]{ _type, text } }, [])`;

const term = `{ _id, "slug": slug.current, "title": ${loc('title')} }`;

/** What a post's card and its page both show. */
const postFields = `
  _id,
  "slug": slug.current,
  "title": ${loc('title')},
  "excerpt": ${loc('excerpt')},
  "author": ${loc('author')},
  publishedAt,
  "coverImage": coverImage${image.projection},
  "category": category->${term}`;

const postCard = `{${postFields},
  "readBody": ${readBody}
}`;

const readBodySchema = z.array(
  z.object({
    _type: z.string(),
    _key: z.string(),
    children: z.array(z.object({ _type: z.string(), text: z.string().nullable().optional() })).nullable(),
  }),
);

const termSchema = z.object({ _id: z.string(), slug: z.string(), title: z.string() });

const postFieldsSchema = z.object({
  _id: z.string(),
  slug: z.string(),
  title: z.string(),
  excerpt: z.string().nullable(),
  author: z.string().nullable(),
  publishedAt: z.string(),
  coverImage: image.schema.nullable(),
  category: termSchema.nullable(),
});

export const postCardSchema = postFieldsSchema.extend({ readBody: readBodySchema });
export type PostCardRaw = z.infer<typeof postCardSchema>;

/** Tags with their number of published posts, most used first. */
const tagsWithCounts = `*[_type == "blogTag"]{
  _id, "slug": slug.current, "title": ${loc('title')},
  "count": count(*[_type == "blogPost" && ^._id in tags[]._ref])
}[count > 0] | order(count desc, title asc)`;

const categoriesWithCounts = `*[_type == "blogCategory"]{
  _id, "slug": slug.current, "title": ${loc('title')},
  "count": count(*[_type == "blogPost" && category._ref == ^._id])
} | order(title asc)`;

/** Newest first; the id breaks ties so that pages never overlap. */
const newestFirst = `order(publishedAt desc, _id asc)`;

const countedTermSchema = termSchema.extend({ count: z.number() });
export type CountedTerm = z.infer<typeof countedTermSchema>;

/**
 * /blog: intro, the featured post (the newest one marked featured), one page of the other
 * posts (newest first) with their number, popular tags, categories. The featured post's id
 * is computed once, in the outer object, and read as `^.featuredId`.
 */
export const BLOG_INDEX_QUERY = namedQuery(
  'blogIndex',
  `{ "featuredId": *[_type == "blogPost" && featured == true] | order(publishedAt desc)[0]._id }{
    "page": ${landing.page('blog')},
    "featured": *[_type == "blogPost" && _id == ^.featuredId][0]${postCard},
    "total": count(*[_type == "blogPost" && _id != ^.featuredId]),
    "posts": *[_type == "blogPost" && _id != ^.featuredId] | ${newestFirst}[$start...$end]${postCard},
    "popularTags": ${tagsWithCounts}[0...$tagLimit],
    "categories": ${categoriesWithCounts}
  }`,
  z.object({
    page: landing.schema,
    featured: postCardSchema.nullable(),
    total: z.number(),
    posts: z.array(postCardSchema),
    popularTags: z.array(countedTermSchema),
    categories: z.array(countedTermSchema),
  }),
);

/**
 * /blog/category/{slug}: the category, one page of its posts and their number (null for an
 * unknown slug), the categories. The posts are read inside the category, by its id.
 */
export const BLOG_CATEGORY_QUERY = namedQuery(
  'blogCategory',
  `{
    "category": *[_type == "blogCategory" && slug.current == $slug][0]{
      _id, "slug": slug.current, "title": ${loc('title')}, "description": ${loc('description')},
      "total": count(*[_type == "blogPost" && category._ref == ^._id]),
      "posts": *[_type == "blogPost" && category._ref == ^._id] | ${newestFirst}[$start...$end]${postCard}
    },
    "blogTitle": ${landing.field('blog', 'title')},
    "categories": ${categoriesWithCounts}
  }`,
  z.object({
    category: termSchema
      .extend({ description: z.string().nullable(), total: z.number(), posts: z.array(postCardSchema) })
      .nullable(),
    blogTitle: z.string().nullable(),
    categories: z.array(countedTermSchema),
  }),
);

/** /blog/tag/{slug}: the tag, one page of its posts and their number (null for an unknown slug), popular tags. */
export const BLOG_TAG_QUERY = namedQuery(
  'blogTag',
  `{
    "tag": *[_type == "blogTag" && slug.current == $slug][0]{
      _id, "slug": slug.current, "title": ${loc('title')},
      "total": count(*[_type == "blogPost" && ^._id in tags[]._ref]),
      "posts": *[_type == "blogPost" && ^._id in tags[]._ref] | ${newestFirst}[$start...$end]${postCard}
    },
    "blogTitle": ${landing.field('blog', 'title')},
    "popularTags": ${tagsWithCounts}[0...$tagLimit]
  }`,
  z.object({
    tag: termSchema.extend({ total: z.number(), posts: z.array(postCardSchema) }).nullable(),
    blogTitle: z.string().nullable(),
    popularTags: z.array(countedTermSchema),
  }),
);

/**
 * Related articles of a post: other posts in its category or sharing tags, best match first.
 * A shared category counts as much as two shared tags; ties go to the newer post. Written for
 * the post's projection, where `^` is the post; each candidate's `^.^` inside `tags[...]` is too.
 */
const relatedPosts = `*[_type == "blogPost" && _id != ^._id && (
    (defined(category._ref) && category._ref == ^.category._ref) || count(tags[_ref in ^.^.tags[]._ref]) > 0
  )]{
    ...,
    "score": select(defined(category._ref) && category._ref == ^.category._ref => 2, 0) + count(tags[_ref in ^.^.tags[]._ref])
  } | order(score desc, publishedAt desc, _id asc)[0...$relatedLimit]${postCard}`;

/** /blog/{slug}: the article, its terms, and its related articles ($relatedLimit of them). */
export const BLOG_POST_QUERY = namedQuery(
  'blogPost',
  `{
    "post": *[_type == "blogPost" && slug.current == $slug][0]{${postFields},
      _updatedAt,
      "tags": coalesce((tags[]->${term})[defined(slug)], []),
      "body": coalesce(${portableText('body')}, []),
      ${seo.projection},
      "related": ${relatedPosts}
    },
    "blogTitle": ${landing.field('blog', 'title')},
    "site": *[_type == "siteSettings" && _id == "siteSettings"][0]{ "brandName": ${loc('brandName')}, "logo": logo${image.projection} }
  }`,
  z.object({
    post: postFieldsSchema
      .extend({
        _updatedAt: z.string().nullable().optional(),
        tags: z.array(termSchema),
        body: portableTextSchema,
        seo: seo.schema,
        related: z.array(postCardSchema),
      })
      .nullable(),
    blogTitle: z.string().nullable(),
    site: z.object({ brandName: z.string(), logo: image.schema.nullable() }).nullable(),
  }),
);

const caseStudyTexts = optionalTexts('excerpt', 'client', 'industry', 'location');

const caseStudyCard = `{
  _id,
  key,
  "slug": slug.current,
  "title": ${loc('title')},
  ${caseStudyTexts.projection},
  "coverImage": coverImage${image.projection}
}`;

const caseStudyCardSchema = z.object({
  _id: z.string(),
  key: z.string().nullable(),
  slug: z.string(),
  title: z.string(),
  ...caseStudyTexts.shape,
  coverImage: image.schema.nullable(),
});
export type CaseStudyCard = z.infer<typeof caseStudyCardSchema>;

/** /case-studies: intro and every case study in order. */
export const CASE_STUDIES_QUERY = namedQuery(
  'caseStudies',
  `{
    "page": ${landing.page('caseStudies')},
    "items": *[_type == "caseStudy"] | order(order asc)${caseStudyCard}
  }`,
  z.object({ page: landing.schema, items: z.array(caseStudyCardSchema) }),
);

const studyTexts = optionalTexts('challenge', 'solution');
const studyTestimonial = optionalTexts('quote', 'author', 'position');

/** /case-studies/{slug}: one case study in full, and the others to read next. */
export const CASE_STUDY_QUERY = namedQuery(
  'caseStudy',
  `{
    "study": *[_type == "caseStudy" && slug.current == $slug][0]{
      ...${caseStudyCard},
      ${studyTexts.projection},
      ${localizedList('results')},
      "testimonial": testimonial{ ${studyTestimonial.projection} },
      ${seo.projection}
    },
    "listTitle": ${landing.field('caseStudies', 'title')},
    "others": *[_type == "caseStudy" && slug.current != $slug] | order(order asc)${caseStudyCard}
  }`,
  z.object({
    study: caseStudyCardSchema
      .extend({
        ...studyTexts.shape,
        results: localizedListSchema,
        testimonial: z.object(studyTestimonial.shape).nullable(),
        seo: seo.schema,
      })
      .nullable(),
    listTitle: z.string().nullable(),
    others: z.array(caseStudyCardSchema),
  }),
);
