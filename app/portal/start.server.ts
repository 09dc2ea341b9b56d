import { embeddedBilling } from '~/billing/billing.server';
import { env } from '~/lib/env.server';
import { ensureCustomerAccount } from './accounts.server';
import { startPortalJobTimer } from './jobs.server';

declare global {
  var __portalStarted: Promise<void> | undefined;
}

/**
 * Once per process: in the embedded world, the demo clients (documented in the README) exist
 * with their billing history and portal accounts; then the periodic jobs start.
 */
export function startPortal(): Promise<void> {
  const { content } = env();
  if (content.world === 'hosted' && !content.writeToken) {
    // Portal state lives in the dataset: without a write token there is no portal to run.
    console.log('[portal] off: the hosted world needs SANITY_WRITE_TOKEN to keep portal state');
    globalThis.__portalStarted ??= Promise.resolve();
    return globalThis.__portalStarted;
  }
  globalThis.__portalStarted ??= seedDemo()
    .catch((error) => console.error(`[portal] could not prepare the demo clients: ${String(error)}`))
    .then(() => startPortalJobTimer());
  return globalThis.__portalStarted;
}

export async function seedDemo(): Promise<void> {
  const engine = embeddedBilling();
  if (!engine) return;
  await engine.seedDemo();
  for (const email of DEMO_EMAILS) {
    const customer = await engine.findCustomerByEmail(email);
    if (customer) await ensureCustomerAccount(customer);
  }
}

export const DEMO_EMAILS = ['client@example.com', 'former@example.com'] as const;

/** Resolves once the portal has started (the demo clients seeded), or after `ms`, whichever is first. */
export function portalReady(ms: number): Promise<void> {
  const started = globalThis.__portalStarted;
  if (!started) return Promise.resolve();
  return Promise.race([started, new Promise<void>((resolve) => setTimeout(resolve, ms).unref())]);
}
