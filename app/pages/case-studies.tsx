import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { JsonLd, localizePath, pageMeta, requestLocale, RouteErrorBoundary } from '~/kit';
import { container } from '~/content-kit';
import { englishFallbacks, insightsT, loadQuery, siteUrl } from '~/server-api';
import { absoluteUrl, breadcrumbList } from '~/lib/structured-data';
import { CaseStudyCard, CaseStudyCta, errorMeta, IndexIntro } from '~/features/insights/kit';
import { CASE_STUDIES_QUERY } from '~/sanity/queries/insights';

export async function loader({ request }: LoaderFunctionArgs) {
  const locale = requestLocale(request);
  const result = await loadQuery(request, CASE_STUDIES_QUERY, { lang: locale });
  const t = await insightsT(locale);
  const url = (path: string) => absoluteUrl(siteUrl(), localizePath(path, locale));
  return {
    ...result,
    englishFallbacks: englishFallbacks(request),
    jsonLd: breadcrumbList([
      { name: t('breadcrumb.home'), url: url('/') },
      { name: result.page.title, url: url('/case-studies') },
    ]),
  };
}

export const meta: MetaFunction<typeof loader> = (args) => {
  if (!args.data) return errorMeta(args);
  const { page } = args.data;
  return pageMeta(args, { title: page.seo.title || page.title, description: page.seo.description ?? page.intro });
};

export const ErrorBoundary = RouteErrorBoundary;

export default function CaseStudies() {
  const { page, items, jsonLd } = useLoaderData<typeof loader>();
  return (
    <div data-testid="case-studies">
      <IndexIntro title={page.title} intro={page.intro} />
      <div className={`${container} py-10 md:py-14`}>
        <ul className="grid gap-6 md:grid-cols-2 md:gap-8">
          {items.map((study, i) => (
            <li key={study._id} className="flex">
              <CaseStudyCard study={study} priority={i < 2} />
            </li>
          ))}
        </ul>
      </div>
      <CaseStudyCta />
      <JsonLd data={jsonLd} />
    </div>
  );
}
