import { redirect, type LoaderFunctionArgs } from '@remix-run/node';

/** /en and /en/... : English has no prefix, so send the visitor to the bare path, permanently. */
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const rest = url.pathname.replace(/^\/en(?=\/|$)/, '') || '/';
  return redirect(rest + url.search, 301);
}
