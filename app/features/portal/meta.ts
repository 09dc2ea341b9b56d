import type { MetaArgs, MetaDescriptor } from '@remix-run/node';
import { pageMeta } from '~/lib/meta';

/**
 * A portal page's meta tags: its localized title (computed by the loader) and
 * `robots: noindex` (portal pages are private and never belong in a search index).
 */
export function portalMeta(args: Pick<MetaArgs, 'matches' | 'location'>, title: string | undefined): MetaDescriptor[] {
  const base = pageMeta(args, { title }).filter((m) => !('name' in m && m.name === 'robots'));
  return [...base, { name: 'robots', content: 'noindex' }];
}
