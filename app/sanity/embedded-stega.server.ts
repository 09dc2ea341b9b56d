import type { ContentSourceMap } from '@sanity/client';
import { stegaEncodeSourceMap } from '@sanity/client/stega';
import { stegaFilter } from './stega.server';
import type { SanityDocument } from './types';

/**
 * Stega for the embedded world's preview reads. groq-js returns no content source map, so the
 * text is encoded in the documents before the query runs: each document goes through
 * @sanity/client's own encoder with a source map that maps the whole document to itself (`$` →
 * the document at `$`). The query then carries the encoded strings into its result as the hosted
 * API's map would have placed them, and the same filter decides what is encoded (stega.server.ts:
 * localized display text only, never ids, slugs or anything the site compares). Preview reads
 * only; visitors' reads never see these documents.
 */
const encoded = new WeakMap<SanityDocument, { studioUrl: string; doc: SanityDocument }>();

export function stegaDocument(doc: SanityDocument, studioUrl: string): SanityDocument {
  const kept = encoded.get(doc);
  if (kept?.studioUrl === studioUrl) return kept.doc;
  const map: ContentSourceMap = {
    documents: [{ _id: doc._id, _type: doc._type }],
    paths: ['$'],
    mappings: { $: { type: 'value', source: { type: 'documentValue', document: 0, path: 0 } } },
  };
  const out = stegaEncodeSourceMap(doc, map, { enabled: true, studioUrl, filter: stegaFilter }) as SanityDocument;
  encoded.set(doc, { studioUrl, doc: out });
  return out;
}

/**
 * Documents the Studio keeps in the lake for itself, never content of the site: the Presentation
 * tool's preview secrets (@sanity/preview-url-secret). No read of the site sees them.
 */
const STUDIO_ONLY_TYPES: ReadonlySet<string> = new Set(['sanity.previewUrlSecret', 'sanity.previewUrlShareAccess']);
export const isStudioOnly = (doc: SanityDocument) => STUDIO_ONLY_TYPES.has(doc._type);
