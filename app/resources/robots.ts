import { env } from '~/lib/env.server';

/** Paths crawlers are asked to skip: the internal SEO page and the personal booking confirmation. */
export const DISALLOWED = [
  '/seo-diagnostics',
  '/ar/seo-diagnostics',
  '/booking-confirmation',
  '/ar/booking-confirmation',
];

export function robotsTxt(siteUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...DISALLOWED.map((p) => `Disallow: ${p}`),
    '',
    `Sitemap: ${siteUrl.replace(/\/$/, '')}/sitemap.xml`,
    '',
  ].join('\n');
}

export function loader() {
  return new Response(robotsTxt(env().siteUrl), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
}
