import type { ActionFunctionArgs } from '@remix-run/node';
import { decodeSignatureHeader, isValidSignature, SIGNATURE_HEADER_NAME } from '@sanity/webhook';
import { env } from '~/lib/env.server';
import { contentClient } from '~/sanity/client.server';
import { EmbeddedContentClient } from '~/sanity/embedded.server';
import { HostedContentClient } from '~/sanity/hosted.server';
import { queryCache } from '~/sanity/load.server';

/** Signed calls older (or newer) than this are refused: a captured call cannot be replayed later. */
export const REPLAY_WINDOW_MS = 5 * 60 * 1000;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } });

/**
 * POST /api/revalidate — a Sanity GROQ-powered webhook (projection at least `{_type, _id}`).
 * Verifies `sanity-webhook-signature`, refuses stale timestamps, then clears the cached
 * results that read the changed document type.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return json({ error: 'Method not allowed' }, 405);
  const secret = env().webhookSecret;
  if (!secret) return json({ error: 'Webhook not configured' }, 401);
  const signature = request.headers.get(SIGNATURE_HEADER_NAME) ?? '';
  const body = await request.text();
  let timestamp: number;
  try {
    timestamp = decodeSignatureHeader(signature).timestamp;
  } catch {
    return json({ error: 'Invalid signature' }, 401);
  }
  if (Math.abs(Date.now() - timestamp) > REPLAY_WINDOW_MS || !(await isValidSignature(body, signature, secret))) {
    return json({ error: 'Invalid signature' }, 401);
  }
  let type: string | undefined;
  try {
    const payload = JSON.parse(body) as { _type?: unknown; _id?: unknown };
    type = typeof payload._type === 'string' ? payload._type : undefined;
  } catch {
    return json({ error: 'Body must be JSON' }, 400);
  }
  const changed = type ? new Set([type]) : ('all' as const);
  const client = contentClient();
  // Embedded world: the change is in the dataset file; read it again (a broken file keeps the old content).
  if (client instanceof EmbeddedContentClient) await client.reload();
  const dropped = queryCache().invalidate(changed);
  if (client instanceof HostedContentClient) client.notify(changed);
  console.log(`[content] webhook: ${type ?? 'unknown type'} changed, ${dropped} cached results cleared`);
  return json({ revalidated: type ?? 'all', cleared: dropped });
}

export const loader = () => json({ error: 'Method not allowed' }, 405);
