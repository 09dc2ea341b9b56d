import { billing, embeddedBilling, localizedPlans } from '~/billing/billing.server';
import { db } from '~/db/client.server';
import { purgeExpiredFormTokens } from '~/features/forms/submissions.server';
import { env } from '~/lib/env.server';
import { localizePath } from '~/i18n';
import { contentClient } from '~/sanity/client.server';
import { getAccount } from './accounts.server';
import { purgeExpiredLimits } from './limits.server';
import { dispatchEngineEvents } from './events.server';
import { queueMail, sendDueMail } from './mail-queue.server';

/**
 * The portal's periodic work, one run at a time in this process (a run asked for while one is
 * going joins it), idempotent across processes and crashes:
 * 1. embedded billing: renewals, scheduled plan changes, ends of cancelled subscriptions
 *    (Stripe does this itself in the hosted world);
 * 2. the embedded engine's events are delivered to the portal's handler;
 * 3. the 7-day renewal reminder, for both worlds: every subscription that will renew within 7
 *    days gets one reminder per billing period, guarded by `portal.reminder.<sub>.<period end>`
 *    (never for one that is cancelling, since it will not renew);
 * 4. queued emails are sent;
 * 5. expired sign-in codes, rate-limit windows and used form tokens are removed.
 */
export const REMINDER_DAYS = 7;

export interface JobReport {
  renewed: number;
  changed: number;
  ended: number;
  failedPayments: number;
  events: number;
  reminders: number;
  mailSent: number;
  mailFailed: number;
  purged: number;
}

let running: Promise<JobReport> | null = null;

export function runPortalJobs(): Promise<JobReport> {
  running ??= runOnce().finally(() => (running = null));
  return running;
}

async function runOnce(): Promise<JobReport> {
  const report: JobReport = {
    renewed: 0,
    changed: 0,
    ended: 0,
    failedPayments: 0,
    events: 0,
    reminders: 0,
    mailSent: 0,
    mailFailed: 0,
    purged: 0,
  };
  const engine = embeddedBilling();
  if (engine) {
    const due = await engine.runDue();
    Object.assign(report, { renewed: due.renewed, changed: due.changed, ended: due.ended, failedPayments: due.failed });
    // Events until the outbox is empty (bounded, in case something keeps adding).
    for (let round = 0; round < 20; round++) {
      const n = await dispatchEngineEvents(100);
      report.events += n;
      if (n < 100) break;
    }
  }
  report.reminders = await queueRenewalReminders();
  const mail = await sendDueMail(50);
  report.mailSent = mail.sent;
  report.mailFailed = mail.failed;
  report.purged = await purgeExpired();
  return report;
}

export async function queueRenewalReminders(): Promise<number> {
  const now = await billing().now();
  const horizon = new Date(now.getTime() + REMINDER_DAYS * 24 * 60 * 60 * 1000);
  const renewing = await billing().listRenewing(horizon);
  const store = contentClient();
  let queued = 0;
  for (const sub of renewing) {
    if (sub.cancelAtPeriodEnd || sub.status === 'canceled' || new Date(sub.currentPeriodEnd) <= now) continue;
    const marker = `portal.reminder.${sub.id}.${new Date(sub.currentPeriodEnd).getTime()}` as const;
    if (await store.getDocument(marker)) continue;
    const account = await getAccount(sub.customerId);
    const customer = account ?? (await billing().getCustomer(sub.customerId));
    if (!customer) continue;
    const plans = await localizedPlans(customer.locale);
    const renewsTo = sub.scheduledChange?.plan ?? sub.plan;
    const plan = plans.find((p) => p.key === renewsTo);
    const siteUrl = env().siteUrl;
    const isNew = await queueMail(`reminder:${sub.id}:${sub.currentPeriodEnd}`, customer.email, {
      kind: 'renewal-reminder',
      locale: customer.locale,
      name: customer.name,
      siteUrl,
      planName: plan?.name ?? renewsTo,
      renewsAt: sub.currentPeriodEnd,
      amount: (plan?.priceSgd ?? sub.amount / 100) * 100,
      manageUrl: `${siteUrl}${localizePath('/account/subscription', customer.locale)}`,
    });
    await store.mutate([
      {
        createIfNotExists: {
          _id: marker,
          _type: 'portal.reminder',
          subscriptionId: sub.id,
          periodEnd: sub.currentPeriodEnd,
          queuedAt: now.toISOString(),
        },
      },
    ]);
    if (isNew) queued++;
  }
  return queued;
}

async function purgeExpired(): Promise<number> {
  const store = contentClient();
  const now = Date.now();
  const ids = await store.queryPrivate<string[]>(`*[_type == "portal.code" && expiresAt < $now][0...200]._id`, { now });
  if (ids.length) await store.mutate(ids.map((id) => ({ delete: { id } })));
  // Rate-limit windows and used form tokens live in the database.
  const database = await db();
  return ids.length + (await purgeExpiredLimits(database, now)) + (await purgeExpiredFormTokens(database, now));
}

declare global {
  var __portalJobTimer: NodeJS.Timeout | undefined;
}

/** Runs the jobs every PORTAL_JOBS_INTERVAL_SECONDS (default 60) inside the server; 0 turns it off. */
export function startPortalJobTimer(): void {
  const seconds = env().portalJobsIntervalSeconds;
  if (globalThis.__portalJobTimer || seconds <= 0) return;
  const tick = () =>
    runPortalJobs().then(
      (r) => {
        const busy = Object.entries(r).filter(([, n]) => n > 0);
        if (busy.length) console.log(`[portal jobs] ${busy.map(([k, n]) => `${k} ${n}`).join(', ')}`);
      },
      (error) => console.error(`[portal jobs] ${String(error)}`),
    );
  globalThis.__portalJobTimer = setInterval(tick, seconds * 1000);
  globalThis.__portalJobTimer.unref();
  setTimeout(tick, 2000).unref();
}
