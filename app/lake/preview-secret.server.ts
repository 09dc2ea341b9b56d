import type { SanityClient } from '@sanity/client';
import { validatePreviewUrl } from '@sanity/preview-url-secret';
import type { StudioSecretCheck } from '~/lib/preview.server';
import type { QueryParams } from '~/sanity/types';
import { runQuery } from './query.server';
import type { LakeStore } from './store.server';

/**
 * The Presentation tool's preview secret, checked against the lake's own store (embedded world):
 * the Studio stores it through the lake (`sanity.previewUrlSecret`, @sanity/preview-url-secret),
 * and /api/preview-mode/enable checks it here with the package's own validatePreviewUrl (its
 * query, its expiry of an hour), reading the store in this process: no token, no HTTP.
 */
export function lakeSecretCheck(store: LakeStore): StudioSecretCheck {
  // What validatePreviewUrl uses of a client: a token to be present (the store needs none),
  // withConfig (raw perspective, no CDN or stega: the store has none of them) and fetch.
  const client = {
    config: () => ({ token: 'the-lake-store' }),
    withConfig: () => client,
    fetch: (query: string, params?: QueryParams) => runQuery(store.all(), query, params ?? {}, 'raw'),
  };
  return (url) => validatePreviewUrl(client as unknown as SanityClient, url);
}
