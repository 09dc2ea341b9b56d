import { redirect, type LoaderFunctionArgs } from '@remix-run/node';
import { enterPreviewCookie, secretMatches } from '~/lib/preview.server';
import { safeReturnPath } from '~/lib/return-path';

/**
 * GET /api/preview?secret=…&redirect=/path — enters a draft preview session (embedded and
 * hosted worlds; hosted editors may also arrive through the Studio's Presentation tool).
 * A wrong or missing secret gets 401 and no cookie.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (!secretMatches(url.searchParams.get('secret'))) {
    return new Response('Invalid preview secret', { status: 401, headers: { 'Cache-Control': 'no-store' } });
  }
  return redirect(safeReturnPath(url.searchParams.get('redirect')) ?? '/', {
    headers: { 'Set-Cookie': await enterPreviewCookie(), 'Cache-Control': 'no-store' },
  });
}
