import type { LoaderFunctionArgs } from '@remix-run/node';
import { publicPages, sitemapXml, siteUrls } from '~/features/seo/site-urls.server';
import { env } from '~/lib/env.server';
import { isPreview } from '~/lib/preview.server';
import { loadQuery } from '~/sanity/load.server';
import { SITE_PAGES_QUERY } from '~/sanity/queries/site';
import { log as logger } from '~/lib/log.server';

/** /sitemap.xml: every public page in English and Arabic, with hreflang alternates. */
export async function loader({ request }: LoaderFunctionArgs) {
  let pages;
  try {
    pages = publicPages(await loadQuery(request, SITE_PAGES_QUERY, { lang: 'en' }));
  } catch (error) {
    logger.error(`[sitemap] content query failed: ${String(error)}`);
    return new Response('Service Unavailable', {
      status: 503,
      headers: { 'Retry-After': '60', 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
  // In a preview session the list may hold draft pages: only that editor may see it, and no
  // cache may keep it. Everyone else gets the published list, which a CDN may share.
  const preview = await isPreview(request);
  return new Response(sitemapXml(siteUrls(pages, env().siteUrl)), {
    headers: {
      'Content-Type': 'application/xml; charset=utf-8',
      'Cache-Control': preview ? 'private, no-store' : 'public, max-age=300, s-maxage=3600',
      Vary: 'Cookie',
      ...(preview ? { 'X-Robots-Tag': 'noindex' } : {}),
    },
  });
}
