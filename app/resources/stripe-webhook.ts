import type { ActionFunctionArgs } from '@remix-run/node';
import { stripeBilling } from '~/billing/billing.server';
import { WebhookSignatureError } from '~/billing/stripe.server';
import { BodyTooLargeError, readBodyText } from '~/lib/body.server';
import { handleBillingEvent } from '~/portal/events.server';
import { log as logger } from '~/lib/log.server';

/**
 * POST /api/stripe/webhook: Stripe's events, verified on the raw body with the SDK before
 * anything is parsed or changed. Unsigned, forged, tampered or stale (over 5 minutes) calls get
 * 400 and change nothing; a body over 1 MB gets 413 unread. Each event id is handled once.
 * Without Stripe configured the route does not exist (404).
 */
const MAX_BODY = 1024 * 1024;
const reply = (status: number, body: string) =>
  new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });

export async function action({ request }: ActionFunctionArgs) {
  const stripe = stripeBilling();
  if (!stripe) return reply(404, 'Not found');
  if (request.method !== 'POST') return reply(405, 'Method not allowed');
  const signature = request.headers.get('stripe-signature');
  if (!signature) return reply(400, 'Missing signature');
  let raw: string;
  try {
    raw = await readBodyText(request, MAX_BODY);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return reply(413, 'Payload too large');
    throw error;
  }
  let event;
  try {
    event = await stripe.parseWebhook(raw, signature);
  } catch (error) {
    if (error instanceof WebhookSignatureError) return reply(400, 'Invalid signature');
    logger.error(`[stripe] could not read a webhook event: ${String(error)}`);
    // Stripe retries on any non-2xx: a passing failure (Stripe unreachable) heals itself.
    return reply(500, 'Could not process the event');
  }
  if (!event) return reply(200, 'Ignored');
  try {
    const outcome = await handleBillingEvent(event);
    return reply(200, outcome === 'duplicate' ? 'Already handled' : 'Handled');
  } catch (error) {
    logger.error(`[stripe] handling ${event.type} ${event.id} failed: ${String(error)}`);
    return reply(500, 'Could not process the event');
  }
}

export const loader = () => reply(405, 'Method not allowed');
