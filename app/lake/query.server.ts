import { evaluate, parse } from 'groq-js';
import type { QueryParams, SanityDocument } from '~/sanity/types';

/**
 * GROQ over the lake's documents with Sanity's perspectives (evaluated in the query workers,
 * query-pool.server.ts and query-worker.mjs): `raw` (everything, drafts included, what the Studio
 * asks for most), `published`, `drafts` (drafts over their published twins, as
 * app/sanity/perspective.js shapes them for the site), or a list (releases: the lake has none, so
 * any list that names `drafts` reads as `drafts`, any other as `published`).
 */
export type LakePerspective = 'raw' | 'published' | 'drafts';

export function readPerspective(value: string | string[] | null | undefined): LakePerspective {
  if (!value) return 'raw';
  const list = Array.isArray(value) ? value : value.split(',');
  if (list.length === 1 && (list[0] === 'raw' || list[0] === 'published' || list[0] === 'drafts'))
    return list[0] as LakePerspective;
  if (list.includes('drafts')) return 'drafts';
  return list.includes('raw') ? 'raw' : 'published';
}

/**
 * A listener's filter (`*[…]` of /data/listen) as a test of one document: true when the query
 * over that document alone returns it. Evaluated on the state before and after each change.
 */
export function listenerFilter(query: string, params: QueryParams): (doc: SanityDocument | null) => Promise<boolean> {
  const tree = parse(query, { params });
  return async (doc) => {
    if (!doc) return false;
    const value = await (await evaluate(tree, { dataset: [doc], params })).get();
    return Array.isArray(value) ? value.length > 0 : Boolean(value);
  };
}

/** Query parameters from a GET URL (`$name=JSON`). */
export function paramsFromSearch(search: URLSearchParams): QueryParams {
  const params: QueryParams = {};
  for (const [key, value] of search) {
    if (!key.startsWith('$')) continue;
    try {
      params[key.slice(1)] = JSON.parse(value);
    } catch {
      params[key.slice(1)] = value;
    }
  }
  return params;
}
