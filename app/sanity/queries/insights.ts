import { z } from 'zod';
import { defineQuery, imageProjection, imageSchema, loc, portableText, portableTextSchema } from '../groq';

/**
 * Queries of the blog and the case studies. Every localized field is read in GROQ with an
 * English fallback; slugs, page slices and the language are GROQ params.
 */

/** Only what the reading time needs from a body: the text of its spans. */
const readBody = `coalesce(coalesce(body[$lang], body.en)[_type == "block"]{ _type, _key, "children": children[]{ _type, text } }, [])`;

const postCard = `{
  _id,
  "slug": slug.current,
  "title": ${loc('title')},
  "excerpt": ${loc('excerpt')},
  "author": ${loc('author')},
  publishedAt,
  "coverImage": coverImage${imageProjection},
  "category": category->{ _id, "slug": slug.current, "title": ${loc('title')} },
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

export const postCardSchema = z.object({
  _id: z.string(),
  slug: z.string(),
  title: z.string(),
  excerpt: z.string().nullable(),
  author: z.string().nullable(),
  publishedAt: z.string(),
  coverImage: imageSchema.nullable(),
  category: termSchema.nullable(),
  readBody: readBodySchema,
});
export type PostCardRaw = z.infer<typeof postCardSchema>;

const seoFields = `"seo": { "title": ${loc('seo.title')}, "description": ${loc('seo.description')} }`;
const seoSchema = z.object({ title: z.string().nullable(), description: z.string().nullable() });

/** One localized field of one document, as a string. */
const fieldOf = (id: string, field: string) => `*[_type == "landingPage" && _id == "${id}"][0]{ "v": ${loc(field)} }.v`;

const landing = (key: string) => `*[_type == "landingPage" && _id == "landingPage-${key}"][0]{ "title": ${loc('title')}, "intro": ${loc('intro')}, ${seoFields} }`;
const landingSchema = z.object({ title: z.string(), intro: z.string().nullable(), seo: seoSchema });

/** Tags with their number of published posts, most used first. */
const tagsWithCounts = `*[_type == "blogTag"]{
  _id, "slug": slug.current, "title": ${loc('title')},
  "count": count(*[_type == "blogPost" && references(^._id)])
}[count > 0] | order(count desc, title asc)`;

const categoriesWithCounts = `*[_type == "blogCategory"]{
  _id, "slug": slug.current, "title": ${loc('title')},
  "count": count(*[_type == "blogPost" && references(^._id)])
} | order(title asc)`;

const countedTermSchema = termSchema.extend({ count: z.number() });
export type CountedTerm = z.infer<typeof countedTermSchema>;

/** The featured post: the newest one marked featured. */
const featuredId = `*[_type == "blogPost" && featured == true] | order(publishedAt desc)[0]._id`;

/** /blog: intro, the featured post, one page of the other posts (newest first), popular tags, categories. */
export const BLOG_INDEX_QUERY = defineQuery(
  'blogIndex',
  `{
    "page": ${landing('blog')},
    "featured": *[_type == "blogPost" && featured == true] | order(publishedAt desc)[0]${postCard},
    "total": count(*[_type == "blogPost" && _id != ${featuredId}]),
    "posts": *[_type == "blogPost" && _id != ${featuredId}] | order(publishedAt desc, _id asc)[$start...$end]${postCard},
    "popularTags": ${tagsWithCounts}[0...$tagLimit],
    "categories": ${categoriesWithCounts}
  }`,
  z.object({
    page: landingSchema,
    featured: postCardSchema.nullable(),
    total: z.number(),
    posts: z.array(postCardSchema),
    popularTags: z.array(countedTermSchema),
    categories: z.array(countedTermSchema),
  }),
);

/** /blog/category/{slug}: the category and one page of its posts. `category` is null for an unknown slug. */
export const BLOG_CATEGORY_QUERY = defineQuery(
  'blogCategory',
  `{
    "category": *[_type == "blogCategory" && slug.current == $slug][0]{ _id, "slug": slug.current, "title": ${loc('title')}, "description": ${loc('description')} },
    "blogTitle": ${fieldOf('landingPage-blog', 'title')},
    "total": count(*[_type == "blogPost" && category->slug.current == $slug]),
    "posts": *[_type == "blogPost" && category->slug.current == $slug] | order(publishedAt desc, _id asc)[$start...$end]${postCard},
    "categories": ${categoriesWithCounts}
  }`,
  z.object({
    category: termSchema.extend({ description: z.string().nullable() }).nullable(),
    blogTitle: z.string().nullable(),
    total: z.number(),
    posts: z.array(postCardSchema),
    categories: z.array(countedTermSchema),
  }),
);

/** /blog/tag/{slug}: the tag and one page of its posts. `tag` is null for an unknown slug. */
export const BLOG_TAG_QUERY = defineQuery(
  'blogTag',
  `{
    "tag": *[_type == "blogTag" && slug.current == $slug][0]{ _id, "slug": slug.current, "title": ${loc('title')} },
    "blogTitle": ${fieldOf('landingPage-blog', 'title')},
    "total": count(*[_type == "blogPost" && $slug in tags[]->slug.current]),
    "posts": *[_type == "blogPost" && $slug in tags[]->slug.current] | order(publishedAt desc, _id asc)[$start...$end]${postCard},
    "popularTags": ${tagsWithCounts}[0...$tagLimit]
  }`,
  z.object({
    tag: termSchema.nullable(),
    blogTitle: z.string().nullable(),
    total: z.number(),
    posts: z.array(postCardSchema),
    popularTags: z.array(countedTermSchema),
  }),
);

/** /blog/{slug}: the article, its terms, and the other posts to choose related ones from. */
export const BLOG_POST_QUERY = defineQuery(
  'blogPost',
  `{
    "post": *[_type == "blogPost" && slug.current == $slug][0]{
      _id,
      _updatedAt,
      "slug": slug.current,
      "title": ${loc('title')},
      "excerpt": ${loc('excerpt')},
      "author": ${loc('author')},
      publishedAt,
      "coverImage": coverImage${imageProjection},
      "category": category->{ _id, "slug": slug.current, "title": ${loc('title')} },
      "tags": coalesce((tags[]->{ _id, "slug": slug.current, "title": ${loc('title')} })[defined(slug)], []),
      "body": coalesce(${portableText('body')}, []),
      ${seoFields}
    },
    "blogTitle": ${fieldOf('landingPage-blog', 'title')},
    "site": *[_type == "siteSettings" && _id == "siteSettings"][0]{ "brandName": ${loc('brandName')}, "logo": logo${imageProjection} },
    "candidates": *[_type == "blogPost" && slug.current != $slug]{
      ...${postCard},
      "categoryId": category._ref,
      "tagIds": coalesce(tags[]._ref, [])
    }
  }`,
  z.object({
    post: z
      .object({
        _id: z.string(),
        _updatedAt: z.string().nullable().optional(),
        slug: z.string(),
        title: z.string(),
        excerpt: z.string().nullable(),
        author: z.string().nullable(),
        publishedAt: z.string(),
        coverImage: imageSchema.nullable(),
        category: termSchema.nullable(),
        tags: z.array(termSchema),
        body: portableTextSchema,
        seo: seoSchema,
      })
      .nullable(),
    blogTitle: z.string().nullable(),
    site: z.object({ brandName: z.string(), logo: imageSchema.nullable() }).nullable(),
    candidates: z.array(postCardSchema.extend({ categoryId: z.string().nullable(), tagIds: z.array(z.string()) })),
  }),
);

const caseStudyCard = `{
  _id,
  key,
  "slug": slug.current,
  "title": ${loc('title')},
  "excerpt": ${loc('excerpt')},
  "client": ${loc('client')},
  "industry": ${loc('industry')},
  "location": ${loc('location')},
  "coverImage": coverImage${imageProjection}
}`;

const caseStudyCardSchema = z.object({
  _id: z.string(),
  key: z.string().nullable(),
  slug: z.string(),
  title: z.string(),
  excerpt: z.string().nullable(),
  client: z.string().nullable(),
  industry: z.string().nullable(),
  location: z.string().nullable(),
  coverImage: imageSchema.nullable(),
});
export type CaseStudyCard = z.infer<typeof caseStudyCardSchema>;

/** /case-studies: intro and every case study in order. */
export const CASE_STUDIES_QUERY = defineQuery(
  'caseStudies',
  `{
    "page": ${landing('caseStudies')},
    "items": *[_type == "caseStudy"] | order(order asc)${caseStudyCard}
  }`,
  z.object({ page: landingSchema, items: z.array(caseStudyCardSchema) }),
);

/** /case-studies/{slug}: one case study in full, and the others to read next. */
export const CASE_STUDY_QUERY = defineQuery(
  'caseStudy',
  `{
    "study": *[_type == "caseStudy" && slug.current == $slug][0]{
      ...${caseStudyCard},
      "challenge": ${loc('challenge')},
      "solution": ${loc('solution')},
      "results": coalesce(results[]{ _key, "text": ${loc('@')} }, []),
      "testimonial": testimonial{ "quote": ${loc('quote')}, "author": ${loc('author')}, "position": ${loc('position')} },
      ${seoFields}
    },
    "listTitle": ${fieldOf('landingPage-caseStudies', 'title')},
    "others": *[_type == "caseStudy" && slug.current != $slug] | order(order asc)${caseStudyCard}
  }`,
  z.object({
    study: caseStudyCardSchema
      .extend({
        challenge: z.string().nullable(),
        solution: z.string().nullable(),
        results: z.array(z.object({ _key: z.string(), text: z.string() })),
        testimonial: z.object({ quote: z.string().nullable(), author: z.string().nullable(), position: z.string().nullable() }).nullable(),
        seo: seoSchema,
      })
      .nullable(),
    listTitle: z.string().nullable(),
    others: z.array(caseStudyCardSchema),
  }),
);
