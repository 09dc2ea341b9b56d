import { englishFallbacks, loadQuery, notFound, renderLegalPage } from '~/server-api';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { RichText } from '~/components/RichText';
import { pageMeta, requestLocale, RouteErrorBoundary, stripLocale } from '~/kit';
import { LEGAL_PAGE_QUERY } from '~/sanity/queries/site';

/**
 * The legal pages: one module mounted at /privacy-policy, /terms-of-service and
 * /cookies-policy (and under /ar). The slug is the path itself.
 */
const LEGAL_SLUGS = new Set(['privacy-policy', 'terms-of-service', 'cookies-policy']);

export async function loader({ request }: LoaderFunctionArgs) {
  const { pathname } = new URL(request.url);
  const slug = stripLocale(pathname).replace(/^\/|\/$/g, '');
  const locale = requestLocale(request);
  if (!LEGAL_SLUGS.has(slug)) throw await notFound(locale);
  const page = await loadQuery(request, LEGAL_PAGE_QUERY, { lang: locale, slug });
  if (!page) throw await notFound(locale);
  const fallbacks = englishFallbacks(request);
  return {
    // The page's content is static: HTML rendered here (ADR 0035).
    page: {
      title: page.title,
      seo: page.seo,
      body: { html: renderLegalPage(page, slug, locale, fallbacks), english: false },
    },
    englishFallbacks: fallbacks,
  };
}

export const meta: MetaFunction<typeof loader> = (args) =>
  pageMeta(args, {
    title: args.data?.page.seo.title ?? args.data?.page.title,
    description: args.data?.page.seo.description,
  });

export const ErrorBoundary = RouteErrorBoundary;

export default function LegalPage() {
  const { page } = useLoaderData<typeof loader>();
  return <RichText body={page.body} className="bg-gradient-to-b from-sand-50 to-white" />;
}
