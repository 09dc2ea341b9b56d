import { and, asc, desc, eq, or, sql } from 'drizzle-orm';
import {
  accounts,
  billingCheckouts,
  billingCustomers,
  billingCreditNotes,
  billingInvoices,
  billingSubscriptions,
  faqQuestions,
  mailQueue,
  newsletterSignups,
  sessions,
  signinCodes,
} from '~/db/schema.server';
import type { Db } from '~/db/types.server';

/**
 * A person's own data (issue 42, item 3): everything the firm's database holds about one email
 * address, as one machine-readable JSON file. ONE function builds it, for the portal's download
 * (a signed-in client, /account/personal-data) and for the operator's command for a request that
 * arrives by email (`npm run personal-data -- export <email> --out file.json`), so both give the
 * same file.
 *
 * Who is "the person": the address (trimmed, lower case). Their portal account and billing customer
 * are the ones with that address (one each, unique), and everything else is found from them: the
 * customer's subscriptions, invoices and checkouts, the account's sessions and sign-in codes;
 * FAQ questions, the newsletter sign-up and emails sent are found by the address itself. Nothing is
 * read by anything a client can choose but their own address, so no other person's row can be in it.
 *
 * Bounded: each list holds at most MAX_ROWS rows, newest first (`truncated` names the lists that
 * had more: the operator can export the rest from the database); every text in these tables is
 * bounded by the schema, so the file stays within a few megabytes.
 *
 * Left out on purpose: secrets and what only the server uses (session and code ids, their hashes,
 * rate-limit pseudonyms, form-token hashes), and email bodies (each email's kind, status and dates
 * are listed; the bodies are derived from the records listed here).
 */
export const PERSONAL_DATA_FORMAT = 'bawaba-personal-data/1';
export const MAX_ROWS = 500;

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export interface PersonalDataFile {
  format: typeof PERSONAL_DATA_FORMAT;
  generatedAt: string;
  email: string;
  /** What each part is, in English (the portal page says it in the reader's language). */
  contents: Record<string, string>;
  account: Record<string, unknown> | null;
  billing: {
    customer: Record<string, unknown> | null;
    subscriptions: Record<string, unknown>[];
    invoices: Record<string, unknown>[];
    /** The customer's tax credit notes, each with the snapshot it was issued with. */
    creditNotes: Record<string, unknown>[];
    checkouts: Record<string, unknown>[];
  };
  signIns: { sessions: Record<string, unknown>[]; codes: Record<string, unknown>[] };
  faqQuestions: Record<string, unknown>[];
  newsletter: Record<string, unknown>[];
  emails: Record<string, unknown>[];
  /** Lists cut at MAX_ROWS. */
  truncated: string[];
}

export async function buildPersonalData(db: Db, rawEmail: string, now: Date): Promise<PersonalDataFile> {
  const email = rawEmail.trim().toLowerCase();
  const truncated: string[] = [];
  /** Reads one more than the bound to know whether the list was cut. */
  const bounded = <T>(name: string, rows: T[]): T[] => {
    if (rows.length <= MAX_ROWS) return rows;
    truncated.push(name);
    return rows.slice(0, MAX_ROWS);
  };
  const limit = MAX_ROWS + 1;

  const [account] = await db.select().from(accounts).where(eq(accounts.email, email));
  const [customer] = await db.select().from(billingCustomers).where(eq(billingCustomers.email, email));
  // The portal account is named after its billing customer (same id): either finds the other.
  const customerId = customer?.id ?? account?.customerId ?? null;

  const subscriptions = customerId
    ? await db
        .select()
        .from(billingSubscriptions)
        .where(eq(billingSubscriptions.customerId, customerId))
        .orderBy(desc(billingSubscriptions.createdAt))
        .limit(limit)
    : [];
  const invoices = customerId
    ? await db
        .select()
        .from(billingInvoices)
        .where(eq(billingInvoices.customerId, customerId))
        .orderBy(desc(billingInvoices.createdAt), desc(billingInvoices.sequence))
        .limit(limit)
    : [];
  const creditNotes = customerId
    ? await db
        .select()
        .from(billingCreditNotes)
        .where(eq(billingCreditNotes.customerId, customerId))
        .orderBy(desc(billingCreditNotes.createdAt), desc(billingCreditNotes.sequence))
        .limit(limit)
    : [];
  const checkouts = await db
    .select()
    .from(billingCheckouts)
    .where(
      customerId
        ? or(
            eq(billingCheckouts.customerId, customerId),
            eq(billingCheckouts.resultCustomerId, customerId),
            eq(billingCheckouts.email, email),
          )
        : eq(billingCheckouts.email, email),
    )
    .orderBy(desc(billingCheckouts.createdAt))
    .limit(limit);
  const sessionRows = account
    ? await db
        .select({ createdAt: sessions.createdAt, expiresAt: sessions.expiresAt })
        .from(sessions)
        .where(eq(sessions.customerId, account.customerId))
        .orderBy(desc(sessions.createdAt))
        .limit(limit)
    : [];
  const codeRows = account
    ? await db
        .select({
          audience: signinCodes.audience,
          locale: signinCodes.locale,
          createdAt: signinCodes.createdAt,
          expiresAt: signinCodes.expiresAt,
          checkout: signinCodes.checkout,
        })
        .from(signinCodes)
        .where(and(eq(signinCodes.customerId, account.customerId), eq(signinCodes.audience, 'client')))
        .orderBy(desc(signinCodes.createdAt))
        .limit(limit)
    : [];
  // Stored as typed: compared trimmed and in lower case, as erasure does.
  const questions = await db
    .select()
    .from(faqQuestions)
    .where(sql`lower(trim(${faqQuestions.email})) = ${email}`)
    .orderBy(desc(faqQuestions.submittedAt))
    .limit(limit);
  const signups = await db.select().from(newsletterSignups).where(eq(newsletterSignups.emailKey, email));
  const emails = await db
    .select({
      kind: mailQueue.kind,
      status: mailQueue.status,
      createdAt: mailQueue.createdAt,
      sentAt: mailQueue.sentAt,
    })
    .from(mailQueue)
    .where(sql`lower(${mailQueue.toAddress}) = ${email}`)
    .orderBy(desc(mailQueue.createdAt), asc(mailQueue.kind))
    .limit(limit);

  return {
    format: PERSONAL_DATA_FORMAT,
    generatedAt: now.toISOString(),
    email,
    contents: {
      account: 'Your client account: name, company, email, language of emails, when it was opened.',
      billing:
        'Your billing records: the customer record (with the card brand, last four digits and expiry; never the card number), subscriptions with their plans, periods and plan changes, invoices, credit notes, and checkouts.',
      signIns: 'Sign-ins: the devices signed in to your account and the sign-in codes asked for (not the codes).',
      faqQuestions: 'The questions you sent with the FAQ form from this address.',
      newsletter:
        'Your newsletter sign-up: when, in which language, the wording agreed to, confirmation, unsubscription.',
      emails: 'The emails we sent to this address: their kind, status and dates.',
    },
    account: account
      ? {
          customerId: account.customerId,
          email: account.email,
          name: account.name,
          company: account.company,
          locale: account.locale,
          createdAt: iso(account.createdAt),
          subscriptionEndedAt: iso(account.subscriptionEndedAt),
        }
      : null,
    billing: {
      customer: customer
        ? {
            id: customer.id,
            email: customer.email,
            name: customer.name,
            company: customer.company,
            locale: customer.locale,
            card: customer.card
              ? {
                  brand: customer.card.brand,
                  last4: customer.card.last4,
                  expMonth: customer.card.expMonth,
                  expYear: customer.card.expYear,
                }
              : null,
            billingDetails: customer.billingDetails ?? null,
            createdAt: iso(customer.createdAt),
          }
        : null,
      subscriptions: bounded('billing.subscriptions', subscriptions).map((s) => ({
        id: s.id,
        plan: s.plan,
        amount: s.amount,
        currency: s.currency,
        status: s.status,
        createdAt: iso(s.createdAt),
        currentPeriodStart: iso(s.currentPeriodStart),
        currentPeriodEnd: iso(s.currentPeriodEnd),
        cancelAtPeriodEnd: s.cancelAtPeriodEnd,
        canceledAt: iso(s.canceledAt),
        endedAt: iso(s.endedAt),
        scheduledPlan: s.scheduledPlan,
        scheduledEffectiveAt: iso(s.scheduledEffectiveAt),
      })),
      invoices: bounded('billing.invoices', invoices).map((i) => ({
        id: i.id,
        number: i.number,
        status: i.status,
        plan: i.plan,
        amount: i.amount,
        currency: i.currency,
        createdAt: iso(i.createdAt),
        periodStart: iso(i.periodStart),
        periodEnd: iso(i.periodEnd),
        paidAt: iso(i.paidAt),
        tax: i.tax ?? null,
      })),
      creditNotes: bounded('billing.creditNotes', creditNotes).map((n) => ({
        id: n.id,
        number: n.number,
        invoiceId: n.invoiceId,
        amount: n.amount,
        outcome: n.outcome,
        createdAt: iso(n.createdAt),
        snapshot: n.snapshot,
      })),
      checkouts: bounded('billing.checkouts', checkouts).map((c) => ({
        id: c.id,
        plan: c.plan,
        locale: c.locale,
        amount: c.amount,
        currency: c.currency,
        status: c.status,
        email: c.email,
        createdAt: iso(c.createdAt),
        completedAt: iso(c.completedAt),
      })),
    },
    signIns: {
      sessions: bounded('signIns.sessions', sessionRows).map((s) => ({
        signedInAt: iso(s.createdAt),
        expiresAt: iso(s.expiresAt),
      })),
      codes: bounded('signIns.codes', codeRows).map((c) => ({
        purpose: c.checkout ? 'confirm a payment' : 'sign in',
        locale: c.locale,
        askedAt: iso(c.createdAt),
        expiresAt: iso(c.expiresAt),
      })),
    },
    faqQuestions: bounded('faqQuestions', questions).map((q) => ({
      submittedAt: iso(q.submittedAt),
      name: q.name,
      email: q.email,
      phone: q.phone,
      question: q.question,
      locale: q.locale,
      page: q.page,
    })),
    newsletter: signups.map((n) => ({
      email: n.email,
      status: n.status,
      signedUpAt: iso(n.submittedAt),
      locale: n.locale,
      page: n.page,
      wordingVersion: n.consentVersion,
      confirmedAt: iso(n.confirmedAt),
      unsubscribedAt: iso(n.unsubscribedAt),
      deletedIfUnconfirmedAt: n.status === 'confirmed' ? null : iso(n.expiresAt),
    })),
    emails: bounded('emails', emails).map((m) => ({
      kind: m.kind,
      status: m.status,
      queuedAt: iso(m.createdAt),
      sentAt: iso(m.sentAt),
    })),
    truncated,
  };
}

/** The file as sent and written: UTF-8 JSON, two-space indented, ending in a newline. */
export const personalDataJson = (file: PersonalDataFile) => JSON.stringify(file, null, 2) + '\n';

/** The file's name: `personal-data-YYYY-MM-DD.json` (the date it was made, UTC). */
export const personalDataFilename = (file: PersonalDataFile) => `personal-data-${file.generatedAt.slice(0, 10)}.json`;
