import { db } from '~/db/client.server';
import type { Locale } from '~/i18n';
import { env } from '~/lib/env.server';
import { formatSgd } from '~/lib/price';
import { contentClient } from '~/sanity/client.server';
import { stripFallbackMarks } from '~/sanity/fallback';
import { PORTAL_PLANS_QUERY } from '~/sanity/queries/marketing';
import { EmbeddedBilling } from './engine/engine.server';
import { NoBilling } from './no-billing.server';
import { StripeBilling } from './stripe.server';
import { isPlanKey, type BillingPlan, type BillingProvider, type PlanKey } from './types';
import { log as logger } from '~/lib/log.server';

/**
 * The one door to billing. Stripe when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set;
 * otherwise the embedded engine, whose state lives in the database (billing_* tables of the
 * process's database, opened on the engine's first use). Decided once.
 */
declare global {
  var __billing: BillingProvider | undefined;
}

export function billing(): BillingProvider {
  if (!globalThis.__billing) {
    const e = env();
    const log = (m: string) => logger.info(`[billing] ${m}`);
    if (e.billing.kind === 'stripe') {
      const { secretKey, webhookSecret, prices, apiBase, tax } = e.billing;
      globalThis.__billing = new StripeBilling({
        secretKey,
        webhookSecret,
        prices,
        apiBase,
        plans: billingPlans,
        log,
        // parseEnv gives Stripe a profile always (the operator's; the demo's only on a loopback site).
        tax: e.taxProfile ? { profile: e.taxProfile, mode: tax } : undefined,
      });
      log(
        `Stripe${apiBase ? ` at ${apiBase}` : ''} (Checkout, subscription schedules, webhooks at /api/stripe/webhook)`,
      );
    } else if (e.billing.kind === 'none') {
      // A public site without Stripe: no test cards (start.server.ts says so at start).
      globalThis.__billing = new NoBilling();
    } else {
      globalThis.__billing = new EmbeddedBilling(db, {
        plans: billingPlans,
        log,
        // parseEnv gives the embedded engine a profile always (the operator's, or the demo's).
        tax: e.taxProfile ? { profile: e.taxProfile, describe: planNames } : undefined,
      });
      log('embedded engine (local checkout with test cards; no real payments)');
    }
  }
  return globalThis.__billing!;
}

/** The embedded engine, or null when Stripe runs (local checkout, clock and seeding exist only there). */
export function embeddedBilling(): EmbeddedBilling | null {
  const b = billing();
  return b instanceof EmbeddedBilling ? b : null;
}

/** The Stripe adapter, or null when the embedded engine runs (the webhook route exists only with Stripe). */
export function stripeBilling(): StripeBilling | null {
  const b = billing();
  return b instanceof StripeBilling ? b : null;
}

/** A package as the portal shows it, in one language. */
export interface LocalizedPlan {
  key: PlanKey;
  name: string;
  description: string | null;
  timeCommitment: string | null;
  features: string[];
  /** Monthly price in whole SGD, and formatted for the page (Intl, SGD, page locale). */
  priceSgd: number;
  price: string;
}

/** The CMS's plans whose key is one billing knows (others are skipped), in the CMS's order. */
async function fetchPlans(locale: Locale) {
  const raw = await contentClient().fetch(PORTAL_PLANS_QUERY.query, { lang: locale }, { perspective: 'published' });
  const plans = PORTAL_PLANS_QUERY.schema.parse(locale === 'en' ? raw : stripFallbackMarks(raw).value);
  return plans.flatMap((plan) => (isPlanKey(plan.key) ? [{ ...plan, key: plan.key }] : []));
}

/** Prices and Stripe ids from the CMS (always published content: billing never reads drafts). */
export async function billingPlans(): Promise<BillingPlan[]> {
  const plans = await fetchPlans('en');
  return plans.map(({ key, priceSgd, stripePriceId, paymentLink }) => ({ key, priceSgd, stripePriceId, paymentLink }));
}

/** A plan's name in both languages, for an invoice's snapshot (the key when the CMS has none). */
async function planNames(plan: PlanKey): Promise<{ en: string; ar: string }> {
  const [en, ar] = await Promise.all([fetchPlans('en'), fetchPlans('ar')]);
  return {
    en: en.find((p) => p.key === plan)?.name ?? plan,
    ar: ar.find((p) => p.key === plan)?.name ?? plan,
  };
}

export async function localizedPlans(locale: Locale): Promise<LocalizedPlan[]> {
  const plans = await fetchPlans(locale);
  return plans.map(({ key, name, description, timeCommitment, features, priceSgd }) => ({
    key,
    name,
    description,
    timeCommitment,
    features: features.map((f) => f.text),
    priceSgd,
    price: formatSgd(priceSgd, locale),
  }));
}
