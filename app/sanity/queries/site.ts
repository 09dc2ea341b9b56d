import { z } from 'zod';
import { landing, loc, namedQuery, portableText, portableTextSchema, seo } from '../groq';

/**
 * The site pages (FAQ, legal pages, booking confirmation) and the data behind the search
 * engine files (sitemap, SEO diagnostics): named queries, localized in GROQ with an
 * English fallback, each checked by its zod schema.
 */

/** /faq: the landing texts and the four categories with their questions, in order. */
export const FAQ_PAGE_QUERY = namedQuery(
  'faqPage',
  `{
    "page": ${landing.page('faq')},
    "categories": *[_type == "faqCategory"] | order(order asc){
      _id, key,
      "title": ${loc('title')},
      "items": *[_type == "faqItem" && category._ref == ^._id] | order(order asc){
        _id,
        "question": ${loc('question')},
        "answer": ${loc('answer')}
      }
    }
  }`,
  z.object({
    page: landing.schema.nullable(),
    categories: z.array(
      z.object({
        _id: z.string(),
        key: z.string(),
        title: z.string(),
        items: z.array(z.object({ _id: z.string(), question: z.string(), answer: z.string() })),
      }),
    ),
  }),
);
export type FaqPage = z.infer<typeof FAQ_PAGE_QUERY.schema>;

/** A legal page by slug (privacy-policy, terms-of-service, cookies-policy). */
export const LEGAL_PAGE_QUERY = namedQuery(
  'legalPage',
  `*[_type == "legalPage" && slug.current == $slug][0]{
    "slug": slug.current,
    "title": ${loc('title')},
    updatedAt,
    "body": coalesce(${portableText('body')}, []),
    ${seo.projection}
  }`,
  z
    .object({
      slug: z.string(),
      title: z.string(),
      updatedAt: z.string().nullable(),
      body: portableTextSchema,
      seo: seo.schema,
    })
    .nullable(),
);
export type LegalPage = NonNullable<z.infer<typeof LEGAL_PAGE_QUERY.schema>>;

/** /booking-confirmation: its landing texts. */
export const BOOKING_CONFIRMATION_QUERY = namedQuery(
  'bookingConfirmation',
  landing.page('bookingConfirmation'),
  landing.schema.nullable(),
);

/**
 * Every public page's SEO sources and the slugs and dates the sitemap needs. Titles and
 * descriptions follow the pages' own rule: the document's seo fields, then its visible
 * title / intro, then (applied in code) the site default.
 */
const seoSource = (title: string, description: string) => `
  "title": coalesce(${loc('seo.title')}, ${title}),
  "description": coalesce(${loc('seo.description')}, ${description}),
  "lastmod": coalesce(_updatedAt, publishedAt, updatedAt)`;
const seoSourceSchema = z.object({
  title: z.string().nullable(),
  description: z.string().nullable(),
  lastmod: z.string().nullable(),
});
const sluggedSchema = seoSourceSchema.extend({ slug: z.string() });
/** Listing pages (category, tag) without articles are noindex on the blog, so they stay out of the sitemap. */
const postCount = `"postCount": count(*[_type == "blogPost" && defined(slug.current) && (category._ref == ^._id || ^._id in tags[]._ref)])`;
const listingSchema = sluggedSchema.extend({ postCount: z.number() });

export const SITE_PAGES_QUERY = namedQuery(
  'sitePages',
  `{
    "site": *[_type == "siteSettings" && _id == "siteSettings"][0]{
      "brandName": ${loc('brandName')},
      "title": ${loc('seo.title')},
      "description": ${loc('seo.description')}
    },
    "home": *[_type == "homePage" && _id == "homePage"][0]{ ${seoSource('null', 'null')} },
    "about": *[_type == "aboutPage" && _id == "aboutPage"][0]{ ${seoSource(loc('title'), loc('intro'))} },
    "landings": *[_type == "landingPage" && defined(key)]{ key, ${seoSource(loc('title'), loc('intro'))} },
    "legal": *[_type == "legalPage" && defined(slug.current)]{ "slug": slug.current, ${seoSource(loc('title'), 'null')} },
    "posts": *[_type == "blogPost" && defined(slug.current)] | order(publishedAt desc){ "slug": slug.current, ${seoSource(loc('title'), loc('excerpt'))} },
    "categories": *[_type == "blogCategory" && defined(slug.current)] | order(slug.current asc){ "slug": slug.current, ${postCount}, ${seoSource(loc('title'), loc('description'))} },
    "tags": *[_type == "blogTag" && defined(slug.current)] | order(slug.current asc){ "slug": slug.current, ${postCount}, ${seoSource(loc('title'), 'null')} },
    "caseStudies": *[_type == "caseStudy" && defined(slug.current)] | order(order asc){ "slug": slug.current, ${seoSource(loc('title'), loc('excerpt'))} }
  }`,
  z.object({
    site: z.object({ brandName: z.string(), title: z.string().nullable(), description: z.string().nullable() }),
    home: seoSourceSchema.nullable(),
    about: seoSourceSchema.nullable(),
    landings: z.array(seoSourceSchema.extend({ key: z.string() })),
    legal: z.array(sluggedSchema),
    posts: z.array(sluggedSchema),
    categories: z.array(listingSchema),
    tags: z.array(listingSchema),
    caseStudies: z.array(sluggedSchema),
  }),
);
export type SitePages = z.infer<typeof SITE_PAGES_QUERY.schema>;
export type SeoSource = z.infer<typeof seoSourceSchema>;

/** Types whose documents are (part of) public pages: their localized fields are checked for Arabic. */
export const CONTENT_TYPES = [
  'siteSettings',
  'office',
  'homePage',
  'aboutPage',
  'landingPage',
  'legalPage',
  'service',
  'companySetupOption',
  'packagePlan',
  'caseStudy',
  'blogCategory',
  'blogTag',
  'blogPost',
  'faqCategory',
  'faqItem',
  'testimonial',
  'statistic',
  'indicator',
] as const;

/** Whole content documents (raw, both languages) for the missing-Arabic audit. */
export const CONTENT_DOCUMENTS_QUERY = namedQuery(
  'contentDocuments',
  `*[_type in $types]{ ..., "slug": slug.current } | order(_type asc, _id asc)`,
  z.array(z.looseObject({ _id: z.string(), _type: z.string() })),
);
