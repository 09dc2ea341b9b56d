import type { MetaArgs, MetaDescriptor } from '@remix-run/node';
import { errorTitle, pageMeta } from '~/lib/meta';

/**
 * A portal page's meta tags: its localized title (computed by the loader; on a 404, the
 * not-found title the loader threw) and `robots: noindex` (portal pages are private and never
 * belong in a search index).
 */
export function portalMeta(
  args: Pick<MetaArgs, 'matches' | 'location' | 'error'>,
  title: string | undefined,
): MetaDescriptor[] {
  const base = pageMeta(args, { title: title ?? errorTitle(args.error) }).filter(
    (m) => !('name' in m && m.name === 'robots'),
  );
  return [...base, { name: 'robots', content: 'noindex' }];
}
