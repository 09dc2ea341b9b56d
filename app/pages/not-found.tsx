import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { layoutFromMatches, NotFound, requestLocale, RouteErrorBoundary } from '~/kit';
import { notFound } from '~/server-api';

/** Any path no page claims: a real 404 inside the localized shell. */
export async function loader({ request }: LoaderFunctionArgs) {
  throw await notFound(requestLocale(request));
}

export const meta: MetaFunction = ({ matches }) => {
  const layout = layoutFromMatches(matches);
  const brand = layout?.shell.settings.brandName;
  const title = layout?.locale === 'ar' ? 'الصفحة غير موجودة' : 'Page not found';
  return [{ title: brand ? `${title} | ${brand}` : title }, { name: 'robots', content: 'noindex' }];
};

export const ErrorBoundary = RouteErrorBoundary;

export default function NotFoundPage() {
  return <NotFound />;
}
