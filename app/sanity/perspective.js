// Plain JavaScript (types in JSDoc) so the lake's query worker (app/lake/query-worker.mjs), which
// Node runs from the checkout without a TypeScript step, shares this one shaping with the rest.
const DRAFT = 'drafts.';
const VERSION = 'versions.';

/**
 * groq-js knows nothing of perspectives, so the embedded adapter shapes the document
 * set the way the Content Lake does: `published` drops drafts and release versions;
 * `drafts` lays each draft over its published twin (id without the prefix, and the
 * draft's own id in `_originalId`).
 *
 * @param {readonly import('./types').SanityDocument[]} docs
 * @param {import('./types').Perspective} perspective
 * @returns {import('./types').SanityDocument[]}
 */
export function applyPerspective(docs, perspective) {
  if (perspective === 'published') {
    return docs.filter((d) => !d._id.startsWith(DRAFT) && !d._id.startsWith(VERSION));
  }
  /** @type {Map<string, import('./types').SanityDocument>} */
  const drafts = new Map();
  for (const d of docs) if (d._id.startsWith(DRAFT)) drafts.set(d._id.slice(DRAFT.length), d);
  /** @type {import('./types').SanityDocument[]} */
  const out = [];
  for (const d of docs) {
    if (d._id.startsWith(DRAFT) || d._id.startsWith(VERSION)) continue;
    const draft = drafts.get(d._id);
    if (draft) {
      out.push({ ...draft, _id: d._id, _originalId: draft._id });
      drafts.delete(d._id);
    } else out.push(d);
  }
  // Drafts that were never published.
  for (const [id, draft] of drafts) out.push({ ...draft, _id: id, _originalId: draft._id });
  return out;
}
