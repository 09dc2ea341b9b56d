import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { billing, embeddedBilling, localizedPlans } from '~/billing/billing.server';
import { database as processDatabase } from '~/db/client.server';
import { LOCK_KEYS, runExclusive } from '~/db/coordination.server';
import { renewalReminders } from '~/db/schema.server';
import type { Database, Db } from '~/db/types.server';
import { firmInbox } from '~/features/forms/submissions.server';
import { env } from '~/lib/env.server';
import { log } from '~/lib/log.server';
import { metrics } from '~/lib/metrics.server';
import { localizePath } from '~/i18n';
import { getAccount } from './accounts.server';
import { dispatchEngineEvents } from './events.server';
import { consume, type LimitContext } from './limits.server';
import { mailDeps, queueMail, sendDueMail } from './mail-queue.server';
import { enforceRetention } from './retention.server';

/**
 * The portal's periodic work. A run happens in one server copy at a time, however many share
 * the database: it holds an advisory lock (LOCK_KEYS.portalJobs, coordination.server.ts) for
 * its length, and a copy that finds it taken skips the run (`skipped: true`); in one process a
 * run asked for while one is going joins it. The servers' timers run them once per interval
 * between all the copies, not once per copy (claimTimerRun). Every step is safe to repeat after a crash:
 * 1. embedded billing: renewals, scheduled plan changes, ends of cancelled subscriptions
 *    (Stripe does this itself in the hosted world);
 *    then the tax invoices that wait for an SGD→AED rate are issued if one is now recorded; those
 *    still waiting are in the report (`taxInvoicesWaiting`), the log and an email to the firm;
 * 2. the embedded engine's events are delivered to the portal's handler;
 * 3. the 7-day renewal reminder, for both worlds: every subscription that will renew within 7
 *    days gets one reminder per billing period, marked in `renewal_reminders` (never for one
 *    that is cancelling, since it will not renew);
 * 4. queued emails are sent;
 * 5. clean-up: what is past its retention goes (retention.server.ts, docs/portal.md).
 * A step that fails is logged and the next still runs (a billing failure never stops the
 * clean-up).
 */
export const REMINDER_DAYS = 7;
/** Subscriptions a run reminds at most; the rest are still within the 7 days at the next run. */
export const REMINDERS_PER_RUN = 200;

export interface JobReport {
  /** Another server copy was running the jobs: this one did nothing. */
  skipped: boolean;
  renewed: number;
  changed: number;
  ended: number;
  failedPayments: number;
  events: number;
  reminders: number;
  mailSent: number;
  mailFailed: number;
  purged: number;
  /** Tax invoices issued this run after waiting for their exchange rate. */
  taxInvoicesIssued: number;
  /** Tax invoices still waiting for an exchange rate ("BWB-2026-0042 (supply 2026-11-02)"), oldest first. */
  taxInvoicesWaiting: string[];
  /** Steps that failed (their errors are logged). */
  failed: string[];
}

const emptyReport = (): JobReport => ({
  skipped: false,
  renewed: 0,
  changed: 0,
  ended: 0,
  failedPayments: 0,
  events: 0,
  reminders: 0,
  mailSent: 0,
  mailFailed: 0,
  purged: 0,
  taxInvoicesIssued: 0,
  taxInvoicesWaiting: [],
  failed: [],
});

let running: Promise<JobReport> | null = null;
/** Set at shutdown: the first tick's timer (2 s after start) does nothing after it. */
let stopped = false;

/**
 * Runs the jobs on the process's database, or on `database` (a test's runner of its own, as
 * another server copy would be).
 */
export function runPortalJobs(database?: Database): Promise<JobReport> {
  if (database) return runOnce(database);
  running ??= processDatabase()
    .then(runOnce)
    .finally(() => (running = null));
  return running;
}

async function runOnce(database: Database): Promise<JobReport> {
  const report = emptyReport();
  const runId = randomUUID();
  const outcome = await runExclusive(database, LOCK_KEYS.portalJobs, () => runSteps(database.db, report, runId));
  const result = outcome.ran ? (report.failed.length ? 'failed' : 'ok') : 'skipped';
  metrics().jobRuns.inc({ outcome: result });
  if (outcome.ran) {
    const { failed, taxInvoicesWaiting, ...counts } = report;
    const busy = Object.fromEntries(Object.entries(counts).filter(([, n]) => typeof n === 'number' && n > 0));
    // A run that did nothing is a debug line: the timer runs every minute.
    const level = failed.length || Object.keys(busy).length ? 'info' : 'debug';
    log[level]({ event: 'jobs.run', runId, outcome: result, failed, waiting: taxInvoicesWaiting.length, ...busy });
  }
  return outcome.ran ? report : { ...report, skipped: true };
}

async function runSteps(db: Db, report: JobReport, runId: string): Promise<JobReport> {
  const step = async (name: string, work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      report.failed.push(name);
      log.error({ event: 'jobs.step-failed', runId, step: name, err: error }, `[portal jobs] ${name} failed`);
    }
  };
  const engine = embeddedBilling();
  if (engine) {
    await step('renewals', async () => {
      const due = await engine.runDue();
      Object.assign(report, {
        renewed: due.renewed,
        changed: due.changed,
        ended: due.ended,
        failedPayments: due.failed,
      });
    });
    await step('tax invoices', async () => {
      const tax = await engine.completeWaitingInvoices();
      report.taxInvoicesIssued = tax.completed.length;
      report.taxInvoicesWaiting = tax.waiting.map((w) => `${w.number} (supply ${w.supplyDate})`);
      if (tax.waiting.length) await tellOperatorRatesMissing(tax.waiting);
    });
    await step('events', async () => {
      // Events until the outbox is empty (bounded, in case something keeps adding).
      for (let round = 0; round < 20; round++) {
        const n = await dispatchEngineEvents(100, db);
        report.events += n;
        if (n < 100) break;
      }
    });
  }
  await step('reminders', async () => {
    report.reminders = await queueRenewalReminders(db);
  });
  await step('mail', async () => {
    const mail = await sendDueMail(50);
    report.mailSent = mail.sent;
    report.mailFailed = mail.failed;
  });
  await step('clean-up', async () => {
    report.purged = await purgeExpired(db);
  });
  return report;
}

/** Supply days the operator was told about by this process (the email's Message-ID makes a repeat from another copy the same message). */
const toldMissingRates = new Set<string>();
/** Tests: forget which supply days were told (each test world starts afresh). */
export const forgetRateNotices = () => toldMissingRates.clear();

/**
 * Tells the operator, in the log and by email to the firm's address, that invoices wait for an
 * SGD→AED rate (`npm run rates -- add …`). One email per supply day; the log line every run.
 */
async function tellOperatorRatesMissing(waiting: { number: string; supplyDate: string }[]) {
  const days = [...new Set(waiting.map((w) => w.supplyDate))];
  log.warn(
    `[portal jobs] ${waiting.length} tax invoice(s) wait for an SGD→AED rate for ${days.join(', ')}: npm run rates -- add SGD <date> <rate> <source>`,
  );
  const fresh = days.filter((d) => !toldMissingRates.has(d));
  if (!fresh.length) return;
  const deps = mailDeps();
  const host = new URL(env().siteUrl).hostname;
  await deps.mailer.send({
    to: await firmInbox(),
    from: deps.from,
    subject: `Tax invoices wait for an exchange rate (${fresh.join(', ')})`,
    text: [
      `These tax invoices wait for the SGD→AED exchange rate of their date of supply:`,
      '',
      ...waiting.map((w) => `  ${w.number}  supply ${w.supplyDate}`),
      '',
      'Record the rate the Central Bank of the UAE published for that day (or the last one before it):',
      '  npm run rates -- add SGD <YYYY-MM-DD> <AED per SGD> <source>',
      'The next jobs run issues them. No rate is ever guessed (docs/accounting.md).',
    ].join('\n'),
    messageId: `<tax-rate-waiting-${fresh.join('-')}@${host}>`,
  });
  for (const d of fresh) toldMissingRates.add(d);
}

/**
 * Queues the renewal reminders due and marks each period in `renewal_reminders`. The markers of
 * the candidates are read in one statement. The email is keyed to the period
 * (`reminder:<subscription>:<period end>`) and queued before the mark, so a run that dies in
 * between has its reminder queued and the next run, finding no mark, queues nothing twice and
 * marks it. The mark's insert (on conflict do nothing returning) decides which run counts the
 * reminder: returns how many periods this run marked, each reminder counted once overall.
 */
export async function queueRenewalReminders(db: Db): Promise<number> {
  const now = await billing().now();
  const horizon = new Date(now.getTime() + REMINDER_DAYS * 24 * 60 * 60 * 1000);
  const renewing = (await billing().listRenewing(horizon))
    .filter((sub) => !sub.cancelAtPeriodEnd && sub.status !== 'canceled' && new Date(sub.currentPeriodEnd) > now)
    .slice(0, REMINDERS_PER_RUN);
  if (!renewing.length) return 0;
  const marked = await db
    .select({ subscriptionId: renewalReminders.subscriptionId, periodEnd: renewalReminders.periodEnd })
    .from(renewalReminders)
    .where(
      inArray(
        renewalReminders.subscriptionId,
        renewing.map((sub) => sub.id),
      ),
    );
  const done = new Set(marked.map((m) => `${m.subscriptionId} ${m.periodEnd.getTime()}`));
  let queued = 0;
  for (const sub of renewing) {
    const periodEnd = new Date(sub.currentPeriodEnd);
    if (done.has(`${sub.id} ${periodEnd.getTime()}`)) continue;
    const account = await getAccount(sub.customerId);
    const customer = account ?? (await billing().getCustomer(sub.customerId));
    if (!customer) continue;
    const plans = await localizedPlans(customer.locale);
    const renewsTo = sub.scheduledChange?.plan ?? sub.plan;
    const plan = plans.find((p) => p.key === renewsTo);
    const siteUrl = env().siteUrl;
    await queueMail(`reminder:${sub.id}:${sub.currentPeriodEnd}`, customer.email, {
      kind: 'renewal-reminder',
      locale: customer.locale,
      name: customer.name,
      siteUrl,
      planName: plan?.name ?? renewsTo,
      renewsAt: sub.currentPeriodEnd,
      amount: (plan?.priceSgd ?? sub.amount / 100) * 100,
      manageUrl: `${siteUrl}${localizePath('/account/subscription', customer.locale)}`,
    });
    const mark = await db
      .insert(renewalReminders)
      .values({ subscriptionId: sub.id, periodEnd })
      .onConflictDoNothing()
      .returning({ subscriptionId: renewalReminders.subscriptionId });
    if (mark.length) queued++;
  }
  return queued;
}

/** Markers of one subscription (tests and diagnostics). */
export async function reminderMarkers(db: Db, subscriptionId: string): Promise<Date[]> {
  const rows = await db
    .select({ periodEnd: renewalReminders.periodEnd })
    .from(renewalReminders)
    .where(eq(renewalReminders.subscriptionId, subscriptionId))
    .orderBy(renewalReminders.periodEnd);
  return rows.map((r) => r.periodEnd);
}

/** The clean-up: the database's retention rules (app/portal/retention.server.ts). */
async function purgeExpired(db: Db, now = new Date()): Promise<number> {
  const removed = await enforceRetention(db, now);
  const counts = Object.entries(removed);
  if (counts.length) log.info(`[portal jobs] retention: ${counts.map(([what, n]) => `${what} ${n}`).join(', ')}`);
  return counts.reduce((sum, [, n]) => sum + n, 0);
}

declare global {
  var __portalJobTimer: NodeJS.Timeout | undefined;
}

/**
 * Whether a copy's timer may run the jobs now: once per interval between all the copies on the
 * database, not once per copy (the advisory lock alone only keeps runs from overlapping: two
 * copies whose timers tick half an interval apart would both run every interval). The claim is
 * a limit of one use per interval of the kind `portal-jobs` in `rate_limits` (one statement):
 * the first tick in a new window takes it, the other copies' ticks in that window skip. The
 * window is a tenth shorter than the interval (at most 1 s shorter), so that the claiming copy's
 * own next tick, which may come a few milliseconds early by the wall clock, finds it over.
 */
export function claimTimerRun(seconds: number, context: LimitContext = {}): Promise<boolean> {
  const windowMs = seconds * 1000 - Math.min(1000, seconds * 100);
  return consume('portal-jobs', 'timer', { max: 1, windowMs }, context);
}

/** Runs the jobs every PORTAL_JOBS_INTERVAL_SECONDS (default 60) inside the server; 0 turns it off. */
export function startPortalJobTimer(): void {
  const seconds = env().portalJobsIntervalSeconds;
  if (globalThis.__portalJobTimer || seconds <= 0) return;
  // A tick while this copy's run is still going does nothing: it would only join that run
  // (and log its report twice) after using up the next interval's claim.
  const tick = () =>
    running || stopped
      ? undefined
      : claimTimerRun(seconds)
          .then((mine) => (mine ? runPortalJobs() : null))
          .catch((error: unknown) => log.error({ event: 'jobs.failed', err: error }, '[portal jobs] the run failed'));
  globalThis.__portalJobTimer = setInterval(tick, seconds * 1000);
  globalThis.__portalJobTimer.unref();
  setTimeout(tick, 2000).unref();
}

/**
 * At shutdown (server/index.ts): no more ticks, and the run in progress, if any, finishes (its
 * mail claims are sent or released, its renewals committed) before the database closes.
 */
export async function stopPortalJobTimer(): Promise<void> {
  if (globalThis.__portalJobTimer) clearInterval(globalThis.__portalJobTimer);
  globalThis.__portalJobTimer = undefined;
  stopped = true;
  await running?.catch(() => {});
}
