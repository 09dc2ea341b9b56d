import type { ActionFunctionArgs } from '@remix-run/node';
import { decodeSignatureHeader, isValidSignature, SIGNATURE_HEADER_NAME } from '@sanity/webhook';
import { BodyTooLargeError, readBodyText } from '~/lib/body.server';
import { db } from '~/db/client.server';
import { clearContentCaches, publishContentChange } from '~/lib/content-sync.server';
import { env } from '~/lib/env.server';
import { log as logger } from '~/lib/log.server';

/** Signed calls older (or newer) than this are refused: a captured call cannot be replayed later. */
export const REPLAY_WINDOW_MS = 5 * 60 * 1000;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  });

/**
 * Signed deliveries already applied by this process, until their window closes: a replay of the
 * same signed call (the signature covers its timestamp and body) is answered but not applied
 * again. Bounded: a signature is kept only for the replay window.
 */
const applied = new Map<string, number>();
const MAX_REMEMBERED = 10_000;

/** True the first time a verified signature is seen; check and record happen in one step. */
export function firstDelivery(signature: string, now = Date.now()): boolean {
  for (const [sig, expires] of applied) {
    if (expires > now) break;
    applied.delete(sig);
  }
  if (applied.has(signature)) return false;
  if (applied.size >= MAX_REMEMBERED) applied.delete(applied.keys().next().value!);
  applied.set(signature, now + REPLAY_WINDOW_MS * 2);
  return true;
}

/** Bodies above this are refused unread (413); Sanity's projection `{_type, _id}` is tiny. */
const MAX_BODY = 1024 * 1024;

/**
 * POST /api/revalidate — a Sanity GROQ-powered webhook (projection at least `{_type, _id}`).
 * Checks the `sanity-webhook-signature` header's form and timestamp before reading the body,
 * then verifies the signature, applies each signed delivery once, and clears the cached
 * results that read the changed document type.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return json({ error: 'Method not allowed' }, 405);
  const secret = env().webhookSecret;
  if (!secret) return json({ error: 'Webhook not configured' }, 401);
  const signature = request.headers.get(SIGNATURE_HEADER_NAME) ?? '';
  let timestamp: number;
  try {
    timestamp = decodeSignatureHeader(signature).timestamp;
  } catch {
    return json({ error: 'Invalid signature' }, 401);
  }
  // Unsigned or stale calls are refused before their body is read.
  if (!Number.isFinite(timestamp) || Math.abs(Date.now() - timestamp) > REPLAY_WINDOW_MS)
    return json({ error: 'Invalid signature' }, 401);
  let body: string;
  try {
    body = await readBodyText(request, MAX_BODY);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return json({ error: 'Payload too large' }, 413);
    throw error;
  }
  if (!(await isValidSignature(body, signature, secret))) return json({ error: 'Invalid signature' }, 401);
  if (!firstDelivery(signature)) return json({ revalidated: false, duplicate: true });
  let type: string | undefined;
  try {
    const payload = JSON.parse(body) as { _type?: unknown; _id?: unknown };
    type = typeof payload._type === 'string' ? payload._type : undefined;
  } catch {
    return json({ error: 'Body must be JSON' }, 400);
  }
  const changed = type ? new Set([type]) : ('all' as const);
  const dropped = await clearContentCaches(changed);
  // The webhook reaches one server copy: the database tells the others (content-sync.server.ts).
  // This copy's caches are clear already; a failure to tell the others is logged, not refused.
  let told = true;
  try {
    await publishContentChange(await db(), changed);
  } catch (error) {
    told = false;
    logger.error(`[content] could not tell the other server copies: ${String(error)}`);
  }
  logger.info(`[content] webhook: ${type ?? 'unknown type'} changed, ${dropped} cached results cleared`);
  return json({ revalidated: type ?? 'all', cleared: dropped, published: told });
}

export const loader = () => json({ error: 'Method not allowed' }, 405);
