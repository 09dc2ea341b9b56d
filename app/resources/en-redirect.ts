import { redirect, type LoaderFunctionArgs } from '@remix-run/node';
import { onSiteLocation } from '~/lib/return-path';

/** /en and /en/... : English has no prefix, so send the visitor to the bare path, permanently. */
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  // `/en//evil.example` must not become the protocol-relative `//evil.example`.
  const rest = onSiteLocation(url.pathname.replace(/^\/en(?=\/|$)/, '') || '/');
  return redirect(rest + url.search, 301);
}
