import { eq } from 'drizzle-orm';
import { billing, embeddedBilling, localizedPlans } from '~/billing/billing.server';
import type { BillingEvent, PlanKey, SubscriptionView } from '~/billing/types';
import { db as processDb } from '~/db/client.server';
import { accounts, handledEvents } from '~/db/schema.server';
import type { Db } from '~/db/types.server';
import { localizePath, type Locale } from '~/i18n';
import { env } from '~/lib/env.server';
import { ensureCustomerAccount, getAccount } from './accounts.server';
import type { ClientEmail } from './emails.server';
import { queueMail, sendNow, type QueuedMessage } from './mail-queue.server';
import { log as logger } from '~/lib/log.server';

/**
 * What the portal does about a billing event (Stripe's webhook, or the embedded engine's
 * outbox): link the account to the customer and queue the client's emails. Everything it does
 * is keyed to the fact it reports (the account to the customer, each email to its fact), so
 * doing it twice changes nothing twice. Each event id is then marked handled in
 * `handled_events`, and the insert decides: `insert … on conflict do nothing returning`, so of
 * two deliveries handled at once (two server copies, or a retry racing the first try) exactly
 * one is 'handled' and sends its emails now, the other 'duplicate'.
 *
 * The mark is written after the work, not before: a process that dies in between has marked
 * nothing, and the redelivery (Stripe retries what was not answered 2xx; the engine's outbox
 * delivers again what was not marked delivered) does the work again, keyed, instead of finding
 * a mark for work never done. The read before it is a shortcut for a redelivery of an event
 * handled long ago (nothing is asked of billing again, and an erased client's account is not
 * made again from an old event); it decides nothing.
 */
export async function handleBillingEvent(event: BillingEvent, db?: Db): Promise<'handled' | 'duplicate'> {
  const database = db ?? (await processDb());
  const seen = await database
    .select({ eventId: handledEvents.eventId })
    .from(handledEvents)
    .where(eq(handledEvents.eventId, event.id));
  if (seen.length) return 'duplicate';
  const keys = await apply(event);
  const marked = await database
    .insert(handledEvents)
    .values({ eventId: event.id, type: event.type })
    .onConflictDoNothing()
    .returning({ eventId: handledEvents.eventId });
  if (!marked.length) return 'duplicate';
  for (const key of keys) await sendNow(key).catch((error) => logger.error(`[mail] ${String(error)}`));
  return 'handled';
}

async function planName(plan: PlanKey, locale: Locale): Promise<string> {
  return (await localizedPlans(locale)).find((p) => p.key === plan)?.name ?? plan;
}

async function recipient(customerId: string) {
  const account = await getAccount(customerId);
  if (account) return { to: account.email, name: account.name, locale: account.locale };
  const customer = await billing().getCustomer(customerId);
  return customer ? { to: customer.email, name: customer.name, locale: customer.locale } : null;
}

const siteLink = (path: string, locale: Locale) => `${env().siteUrl}${localizePath(path, locale)}`;

/**
 * Records when a client's subscription ended (null: one runs again), for the accounts' retention.
 * Events may arrive out of order (an old subscription's end after a new one's start): the
 * retention job asks billing again before it removes anyone.
 */
async function markSubscriptionEnded(customerId: string, endedAt: Date | null): Promise<void> {
  await (
    await processDb()
  )
    .update(accounts)
    .set({ subscriptionEndedAt: endedAt })
    .where(eq(accounts.customerId, customerId));
}

/** Returns the keys of the emails it queued. */
async function apply(event: BillingEvent): Promise<string[]> {
  switch (event.type) {
    case 'checkout.session.completed': {
      const { customer } = event;
      await ensureCustomerAccount(customer);
      await markSubscriptionEnded(customer.id, null);
      const subscription = await billing().getSubscription(customer.id);
      const invoice = event.invoiceId ? await billing().getInvoice(customer.id, event.invoiceId) : null;
      if (!subscription) return [];
      return queueFor(customer.id, `started:${event.subscriptionId}`, async (locale, name) => ({
        kind: 'subscription-started',
        planName: await planName(subscription.plan, locale),
        amount: subscription.amount,
        periodEnd: subscription.currentPeriodEnd,
        invoiceNumber: invoice?.number ?? '',
        invoiceUrl: invoice
          ? siteLink(`/account/invoices/${invoice.id}`, locale)
          : siteLink('/account/subscription', locale),
        name,
      }));
    }
    case 'customer.subscription.created':
      await markSubscriptionEnded(event.subscription.customerId, null);
      return [];
    case 'customer.subscription.deleted':
      await markSubscriptionEnded(
        event.subscription.customerId,
        new Date(event.subscription.endedAt ?? event.subscription.currentPeriodEnd),
      );
      return [];
    case 'customer.subscription.updated':
      return subscriptionChangeMails(event.subscription, event.previous);
    case 'subscription_schedule.updated':
      return subscriptionChangeMails(event.subscription, { scheduledChange: undefined });
    case 'invoice.payment_failed': {
      const { invoice } = event;
      return queueFor(invoice.customerId, `payment-failed:${invoice.id}`, async (locale, name) => ({
        kind: 'payment-failed',
        planName: invoice.plan ? await planName(invoice.plan, locale) : '',
        amount: invoice.amount,
        invoiceNumber: invoice.number,
        manageUrl: siteLink('/account/subscription', locale),
        name,
      }));
    }
    default:
      return [];
  }
}

/**
 * Emails for a change of a subscription: a cancellation (keyed by when it was asked for, so
 * cancel, resume and cancel again send two), a scheduled plan change (keyed by target and date)
 * and a withdrawn change.
 */
export async function subscriptionChangeMails(
  sub: SubscriptionView,
  previous: Partial<SubscriptionView>,
): Promise<string[]> {
  const keys: string[] = [];
  if (sub.cancelAtPeriodEnd && sub.canceledAt && previous.cancelAtPeriodEnd !== true) {
    keys.push(
      ...(await queueFor(sub.customerId, `cancel:${sub.id}:${sub.canceledAt}`, async (locale, name) => ({
        kind: 'cancellation',
        planName: await planName(sub.plan, locale),
        accessEndsAt: sub.currentPeriodEnd,
        resumeUrl: siteLink('/account/subscription', locale),
        name,
      }))),
    );
  }
  if ('scheduledChange' in previous) {
    if (sub.scheduledChange) {
      const change = sub.scheduledChange;
      keys.push(
        ...(await queueFor(
          sub.customerId,
          `change:${sub.id}:${change.plan}:${change.effectiveAt}:${change.requestRef ?? ''}`,
          async (locale, name) => {
            const plans = await localizedPlans(locale);
            const target = plans.find((p) => p.key === change.plan);
            return {
              kind: 'plan-changed',
              oldPlanName: plans.find((p) => p.key === sub.plan)?.name ?? sub.plan,
              newPlanName: target?.name ?? change.plan,
              effectiveAt: change.effectiveAt,
              newAmount: (target?.priceSgd ?? 0) * 100,
              name,
            };
          },
        )),
      );
    } else if (previous.scheduledChange) {
      const was = previous.scheduledChange;
      keys.push(
        ...(await queueFor(
          sub.customerId,
          `withdraw:${sub.id}:${was.plan}:${was.effectiveAt}:${was.requestRef ?? ''}`,
          async (locale, name) => ({
            kind: 'change-withdrawn',
            planName: await planName(sub.plan, locale),
            name,
          }),
        )),
      );
    }
  }
  return keys;
}

/** The email's own fields (kind and facts); the recipient's language and the site are added here. */
type Compose = (locale: Locale, name: string) => Promise<DistributiveOmit<ClientEmail, 'locale' | 'siteUrl'>>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

async function queueFor(customerId: string, key: string, compose: Compose): Promise<string[]> {
  const to = await recipient(customerId);
  if (!to) return [];
  const body = await compose(to.locale, to.name);
  await queueMail(key, to.to, { ...body, locale: to.locale, siteUrl: env().siteUrl } as QueuedMessage);
  return [key];
}

/** Delivers the embedded engine's recorded events to the handler (Stripe delivers its own by webhook). */
export async function dispatchEngineEvents(limit = 50, db?: Db): Promise<number> {
  const engine = embeddedBilling();
  if (!engine) return 0;
  // Claimed with for update skip locked and a lease (the engine's outbox): two server copies
  // never deliver one event at once.
  return engine.deliverEvents((event) => handleBillingEvent(event, db), limit);
}
