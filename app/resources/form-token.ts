import { createFormToken } from '~/features/forms/spam-check';
import { env } from '~/lib/env.server';

/**
 * GET /api/form-token: a form's signed start time, asked for when a visitor first uses a form
 * (app/features/forms/form-token.ts). Never stored by anyone: it is the visitor's own.
 */
export async function loader() {
  const token = await createFormToken(Date.now(), env().sessionSecret);
  return Response.json({ token }, { headers: { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' } });
}
