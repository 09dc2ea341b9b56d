import type { SanityClient } from '@sanity/client';
import { validatePreviewUrl } from '@sanity/preview-url-secret';
import { evaluate, parse } from 'groq-js';
import type { StudioSecretCheck } from '~/lib/preview.server';
import type { QueryParams } from '~/sanity/types';
import type { LakeStore } from './store.server';

/**
 * The Presentation tool's preview secret, checked against the lake's own store (embedded world):
 * the Studio stores it through the lake (`sanity.previewUrlSecret`, @sanity/preview-url-secret),
 * and /api/preview-mode/enable checks it here with the package's own validatePreviewUrl (its
 * query, its expiry of an hour), reading the store in this process: no token, no HTTP.
 */
/** The type of @sanity/preview-url-secret's documents. */
const SECRET_TYPE = 'sanity.previewUrlSecret';

export function lakeSecretCheck(store: LakeStore): StudioSecretCheck {
  // What validatePreviewUrl uses of a client: a token to be present (the store needs none),
  // withConfig (raw perspective, no CDN or stega: the store has none of them) and fetch.
  const client = {
    config: () => ({ token: 'the-lake-store' }),
    withConfig: () => client,
    // The package's own fixed query, over the secret documents alone: a few small documents, so it
    // runs here rather than in the editors' query workers (which a visitor's request must not fill).
    fetch: async (query: string, params: QueryParams = {}) => {
      const dataset = store.all().filter((doc) => doc._type === SECRET_TYPE);
      return (await evaluate(parse(query, { params }), { dataset, params })).get();
    },
  };
  return (url) => validatePreviewUrl(client as unknown as SanityClient, url);
}

/** The package's lifetime of a secret (SECRET_TTL, one hour): older ones open nothing. */
const SECRET_TTL_MS = 60 * 60 * 1000;

/**
 * Deletes the preview secrets past their hour. The Presentation tool deletes its own when the
 * editor leaves it, and expired ones on its next visit; a tab closed or a laptop shut leaves one,
 * which this sweep (every few minutes while the site runs) removes. Resolves with the ids deleted.
 */
export async function sweepExpiredSecrets(store: LakeStore, now = Date.now()): Promise<string[]> {
  const expired = store
    .all()
    .filter((doc) => doc._type === SECRET_TYPE && now - Date.parse(String(doc._updatedAt)) > SECRET_TTL_MS)
    .map((doc) => doc._id);
  if (expired.length)
    await store.mutate(
      expired.map((id) => ({ delete: { id } })),
      'system',
    );
  return expired;
}
