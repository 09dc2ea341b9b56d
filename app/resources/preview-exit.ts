import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { exitPreviewCookie } from '~/lib/preview.server';
import { safeReturnPath } from '~/lib/return-path';

/** Ends the preview session and returns to the same page, now published content. */
async function exit(request: Request) {
  const url = new URL(request.url);
  let back = url.searchParams.get('redirect');
  if (request.method === 'POST') {
    const form = await request.formData().catch(() => null);
    back = (form?.get('redirect') as string | null) ?? back;
  }
  return redirect(safeReturnPath(back) ?? '/', {
    headers: { 'Set-Cookie': await exitPreviewCookie(), 'Cache-Control': 'no-store' },
  });
}

export const action = ({ request }: ActionFunctionArgs) => exit(request);
export const loader = ({ request }: LoaderFunctionArgs) => exit(request);
