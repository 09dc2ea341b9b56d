import { z } from 'zod';
import { FALLBACK_MARK_GROQ } from './fallback';

/**
 * Building blocks for the named GROQ queries. Localized fields are read with an English
 * fallback in GROQ itself, coalesce(title[$lang], title.en), and English that stands in
 * for a missing translation carries a mark that loadQuery turns into lang="en" on the page
 * (see ./fallback.ts). `loc('@')` localizes the current element of an array.
 */
export const loc = (field: string) =>
  `coalesce(${field}[$lang], select($lang != "en" => ${FALLBACK_MARK_GROQ} + ${field}.en))`;

/** An image with its asset's URL and size, and the alt text in the page's language: `logo${image.projection}`. */
const imageProjection = `{
  "alt": ${loc('alt')},
  "asset": asset->{ _id, url, "width": metadata.dimensions.width, "height": metadata.dimensions.height },
  hotspot,
  crop
}`;

const imageSchema = z.object({
  alt: z.string().nullable(),
  asset: z.object({ _id: z.string(), url: z.string(), width: z.number(), height: z.number() }),
  hotspot: z
    .object({ x: z.number(), y: z.number(), height: z.number(), width: z.number() })
    .partial()
    .nullable()
    .optional(),
  crop: z
    .object({ top: z.number(), bottom: z.number(), left: z.number(), right: z.number() })
    .partial()
    .nullable()
    .optional(),
});
export const image = { projection: imageProjection, schema: imageSchema };
export type SanityImage = z.infer<typeof imageSchema>;

/**
 * A named query: its GROQ text and the zod schema its result must satisfy. `dependsOn`
 * names the document types it reads, when that is narrower than what the cache can tell
 * from the text (queries that follow references are otherwise cleared by any change).
 * (Named `namedQuery`, not `defineQuery`, so it is never mistaken for Sanity's own
 * `defineQuery` from `groq`, which takes only a literal string.)
 */
export type QueryDefinition<S extends z.ZodType> = { name: string; query: string; schema: S; dependsOn?: Set<string> };

export function namedQuery<S extends z.ZodType>(
  name: string,
  query: string,
  schema: S,
  dependsOn?: string[],
): QueryDefinition<S> {
  return { name, query, schema, ...(dependsOn ? { dependsOn: new Set(dependsOn) } : {}) };
}

/*
 * Shared fragments: each is one object holding the GROQ projection and the zod schema of
 * what it returns, so a query that uses the one uses the other (`seo.projection` in the
 * GROQ text, `seo: seo.schema` in the result's schema).
 */

/** A document's SEO fields in the page's language, as the key `"seo"` of a projection. */
export const seo = {
  projection: `"seo": { "title": ${loc('seo.title')}, "description": ${loc('seo.description')} }`,
  schema: z.object({ title: z.string().nullable(), description: z.string().nullable() }),
};

const landingDocument = (key: string) => `*[_type == "landingPage" && _id == "landingPage-${key}"][0]`;
const landingSchema = z.object({ title: z.string(), intro: z.string().nullable(), seo: seo.schema });

/**
 * The texts of a landing page (the intro of a listing or a site page): title, intro, SEO.
 * `page(key)` is the landing page document with that key (`blog`, `faq`...) so projected, and
 * `field(key, field)` one localized field of it, as a string.
 */
export const landing = {
  page: (key: string) =>
    `${landingDocument(key)}{ "title": ${loc('title')}, "intro": ${loc('intro')}, ${seo.projection} }`,
  field: (key: string, field: string) => `${landingDocument(key)}{ "v": ${loc(field)} }.v`,
  schema: landingSchema,
};
export type Landing = z.infer<typeof landingSchema>;

/**
 * Localized texts a document may leave empty: their keys for a projection (`"f": loc('f')`, in
 * the order given) and their schema (`string | null` each), to spread into a z.object.
 */
export function optionalTexts<const F extends string>(...fields: F[]) {
  return {
    projection: fields.map((field) => `"${field}": ${loc(field)}`).join(', '),
    shape: Object.fromEntries(fields.map((field) => [field, z.string().nullable()])) as {
      [K in F]: z.ZodNullable<z.ZodString>;
    },
  };
}

/** A list of localized strings with their keys, as the key `"<field>"` of a projection (never null). */
export const localizedList = (field: string) => `"${field}": coalesce(${field}[]{ _key, "text": ${loc('@')} }, [])`;
export const localizedListSchema = z.array(z.object({ _key: z.string(), text: z.string() }));

const portableTextBlock = `
  ...,
  _type == "image" => {
    _type, _key,
    "alt": ${loc('alt')},
    "caption": ${loc('caption')},
    "asset": asset->{ _id, url, "width": metadata.dimensions.width, "height": metadata.dimensions.height },
    hotspot, crop
  }`;

/**
 * A localized Portable Text body (localeBlockContent) with image assets expanded and
 * image alt/caption localized. Blocks that stand in for a missing translation carry
 * `_lang: "en"`. Usage: `"body": ${portableText('body')}`.
 */
export const portableText = (field: string) =>
  `coalesce(${field}[$lang][]{${portableTextBlock}}, ${field}.en[]{${portableTextBlock}, "_lang": "en"})`;

/** Portable Text is checked loosely at the boundary: an array of typed blocks with keys. */
export const portableTextSchema = z.array(
  z.looseObject({ _type: z.string(), _key: z.string(), _lang: z.literal('en').optional() }),
);
export type PortableTextValue = z.infer<typeof portableTextSchema>;
