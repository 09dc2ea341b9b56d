import { readdir, readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Customer, SubscriptionView } from '~/billing/types';
import {
  accounts,
  faqQuestions,
  lakeEditorCodes,
  lakeEditors,
  lakeEditorSessions,
  mailQueue,
  newsletterSignups,
  sessions,
  signinCodes,
} from '~/db/schema.server';
import type { Db } from '~/db/types.server';

/**
 * Erasure: `npm run erase -- someone@example.com` (scripts/erase.ts) removes a person's data
 * wherever the product holds it, place by place, and says what it removed in each; erasing
 * again removes nothing. The places are three lists:
 * - ERASURE_PLACES: the database's rows about the person, the development outbox, and (until
 *   the accounts and mail queue leave it) the content store's portal documents;
 * - BILLING_ERASURE_PLACES: the billing engine's records (customers, subscriptions, invoices,
 *   checkouts). They are not in the database yet; the billing port replaces the entry here with
 *   its erasure. Until then this entry erases NOTHING: it lists the customer it finds;
 * - LISTED_PLACES: what the firm erases by hand and the product only lists (Stripe's customers).
 */
/** What erasure reads of a billing provider: who the address is, and whether they are still billed. */
export interface BillingLookup {
  findCustomerByEmail(email: string): Promise<Customer | null>;
  getSubscription(customerId: string): Promise<SubscriptionView | null>;
}

export interface ErasureContext {
  db: Db;
  /** The embedded world's mail folder (OUTBOX_DIR, or {CONTENT_DATA_DIR}/outbox). */
  outboxDir: string;
  /** The embedded billing engine, when it runs (its customers are listed, not erased). */
  billingEngine: BillingLookup | null;
  /** The Stripe adapter, when Stripe is configured (read only). */
  stripe: BillingLookup | null;
}

/** A subscription of the person that will renew: it must end before their account can go. */
export interface StillRenewing {
  provider: 'billing engine' | 'Stripe';
  customerId: string;
  subscription: SubscriptionView;
}

/**
 * Erasure refused, nothing erased: the person still has a subscription that renews. Erasing
 * their account then would leave them billed every month with no account to sign in to and
 * cancel it. The client cancels it (the portal), or the firm does (the Stripe Dashboard, or the
 * client's cancel step), and erasure runs once it no longer renews.
 */
export class StillBilledError extends Error {
  constructor(
    readonly email: string,
    readonly renewing: StillRenewing[],
  ) {
    super(
      `nothing erased: ${email} still has a subscription that renews (` +
        renewing
          .map(
            (r) =>
              `${r.provider} ${r.subscription.id}, plan ${r.subscription.plan}, ${r.subscription.status}, next renewal ${r.subscription.currentPeriodEnd.slice(0, 10)}`,
          )
          .join('; ') +
        '). Cancel it first (the client can, at /account/subscription; with Stripe, the firm can in its Dashboard), then erase: ' +
        'erased now, the client would go on being billed with no account to sign in to and cancel.',
    );
    this.name = 'StillBilledError';
  }
}

/** The person's subscriptions that will renew, in the engine and in Stripe. */
export async function subscriptionsStillRenewing(email: string, context: ErasureContext): Promise<StillRenewing[]> {
  const renewing: StillRenewing[] = [];
  const providers = [
    ['billing engine', context.billingEngine],
    ['Stripe', context.stripe],
  ] as const;
  for (const [provider, lookup] of providers) {
    if (!lookup) continue;
    const customer = await lookup.findCustomerByEmail(email);
    if (!customer) continue;
    const subscription = await lookup.getSubscription(customer.id);
    // `canceled` has ended; cancelAtPeriodEnd ends at the close of the period it was paid for.
    if (subscription && subscription.status !== 'canceled' && !subscription.cancelAtPeriodEnd)
      renewing.push({ provider, customerId: customer.id, subscription });
  }
  return renewing;
}

export interface PlaceReport {
  place: string;
  /** Records removed (0 for a place that only lists). */
  removed: number;
  /** What was removed or found, one line each. */
  lines: string[];
  /** What the operator should know about this place. */
  note?: string;
  /** The place could not be erased (the note says why): run the command again. */
  failed?: true;
}

export interface ErasurePlace {
  place: string;
  /** `email`: trimmed, lower case. */
  erase(email: string, context: ErasureContext): Promise<PlaceReport>;
}

const report = (place: string, removed: number, lines: string[] = [], note?: string): PlaceReport => ({
  place,
  removed,
  lines,
  ...(note ? { note } : {}),
});

/** Largest outbox .json read (the mailer writes a few kilobytes; anything bigger is not one of its files). */
const MAX_OUTBOX_JSON = 1024 * 1024;

/** The addresses in a header value: `a@x`, `Name <a@x>`, `a@x, b@y`. */
function addressesIn(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  return (value.match(/[^\s<>,;"']+@[^\s<>,;"']+/g) ?? []).map((a) => a.toLowerCase());
}

export const ERASURE_PLACES: readonly ErasurePlace[] = [
  {
    place: 'database: portal accounts (with their sessions and sign-in codes)',
    async erase(email, { db }) {
      return db.transaction(async (tx) => {
        const found = await tx.select({ id: accounts.customerId }).from(accounts).where(eq(accounts.email, email));
        if (!found.length) return report(this.place, 0);
        const ids = found.map((a) => a.id);
        const counts = await tx.execute<{ sessions: number; codes: number }>(sql`
          select (select count(*)::int from ${sessions} where ${inArray(sessions.customerId, ids)}) as sessions,
                 (select count(*)::int from ${signinCodes} where ${inArray(signinCodes.customerId, ids)}) as codes`);
        // Sessions and codes go with the account (on delete cascade).
        const gone = await tx
          .delete(accounts)
          .where(inArray(accounts.customerId, ids))
          .returning({ id: accounts.customerId });
        const { sessions: s = 0, codes: c = 0 } = counts.rows[0] ?? {};
        return report(
          this.place,
          gone.length,
          gone.map((a) => `account ${a.id}`).concat(s || c ? [`${s} sessions and ${c} sign-in codes with it`] : []),
        );
      });
    },
  },
  {
    place: 'database: Studio editor account (with its sessions and sign-in codes)',
    async erase(email, { db }) {
      return db.transaction(async (tx) => {
        const counts = await tx.execute<{ sessions: number; codes: number }>(sql`
          select (select count(*)::int from ${lakeEditorSessions} where ${eq(lakeEditorSessions.email, email)}) as sessions,
                 (select count(*)::int from ${signinCodes} where ${eq(signinCodes.editorEmail, email)})
                   + (select count(*)::int from ${lakeEditorCodes} where ${eq(lakeEditorCodes.email, email)}) as codes`);
        // Sessions and codes go with the account (on delete cascade).
        const gone = await tx
          .delete(lakeEditors)
          .where(eq(lakeEditors.email, email))
          .returning({ name: lakeEditors.name });
        if (!gone.length) return report(this.place, 0);
        const { sessions: s = 0, codes: c = 0 } = counts.rows[0] ?? {};
        return report(
          this.place,
          gone.length,
          [`editor ${gone[0].name}`].concat(s || c ? [`${s} sessions and ${c} sign-in codes with it`] : []),
          'their content edits stay in the content history under an opaque id that no longer names them',
        );
      });
    },
  },
  {
    place: 'database: FAQ questions',
    async erase(email, { db }) {
      // Stored as typed: compared in lower case (a scan of the table: erasure is rare).
      const gone = await db
        .delete(faqQuestions)
        .where(sql`lower(trim(${faqQuestions.email})) = ${email}`)
        .returning({ id: faqQuestions.id, at: faqQuestions.submittedAt });
      return report(
        this.place,
        gone.length,
        gone.map((q) => `question ${q.id} of ${q.at.toISOString().slice(0, 10)}`),
      );
    },
  },
  {
    place: 'database: newsletter sign-up',
    async erase(email, { db }) {
      const gone = await db
        .delete(newsletterSignups)
        .where(eq(newsletterSignups.emailKey, email))
        .returning({ at: newsletterSignups.submittedAt });
      return report(
        this.place,
        gone.length,
        gone.map((s) => `signed up ${s.at.toISOString().slice(0, 10)}`),
      );
    },
  },
  {
    place: 'database: client emails (queued, sent or dropped)',
    async erase(email, { db }) {
      const gone = await db
        .delete(mailQueue)
        .where(sql`lower(${mailQueue.toAddress}) = ${email}`)
        .returning({ kind: mailQueue.kind, status: mailQueue.status });
      return report(
        this.place,
        gone.length,
        gone.map((m) => `${m.kind} (${m.status})`),
      );
    },
  },
  {
    place: 'database: rate-limit windows',
    async erase() {
      return report(
        this.place,
        0,
        [],
        'not findable by address: they are kept under keyed pseudonyms, not the address, and each ends within an hour',
      );
    },
  },
  {
    place: 'outbox (development mail)',
    async erase(email, { outboxDir }) {
      let names: string[];
      try {
        names = await readdir(outboxDir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT')
          return report(this.place, 0, [], `no folder ${outboxDir}`);
        throw error;
      }
      const lines: string[] = [];
      for (const name of names) {
        if (!name.endsWith('.json') || name.startsWith('.')) continue;
        const file = path.join(outboxDir, name);
        let message: { to?: unknown; replyTo?: unknown; subject?: unknown };
        try {
          if ((await stat(file)).size > MAX_OUTBOX_JSON) continue;
          message = JSON.parse(await readFile(file, 'utf8'));
        } catch {
          continue; // gone meanwhile, or not one of the mailer's files
        }
        // Mail to them, and the firm's notifications of their submissions (Reply-To: them).
        if (![...addressesIn(message.to), ...addressesIn(message.replyTo)].includes(email)) continue;
        const base = name.slice(0, -'.json'.length);
        for (const twin of [`${base}.eml`, name])
          await unlink(path.join(outboxDir, twin)).catch((error: NodeJS.ErrnoException) => {
            if (error.code !== 'ENOENT') throw error;
          });
        lines.push(`${base} (.json and .eml)`);
      }
      return report(this.place, lines.length, lines);
    },
  },
];

/**
 * The embedded billing engine's records of a client (customer, subscriptions, invoices): kept,
 * as accounting records (UAE tax law keeps them five years; the invoices carry the client's
 * name and address). Listed for the operator, who can answer the request with what is kept and
 * until when. Everything else about the person is erased above.
 */
export const BILLING_ERASURE_PLACES: ErasurePlace[] = [
  {
    place: 'billing engine: customer, subscriptions and invoices (kept as accounting records)',
    async erase(email, { billingEngine }) {
      if (!billingEngine) return report(this.place, 0, [], 'the embedded billing engine does not run here');
      const customer = await billingEngine.findCustomerByEmail(email);
      return report(
        this.place,
        0,
        customer ? [`customer ${customer.id} (${customer.name}): kept`] : [],
        customer
          ? 'invoices and the customer they name are accounting records, kept five years (UAE tax law) and not erased on request'
          : undefined,
      );
    },
  },
];

export const LISTED_PLACES: readonly ErasurePlace[] = [
  {
    place: 'Stripe customers (listed for the operator, not deleted)',
    async erase(email, { stripe }) {
      if (!stripe) return report(this.place, 0, [], 'Stripe is not configured here: nothing to list');
      const customer = await stripe.findCustomerByEmail(email);
      return report(
        this.place,
        0,
        customer ? [`customer ${customer.id} (${customer.name})`] : [],
        customer
          ? 'delete or redact it in the Stripe Dashboard if the request covers payment records (Stripe keeps what the law requires); the adapter finds the first customer with this address: search the Dashboard for others'
          : 'none found with this address',
      );
    },
  },
];

/**
 * Erases `email` everywhere, place by place, in the lists' order. Throws StillBilledError, having
 * erased nothing, while the person has a subscription that renews; an error reading the billing
 * providers is thrown as is, also before anything is erased.
 */
export async function erasePerson(email: string, context: ErasureContext): Promise<PlaceReport[]> {
  const address = email.trim().toLowerCase();
  const renewing = await subscriptionsStillRenewing(address, context);
  if (renewing.length) throw new StillBilledError(address, renewing);
  const reports: PlaceReport[] = [];
  for (const place of [...ERASURE_PLACES, ...BILLING_ERASURE_PLACES, ...LISTED_PLACES]) {
    try {
      reports.push(await place.erase(address, context));
    } catch (error) {
      // One place failing never keeps the others from being erased; the command exits 1.
      reports.push({ ...report(place.place, 0, [], `FAILED: ${String(error)}`), failed: true });
    }
  }
  return reports;
}

/** The report as the command prints it. */
export function formatErasure(email: string, reports: PlaceReport[]): string {
  const total = reports.reduce((n, r) => n + r.removed, 0);
  const out = [`Erasure of ${email}: ${total} record${total === 1 ? '' : 's'} removed`];
  for (const r of reports) {
    out.push(`- ${r.place}: ${r.removed} removed`);
    for (const line of r.lines) out.push(`    ${line}`);
    if (r.note) out.push(`    note: ${r.note}`);
  }
  return out.join('\n') + '\n';
}
