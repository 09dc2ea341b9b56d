import { data, type MetaFunction } from '@remix-run/node';
import { NotFound, RouteErrorBoundary } from '~/components/RouteError';
import { layoutFromMatches } from '~/lib/meta';

/** Any path no page claims: a real 404 inside the localized shell. */
export function loader() {
  throw data(null, { status: 404 });
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
