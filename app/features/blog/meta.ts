import type { MetaArgs, MetaDescriptor } from '@remix-run/node';
import { errorTitle, layoutFromMatches, pageMeta } from '~/lib/meta';
import { pageHref } from './pagination';

/** Meta for a page whose loader answered 404 (or failed): a title and noindex. */
export function errorMeta(args: Pick<MetaArgs, 'error' | 'matches'>): MetaDescriptor[] {
  const brand = layoutFromMatches(args.matches)?.shell.settings.brandName;
  const title = errorTitle(args.error) ?? '';
  return [{ title: [title, brand].filter(Boolean).join(' | ') }, { name: 'robots', content: 'noindex' }];
}

/**
 * A paginated listing's meta: every page after the first is its own canonical URL (with
 * ?page=N, also in the alternates), with rel prev/next links between the pages.
 */
export function withPagination(
  meta: MetaDescriptor[],
  args: Pick<MetaArgs, 'location'>,
  page: number,
  totalPages: number,
): MetaDescriptor[] {
  const withPage = (href: string) => {
    const url = new URL(href);
    url.search = page > 1 ? `?page=${page}` : '';
    return url.toString();
  };
  const out = meta.map((m) => {
    const d = m as Record<string, unknown>;
    if (d.tagName === 'link' && (d.rel === 'canonical' || d.rel === 'alternate') && typeof d.href === 'string')
      return { ...d, href: withPage(d.href) } as MetaDescriptor;
    if (d.property === 'og:url' && typeof d.content === 'string')
      return { ...d, content: withPage(d.content) } as MetaDescriptor;
    return m;
  });
  const canonical = out.find((m) => (m as Record<string, unknown>).rel === 'canonical') as { href: string } | undefined;
  const origin = canonical ? new URL(canonical.href).origin : '';
  const path = args.location.pathname;
  if (page > 1) out.push({ tagName: 'link', rel: 'prev', href: origin + pageHref(path, page - 1) });
  if (page < totalPages) out.push({ tagName: 'link', rel: 'next', href: origin + pageHref(path, page + 1) });
  return out;
}

/**
 * A category's or a tag's listing meta, paginated. A term without articles is a thin page:
 * reachable, but kept out of search engines.
 */
export function termListingMeta(
  args: Pick<MetaArgs, 'matches' | 'location'>,
  page: { title: string; description?: string | null },
  pagination: { page: number; totalPages: number; total: number },
): MetaDescriptor[] {
  const noindex = pagination.total === 0;
  const meta = pageMeta(args, { title: page.title, description: page.description ?? undefined, noindex });
  return withPagination(meta, args, pagination.page, pagination.totalPages);
}
