import { embeddedBilling } from '~/billing/billing.server';
import { env } from '~/lib/env.server';
import { ensureCustomerAccount } from './accounts.server';
import { startPortalJobTimer } from './jobs.server';
import { log as logger } from '~/lib/log.server';

declare global {
  var __portalStarted: Promise<void> | undefined;
}

/**
 * Once per process: on a public site without Stripe, a line saying there is no billing (and
 * nothing is seeded); with the embedded billing engine, the demo clients (documented in the README) exist
 * with their billing history and portal accounts; then the periodic jobs start.
 */
export function startPortal(): Promise<void> {
  if (globalThis.__portalStarted) return globalThis.__portalStarted;
  const { content, billing, siteUrl } = env();
  if (billing.kind === 'none')
    logger.info(
      `[billing] none: ${siteUrl} is a public address and no Stripe keys are set, so no checkout runs, no test ` +
        'card is taken and no demo client is seeded; /pricing offers each package by consultation ' +
        '(set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or BILLING=demo for the test-card engine)',
    );
  if (content.world === 'hosted' && !content.writeToken) {
    // Portal state lives in the dataset: without a write token there is no portal to run.
    logger.info('[portal] off: the hosted world needs SANITY_WRITE_TOKEN to keep portal state');
    globalThis.__portalStarted ??= Promise.resolve();
    return globalThis.__portalStarted;
  }
  globalThis.__portalStarted ??= seedDemo()
    .catch((error) => logger.error(`[portal] could not prepare the demo clients: ${String(error)}`))
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
