import type { MetaArgs } from '@remix-run/node';
import { isRouteErrorResponse } from '@remix-run/react';
import { stripLocale } from '~/i18n';
import { seoMeta, type SeoInput } from './seo';
import { isShellRoute, type ShellData } from './shell';

/** The shell data (brand, default SEO, site URL) as seen from a page's meta function. */
export function layoutFromMatches(matches: MetaArgs['matches']): ShellData | undefined {
  return matches.find((m) => isShellRoute(m.id))?.data as ShellData | undefined;
}

/**
 * A page's meta tags: its own title and description, falling back to the site defaults
 * from the CMS, with canonical and alternates for the current path.
 */
/** The localized title a loader's 404 carries (`notFound`, not-found.server.ts), or undefined. */
export function errorTitle(error: unknown): string | undefined {
  return isRouteErrorResponse(error) && error.data && typeof error.data === 'object' && 'title' in error.data
    ? String(error.data.title)
    : undefined;
}

export function pageMeta(
  args: Pick<MetaArgs, 'matches' | 'location'>,
  page: Partial<Pick<SeoInput, 'title' | 'description' | 'image' | 'noindex' | 'type'>> = {},
) {
  const layout = layoutFromMatches(args.matches);
  if (!layout) return [{ title: page.title ?? '' }];
  const { shell, locale, siteUrl } = layout;
  return seoMeta({
    title: page.title || shell.settings.seo.title || shell.settings.brandName,
    description: page.description ?? shell.settings.seo.description,
    image: page.image,
    noindex: page.noindex,
    type: page.type,
    path: stripLocale(args.location.pathname),
    locale,
    siteUrl,
    brandName: shell.settings.brandName,
  });
}

/** What a CMS page offers its meta tags: its SEO fields and, as their fallbacks, its title and intro. */
type LandingPage = {
  title?: string | null;
  intro?: string | null;
  seo: { title?: string | null; description?: string | null };
};

/**
 * The meta tags of a page edited in the CMS (about, services, pricing, FAQ): its SEO title, else
 * its title; its SEO description, else its intro; the site defaults where it has neither.
 */
export function landingMeta(args: Pick<MetaArgs, 'matches' | 'location'>, page: LandingPage | null | undefined) {
  return pageMeta(args, {
    title: page?.seo.title ?? page?.title ?? undefined,
    description: page?.seo.description ?? page?.intro ?? undefined,
  });
}
