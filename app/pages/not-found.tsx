import type { LoaderFunctionArgs } from '@remix-run/node';
import { requestLocale } from '~/kit';
import { notFound } from '~/server-api';

/** Any path no page claims: a real 404 inside the localized shell. */
export async function loader({ request }: LoaderFunctionArgs) {
  throw await notFound(requestLocale(request));
}

// What the browser runs of this page is in the kit (app/components/RouteError.tsx): every page has
// it already, so the 404 needs no chunk of its own (ADR 0024).
export { NotFoundPage as default, notFoundMeta as meta, RouteErrorBoundary as ErrorBoundary } from '~/kit';
