import type { ActionFunctionArgs } from '@remix-run/node';
import { env } from '~/lib/env.server';
import { enterPreviewCookie, isPreview, studioPerspective } from '~/lib/preview.server';

const reply = (status: number, body: string | null, headers: Record<string, string> = {}) =>
  new Response(body, {
    status,
    headers: {
      'Cache-Control': 'no-store',
      'X-Robots-Tag': 'noindex',
      ...(body ? { 'Content-Type': 'text/plain; charset=utf-8' } : {}),
      ...headers,
    },
  });

/**
 * POST /api/preview/perspective, body {"perspective": "published" | "drafts" | [...]} — the
 * preview session follows the perspective switch of the Studio's Presentation tool (the
 * overlays' bundle, app/preview/overlays.browser.tsx, posts what @sanity/react-loader's live
 * mode reports, then revalidates the page). It only re-signs the cookie of a session that already exists;
 * it cannot start one. Asked from another site (the Origin header), it is refused, so a
 * page elsewhere cannot flip what an editor's preview shows.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return reply(405, 'Method not allowed', { Allow: 'POST' });
  const origin = request.headers.get('Origin');
  const allowed = new Set([new URL(request.url).origin, new URL(env().siteUrl).origin]);
  if (!origin || !allowed.has(origin)) return reply(403, 'Cross-site request refused');
  if (!(await isPreview(request))) return reply(401, 'No preview session');
  const body: unknown = await request.json().catch(() => null);
  if (!body || typeof body !== 'object' || !('perspective' in body)) return reply(400, 'Expected {"perspective": …}');
  return reply(204, null, { 'Set-Cookie': await enterPreviewCookie(studioPerspective(body.perspective)) });
}
