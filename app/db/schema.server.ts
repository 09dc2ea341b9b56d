import { sql, type SQLWrapper } from 'drizzle-orm';
import {
  bigint,
  customType,
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { BillingDetails } from '~/billing/tax/details';
import type { CreditNoteSnapshot } from '~/billing/tax/credit-note';
import type { InvoiceSnapshot } from '~/billing/tax/snapshot';

/**
 * The client-data schema: one source for PGlite (embedded world) and PostgreSQL (hosted world).
 * A change here is followed by `npm run db:generate`, which writes the next SQL migration into
 * app/db/migrations/ (committed; applied at start in both worlds, see migrate.server.ts).
 *
 * Every text a visitor can fill is bounded here too (the forms' own limits, checked again by the
 * database), and every row names when it may go (`expires_at`) or is kept until erased.
 */

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Fixed-window rate limits: one row per kind and subject. `subject` is a keyed pseudonym of the
 * address or IP (keyed with `server_keys`' `rate-limits`, app/portal/limits.server.ts), never the value itself. Counting and deciding are
 * one statement (app/portal/limits.server.ts). Deleted by the clean-up job once expired.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    windowStart: at('window_start').notNull(),
    count: integer('count').notNull(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'rate_limits_pkey', columns: [t.kind, t.subject] }),
    index('rate_limits_expires_at_idx').on(t.expiresAt),
    check(
      'rate_limits_bounded',
      sql`char_length(${t.kind}) <= 64 and char_length(${t.subject}) <= 64 and ${t.count} >= 0`,
    ),
  ],
);

/**
 * Keys the server keeps in its own database, one row per purpose (today `rate-limits`: the key
 * of the rate limits' pseudonyms). Made at random the first time a server opens the database
 * (`insert … on conflict do nothing`, so server copies starting at once keep the first one) and
 * never changed, so they outlive a rotation of SESSION_SECRET. Never made by a migration: the
 * embedded world copies new databases from one migrated template (app/db/pglite.server.ts), and
 * every data folder must have keys of its own. `key` is 32 random bytes in base64url.
 */
export const serverKeys = pgTable(
  'server_keys',
  {
    name: text('name').primaryKey(),
    key: text('key').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [check('server_keys_bounded', sql`char_length(${t.name}) <= 64 and ${t.key} ~ '^[A-Za-z0-9_-]{43}$'`)],
);

/**
 * Each cookie choice a browser made (issue 42): what was agreed to, under which version of the
 * wording, when, and how (`accept_all`, `reject_all`, `choose`; `withdrawal` when a category given
 * before is now refused), so that consent can be demonstrated. `subject` is the random id the
 * consent cookie carries (not derived from anything about the person); no IP, no user agent.
 * Kept RETENTION_DAYS.consentRecords (app/portal/retention.server.ts).
 */
export const consentRecords = pgTable(
  'consent_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subject: text('subject').notNull(),
    version: text('version').notNull(),
    analytics: boolean('analytics').notNull(),
    marketing: boolean('marketing').notNull(),
    action: text('action').notNull(),
    withdrawal: boolean('withdrawal').notNull(),
    /** The browser sent Global Privacy Control (marketing was then refused whatever was pressed). */
    gpc: boolean('gpc').notNull(),
    /** `script` (the banner with JavaScript) or `form` (the plain form post). */
    via: text('via').notNull(),
    locale: text('locale').notNull(),
    recordedAt: at('recorded_at').notNull(),
  },
  (t) => [
    index('consent_records_recorded_at_idx').on(t.recordedAt),
    index('consent_records_subject_idx').on(t.subject),
    check(
      'consent_records_bounded',
      sql`char_length(${t.subject}) <= 40 and char_length(${t.version}) <= 20
        and ${t.action} in ('accept_all', 'reject_all', 'choose') and ${t.via} in ('script', 'form')
        and ${t.locale} in ('en', 'ar')`,
    ),
  ],
);

/** A question sent through the FAQ page's form (personal data: name, email, phone). */
export const faqQuestions = pgTable(
  'faq_questions',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    question: text('question').notNull(),
    locale: text('locale').notNull(),
    page: text('page').notNull(),
    submittedAt: at('submitted_at').notNull(),
  },
  (t) => [
    index('faq_questions_submitted_at_idx').on(t.submittedAt),
    check(
      'faq_questions_bounded',
      sql`char_length(${t.name}) <= 200 and char_length(${t.email}) <= 254 and char_length(${t.phone}) <= 32
        and char_length(${t.question}) <= 5000 and char_length(${t.page}) <= 2048`,
    ),
    check('faq_questions_locale', sql`${t.locale} in ('en', 'ar')`),
  ],
);

/**
 * A newsletter sign-up: one row per address. `email` is the address as typed the first time;
 * `email_key` (lower case, trimmed) is what makes it one row per address.
 *
 * Double opt-in (app/features/newsletter/): `pending` until the address confirms from the emailed
 * link, then `confirmed`; `unsubscribed` after the one-click link. `submitted_at`, `locale` and
 * `consent_version` are when, in which language and to which wording (NEWSLETTER_WORDING_VERSION)
 * the person signed up; `confirmed_at` when they confirmed. `pending_since` starts the current
 * request: links issued before it no longer confirm. An unsubscribed row keeps `confirmed_at` (when
 * consent was given) beside `unsubscribed_at` (when it was withdrawn). `confirm_mails` counts the confirmation
 * emails of the current request (bounded). `expires_at`: when the clean-up job deletes a pending
 * or unsubscribed row; null for confirmed rows, and for rows stored before double opt-in
 * (`pending` with no `consent_version`: kept unconfirmed, never exported).
 */
export const newsletterSignups = pgTable(
  'newsletter_signups',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    emailKey: text('email_key').notNull().unique('newsletter_signups_email_key_key'),
    locale: text('locale').notNull(),
    page: text('page').notNull(),
    submittedAt: at('submitted_at').notNull(),
    status: text('status').notNull().default('pending'),
    consentVersion: text('consent_version'),
    pendingSince: at('pending_since'),
    confirmMails: integer('confirm_mails').notNull().default(0),
    confirmedAt: at('confirmed_at'),
    unsubscribedAt: at('unsubscribed_at'),
    expiresAt: at('expires_at'),
  },
  (t) => [
    index('newsletter_signups_submitted_at_idx').on(t.submittedAt),
    index('newsletter_signups_expires_at_idx').on(t.expiresAt),
    check(
      'newsletter_signups_bounded',
      sql`char_length(${t.email}) <= 254 and char_length(${t.emailKey}) <= 254 and char_length(${t.page}) <= 2048
        and char_length(coalesce(${t.consentVersion}, '')) <= 40 and ${t.confirmMails} >= 0`,
    ),
    check('newsletter_signups_locale', sql`${t.locale} in ('en', 'ar')`),
    check(
      'newsletter_signups_status',
      sql`${t.status} in ('pending', 'confirmed', 'unsubscribed')
        and (${t.status} <> 'confirmed' or ${t.confirmedAt} is not null)
        and (${t.status} = 'unsubscribed') = (${t.unsubscribedAt} is not null)`,
    ),
  ],
);

/**
 * A form token that has carried a stored submission (its sha256, never the token), with the hash
 * of what it carried: the same submission again is the same success, anything else is refused.
 * Written in the same transaction as the submission. Deleted once the token could no longer be
 * accepted (`expires_at`).
 */
export const formTokens = pgTable(
  'form_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    form: text('form').notNull(),
    contentHash: text('content_hash').notNull(),
    submissionId: uuid('submission_id'),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [
    index('form_tokens_expires_at_idx').on(t.expiresAt),
    check('form_tokens_form', sql`${t.form} in ('faq', 'newsletter')`),
    check('form_tokens_bounded', sql`char_length(${t.tokenHash}) <= 64 and char_length(${t.contentHash}) <= 64`),
  ],
);

/**
 * Imports of data kept by earlier versions (the embedded write log), each done once: its row is
 * written in the same transaction as the data it brought.
 */
export const dataImports = pgTable('data_imports', {
  name: text('name').primaryKey(),
  importedAt: at('imported_at').notNull().defaultNow(),
  counts: jsonb('counts').$type<Record<string, number>>().notNull(),
});

// ------------------------------------------------------------------------------ client portal

/**
 * A client of the portal: one per billing customer (Stripe's cus_…, or the embedded engine's).
 * `email` is the address in lower case, one account per address. Kept while the client has a
 * subscription and three years after it ended; erased on request (`npm run erase`) or by the
 * retention job (docs/portal.md).
 */
export const accounts = pgTable(
  'accounts',
  {
    customerId: text('customer_id').primaryKey(),
    email: text('email').notNull().unique('accounts_email_key'),
    name: text('name').notNull(),
    company: text('company'),
    locale: text('locale').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    /**
     * When the client's last subscription ended (its `customer.subscription.deleted` event);
     * null while one runs or none has ended. The retention job removes the account three years
     * after this, once billing confirms no subscription runs.
     */
    subscriptionEndedAt: at('subscription_ended_at'),
  },
  (t) => [
    index('accounts_subscription_ended_at_idx').on(t.subscriptionEndedAt),
    check(
      'accounts_bounded',
      sql`char_length(${t.customerId}) <= 64 and char_length(${t.email}) <= 254 and char_length(${t.name}) <= 200
        and char_length(coalesce(${t.company}, '')) <= 200`,
    ),
    check('accounts_email_lower', sql`${t.email} = lower(${t.email})`),
    check('accounts_locale', sql`${t.locale} in ('en', 'ar')`),
  ],
);

/**
 * A signed-in device: the cookie names the session by a random id; the table keeps only its
 * sha256, so a copy of the database opens no session. Signing out deletes the row; signing out
 * everywhere deletes the account's rows.
 */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    customerId: text('customer_id')
      .notNull()
      .references(() => accounts.customerId, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [
    index('sessions_customer_id_idx').on(t.customerId),
    index('sessions_expires_at_idx').on(t.expiresAt),
    check('sessions_bounded', sql`char_length(${t.idHash}) <= 64`),
  ],
);

/**
 * A sign-in code (or the confirmation of a payment). The code itself is never stored: it is
 * derived from the row's id with the server's secret when the email is rendered and when a
 * code is checked. `subject` is a keyed pseudonym of the address the code went to; `requester`
 * the hash of a nonce in the browser that asked (codes typed in are checked only against the
 * codes that browser asked for, so another browser's guesses cannot spend them); the emailed
 * link carries the row's id and works in any browser. A stranger's address gets a row too,
 * with no account and no email sent, so both answer alike. `checkout` holds a payment waiting
 * for the address to be confirmed (payer's name, company, card brand, last four, expiry).
 */
export const signinCodes = pgTable(
  'signin_codes',
  {
    id: text('id').primaryKey(),
    subject: text('subject').notNull(),
    requester: text('requester').notNull(),
    customerId: text('customer_id').references(() => accounts.customerId, { onDelete: 'cascade' }),
    /**
     * Who the code signs in (one sign-in, two audiences: app/portal/signin.server.ts): a client
     * (`customer_id`) or a Studio editor of the local Content Lake (`editor_email`).
     */
    audience: text('audience').notNull().default('client'),
    editorEmail: text('editor_email').references(() => lakeEditors.email, { onDelete: 'cascade' }),
    triesLeft: integer('tries_left').notNull(),
    next: text('next').notNull(),
    locale: text('locale').notNull(),
    checkout: jsonb('checkout').$type<Record<string, unknown>>(),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [
    index('signin_codes_subject_idx').on(t.subject, t.requester),
    index('signin_codes_expires_at_idx').on(t.expiresAt),
    check(
      'signin_codes_bounded',
      sql`char_length(${t.id}) <= 64 and char_length(${t.subject}) <= 64 and char_length(${t.requester}) <= 64
        and char_length(${t.next}) <= 2048 and ${t.triesLeft} >= 0`,
    ),
    check('signin_codes_locale', sql`${t.locale} in ('en', 'ar')`),
    check(
      'signin_codes_audience',
      sql`${t.audience} in ('client', 'editor') and (${t.audience} = 'editor' or ${t.editorEmail} is null)
        and (${t.audience} = 'client' or (${t.customerId} is null and ${t.checkout} is null))`,
    ),
  ],
);

/**
 * The client emails' durable queue: one row per fact reported (`key_hash`, the sha256 of a key
 * such as `cancel:<subscription>:<requested at>`), so a retried request queues one email.
 * `message` holds what the email is rendered from at send time; a sign-in email holds only its
 * code's id (the code is derived when it is rendered), never the code or the link. Claimed with
 * `for update skip locked` by one sender; `sending` older than 15 minutes is retried.
 */
export const mailQueue = pgTable(
  'mail_queue',
  {
    keyHash: text('key_hash').primaryKey(),
    toAddress: text('to_address').notNull(),
    kind: text('kind').notNull(),
    message: jsonb('message').$type<Record<string, unknown>>(),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull(),
    claimedAt: at('claimed_at'),
    sentAt: at('sent_at'),
    lastError: text('last_error'),
    /** Not sent after this (a sign-in email whose code has expired). */
    sendBefore: at('send_before'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('mail_queue_due_idx').on(t.status, t.nextAttemptAt),
    index('mail_queue_to_idx').on(t.toAddress),
    index('mail_queue_created_at_idx').on(t.createdAt),
    check('mail_queue_status', sql`${t.status} in ('pending', 'sending', 'sent', 'dropped')`),
    check(
      'mail_queue_bounded',
      sql`char_length(${t.keyHash}) <= 64 and char_length(${t.toAddress}) <= 254 and char_length(${t.kind}) <= 40
        and char_length(coalesce(${t.lastError}, '')) <= 500`,
    ),
  ],
);

/** A billing event already handled (Stripe's evt_…, or the engine's): handled once, by the unique key. */
export const handledEvents = pgTable(
  'handled_events',
  {
    eventId: text('event_id').primaryKey(),
    type: text('type').notNull(),
    handledAt: at('handled_at').notNull().defaultNow(),
  },
  (t) => [
    index('handled_events_handled_at_idx').on(t.handledAt),
    check('handled_events_bounded', sql`char_length(${t.eventId}) <= 255 and char_length(${t.type}) <= 100`),
  ],
);

/** The 7-day renewal reminder was queued for this subscription's period (queued once, by the key). */
export const renewalReminders = pgTable(
  'renewal_reminders',
  {
    subscriptionId: text('subscription_id').notNull(),
    periodEnd: at('period_end').notNull(),
    queuedAt: at('queued_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'renewal_reminders_pkey', columns: [t.subscriptionId, t.periodEnd] }),
    index('renewal_reminders_queued_at_idx').on(t.queuedAt),
    check('renewal_reminders_bounded', sql`char_length(${t.subscriptionId}) <= 255`),
  ],
);

// ------------------------------------------------------------------------------ embedded billing engine

/**
 * The embedded billing engine's state (app/billing/engine/): Stripe's objects for this product as
 * rows. Every state change is one transaction that locks the rows it changes (`for no key
 * update`, so the foreign-key checks of other transactions are not blocked); the constraints
 * below hold what must exist once even if a lock were missed. Plans are the billing keys
 * (types.ts PLAN_KEYS); money is in cents (SGD); times are UTC.
 */
const PLAN_CHECK = sql.raw(`('starter', 'business', 'enterprise')`);

/** A card as the engine keeps it: brand, last four, expiry, and whether later charges succeed (test card 0341 fails them). */
export type BillingCard = {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  renewals: 'succeed' | 'fail';
};

const cardCheck = (card: SQLWrapper) =>
  sql`${card} is null or (jsonb_typeof(${card}) = 'object' and ${card} ?& array['brand', 'last4', 'expMonth', 'expYear', 'renewals']
    and char_length(${card} ->> 'brand') <= 40 and (${card} ->> 'last4') ~ '^[0-9]{4}$')`;

/**
 * The engine's clock (like Stripe's test clocks): one row, the offset added to real time. Moved
 * forward only, by one upsert; absent until first moved.
 */
export const billingClock = pgTable(
  'billing_clock',
  {
    id: integer('id').primaryKey(),
    offsetMs: bigint('offset_ms', { mode: 'number' }).notNull(),
  },
  (t) => [check('billing_clock_one_row', sql`${t.id} = 1 and ${t.offsetMs} >= 0`)],
);

/**
 * A billing customer (cus_…): one per address (`email`, lower case, unique), so concurrent
 * checkouts for one new address make one customer. The card on file: brand, last four, expiry.
 */
export const billingCustomers = pgTable(
  'billing_customers',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull().unique('billing_customers_email_key'),
    name: text('name').notNull(),
    company: text('company'),
    locale: text('locale').notNull(),
    card: jsonb('card').$type<BillingCard>(),
    /**
     * What the client told for their invoices (legal name, address, country, tax number), or null
     * while unknown. Read when an invoice is issued and copied into its snapshot: changing it
     * changes future invoices only.
     */
    billingDetails: jsonb('billing_details').$type<BillingDetails>(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    check(
      'billing_customers_bounded',
      sql`char_length(${t.id}) <= 64 and char_length(${t.email}) <= 254 and char_length(${t.name}) <= 200
        and char_length(coalesce(${t.company}, '')) <= 200`,
    ),
    check('billing_customers_email_lower', sql`${t.email} = lower(${t.email})`),
    check('billing_customers_locale', sql`${t.locale} in ('en', 'ar')`),
    check('billing_customers_card', cardCheck(t.card)),
  ],
);

/**
 * A monthly subscription (sub_…). Periods are counted from `billing_anchor` (`period_index` 1 is
 * the first). A scheduled plan change (Stripe's subscription schedule) is the `scheduled_*`
 * columns, all set or all null. At most one subscription per customer has not ended (active,
 * past_due or cancelling): a partial unique index. Renewals find due rows by period end.
 */
export const billingSubscriptions = pgTable(
  'billing_subscriptions',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id')
      .notNull()
      .references(() => billingCustomers.id),
    plan: text('plan').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    billingAnchor: at('billing_anchor').notNull(),
    periodIndex: integer('period_index').notNull(),
    currentPeriodStart: at('current_period_start').notNull(),
    currentPeriodEnd: at('current_period_end').notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull(),
    canceledAt: at('canceled_at'),
    endedAt: at('ended_at'),
    scheduledPlan: text('scheduled_plan'),
    scheduledEffectiveAt: at('scheduled_effective_at'),
    /** Names the request that scheduled the change (its engine time), so two requests are told apart. */
    scheduledRequestRef: text('scheduled_request_ref'),
    card: jsonb('card').$type<BillingCard>(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('billing_subscriptions_one_current_idx')
      .on(t.customerId)
      .where(sql`${t.status} <> 'canceled'`),
    index('billing_subscriptions_customer_idx').on(t.customerId, t.createdAt),
    index('billing_subscriptions_due_idx')
      .on(t.currentPeriodEnd, t.id)
      .where(sql`${t.status} <> 'canceled'`),
    check('billing_subscriptions_status', sql`${t.status} in ('active', 'past_due', 'canceled')`),
    check(
      'billing_subscriptions_plan',
      sql`${t.plan} in ${PLAN_CHECK} and coalesce(${t.scheduledPlan} in ${PLAN_CHECK}, true)`,
    ),
    check(
      'billing_subscriptions_scheduled',
      sql`(${t.scheduledPlan} is null) = (${t.scheduledEffectiveAt} is null)
        and (${t.scheduledPlan} is not null or ${t.scheduledRequestRef} is null)`,
    ),
    check(
      'billing_subscriptions_bounded',
      sql`char_length(${t.id}) <= 64 and ${t.amount} >= 0 and ${t.currency} = 'sgd' and ${t.periodIndex} >= 1
        and ${t.currentPeriodEnd} > ${t.currentPeriodStart} and char_length(coalesce(${t.scheduledRequestRef}, '')) <= 64`,
    ),
    check('billing_subscriptions_card', cardCheck(t.card)),
  ],
);

/**
 * An invoice (in_…), one per subscription period (unique), numbered BWB-YYYY-NNNN from the
 * year's counter row taken in the same transaction. `sequence` (year × 1 000 000 + number)
 * orders invoices of the same date; lists are by customer, newest first.
 */
export const billingInvoices = pgTable(
  'billing_invoices',
  {
    id: text('id').primaryKey(),
    number: text('number').notNull().unique('billing_invoices_number_key'),
    sequence: bigint('sequence', { mode: 'number' }).notNull(),
    customerId: text('customer_id')
      .notNull()
      .references(() => billingCustomers.id),
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => billingSubscriptions.id),
    status: text('status').notNull(),
    plan: text('plan').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    createdAt: at('created_at').notNull(),
    periodStart: at('period_start').notNull(),
    periodEnd: at('period_end').notNull(),
    paidAt: at('paid_at'),
    /**
     * The tax invoice's snapshot (app/billing/tax/snapshot.ts): what the invoice shows, frozen at
     * issue. Null for invoices issued before tax invoices: they render as they always did.
     */
    tax: jsonb('tax').$type<InvoiceSnapshot>(),
  },
  (t) => [
    unique('billing_invoices_period_key').on(t.subscriptionId, t.periodStart),
    // Read backwards for newest first.
    index('billing_invoices_customer_idx').on(t.customerId, t.createdAt, t.sequence),
    // `void`: an unpaid invoice cancelled by a credit note (npm run credit-note).
    check('billing_invoices_status', sql`${t.status} in ('paid', 'open', 'void')`),
    check('billing_invoices_plan', sql`${t.plan} in ${PLAN_CHECK}`),
    check(
      'billing_invoices_bounded',
      sql`char_length(${t.id}) <= 64 and char_length(${t.number}) <= 32 and ${t.amount} >= 0 and ${t.currency} = 'sgd'`,
    ),
  ],
);

/**
 * The exchange rates the operator records (`npm run rates -- add`): AED per one unit of `base`,
 * published for `effective_on` by `source` (e.g. the Central Bank of the UAE). One rate per
 * currency and day, never changed once recorded (issued invoices name it). `fixture`: a test or
 * demo rate, printed as such.
 */
export const billingExchangeRates = pgTable(
  'billing_exchange_rates',
  {
    base: text('base').notNull(),
    quote: text('quote').notNull(),
    effectiveOn: text('effective_on').notNull(),
    rate: text('rate').notNull(),
    source: text('source').notNull(),
    fixture: boolean('fixture').notNull().default(false),
    recordedAt: at('recorded_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'billing_exchange_rates_pkey', columns: [t.base, t.quote, t.effectiveOn] }),
    check(
      'billing_exchange_rates_valid',
      sql`${t.base} ~ '^[A-Z]{3}$' and ${t.quote} ~ '^[A-Z]{3}$' and ${t.effectiveOn} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
        and ${t.rate} ~ '^[0-9]{1,6}([.][0-9]{1,8})?$' and char_length(${t.source}) between 1 and 200`,
    ),
  ],
);

/** The last invoice number given in a year: taken (and so locked) by the transaction that issues the invoice. */
export const billingInvoiceCounters = pgTable(
  'billing_invoice_counters',
  {
    year: integer('year').primaryKey(),
    last: integer('last').notNull(),
  },
  (t) => [check('billing_invoice_counters_bounded', sql`${t.last} >= 0 and ${t.year} between 2000 and 9999`)],
);

/**
 * A tax credit note (cn_…) crediting one issued invoice in full (`npm run credit-note`), numbered
 * CN-YYYY-NNNN from its own year's counter in the same transaction. One per invoice (unique), so
 * running the command again never makes a second. The snapshot is what the note shows, frozen at
 * issue: a trigger (migration 0010) refuses any update of a row. `outcome`: `refunded` for a
 * paid invoice, `voided` for an unpaid one (whose status becomes `void`).
 */
export const billingCreditNotes = pgTable(
  'billing_credit_notes',
  {
    id: text('id').primaryKey(),
    number: text('number').notNull().unique('billing_credit_notes_number_key'),
    sequence: bigint('sequence', { mode: 'number' }).notNull(),
    invoiceId: text('invoice_id')
      .notNull()
      .unique('billing_credit_notes_invoice_key')
      .references(() => billingInvoices.id),
    customerId: text('customer_id')
      .notNull()
      .references(() => billingCustomers.id),
    createdAt: at('created_at').notNull(),
    amount: integer('amount').notNull(),
    outcome: text('outcome').notNull(),
    snapshot: jsonb('snapshot').$type<CreditNoteSnapshot>().notNull(),
  },
  (t) => [
    index('billing_credit_notes_customer_idx').on(t.customerId, t.createdAt),
    check('billing_credit_notes_outcome', sql`${t.outcome} in ('refunded', 'voided')`),
    check(
      'billing_credit_notes_bounded',
      sql`char_length(${t.id}) <= 64 and char_length(${t.number}) <= 32 and ${t.amount} >= 0`,
    ),
  ],
);

/** The last credit note number given in a year (as billing_invoice_counters, for its own sequence). */
export const billingCreditNoteCounters = pgTable(
  'billing_credit_note_counters',
  {
    year: integer('year').primaryKey(),
    last: integer('last').notNull(),
  },
  (t) => [check('billing_credit_note_counters_bounded', sql`${t.last} >= 0 and ${t.year} between 2000 and 9999`)],
);

/**
 * A local checkout (cs_…), open for 24 hours by the engine's clock. Completing it locks the row,
 * so one checkout completes once; `result_*` name what it made (a replay answers with them).
 */
export const billingCheckouts = pgTable(
  'billing_checkouts',
  {
    id: text('id').primaryKey(),
    plan: text('plan').notNull(),
    locale: text('locale').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    /** The signed-in client who started it, or null. */
    customerId: text('customer_id').references(() => billingCustomers.id),
    email: text('email'),
    successUrl: text('success_url').notNull(),
    cancelUrl: text('cancel_url').notNull(),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    completedAt: at('completed_at'),
    resultCustomerId: text('result_customer_id'),
    resultSubscriptionId: text('result_subscription_id'),
    resultInvoiceId: text('result_invoice_id'),
  },
  (t) => [
    // Named here: the generated names would pass PostgreSQL's 63 characters and be cut.
    foreignKey({
      name: 'billing_checkouts_result_customer_fk',
      columns: [t.resultCustomerId],
      foreignColumns: [billingCustomers.id],
    }),
    foreignKey({
      name: 'billing_checkouts_result_subscription_fk',
      columns: [t.resultSubscriptionId],
      foreignColumns: [billingSubscriptions.id],
    }),
    foreignKey({
      name: 'billing_checkouts_result_invoice_fk',
      columns: [t.resultInvoiceId],
      foreignColumns: [billingInvoices.id],
    }),
    index('billing_checkouts_expires_at_idx').on(t.expiresAt),
    index('billing_checkouts_customer_idx').on(t.customerId),
    index('billing_checkouts_result_customer_idx').on(t.resultCustomerId),
    check('billing_checkouts_status', sql`${t.status} in ('open', 'complete')`),
    check('billing_checkouts_plan', sql`${t.plan} in ${PLAN_CHECK}`),
    check('billing_checkouts_locale', sql`${t.locale} in ('en', 'ar')`),
    check(
      'billing_checkouts_complete',
      sql`(${t.status} = 'complete') = (${t.resultCustomerId} is not null and ${t.resultSubscriptionId} is not null
        and ${t.resultInvoiceId} is not null and ${t.completedAt} is not null)`,
    ),
    check(
      'billing_checkouts_bounded',
      sql`char_length(${t.id}) <= 64 and ${t.amount} >= 0 and ${t.currency} = 'sgd'
        and char_length(coalesce(${t.email}, '')) <= 254 and char_length(${t.successUrl}) <= 2048
        and char_length(${t.cancelUrl}) <= 2048`,
    ),
  ],
);

/**
 * The engine's event outbox (evt_…, Stripe's webhook events as BillingEvent), written in the
 * transaction of the change it reports; `seq` orders them. A dispatcher claims a batch with
 * `for update skip locked` and a lease (`claimed_by`, `claimed_until`), so two server processes
 * never deliver one event at the same time; an event whose claimer died is claimed again after
 * the lease. Delivered events keep `delivered_at`.
 */
export const billingEvents = pgTable(
  'billing_events',
  {
    id: text('id').primaryKey(),
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    type: text('type').notNull(),
    /** The engine's time of the change (its clock). */
    createdAt: at('created_at').notNull(),
    event: jsonb('event').$type<Record<string, unknown>>().notNull(),
    deliveredAt: at('delivered_at'),
    claimedBy: text('claimed_by'),
    claimedUntil: at('claimed_until'),
  },
  (t) => [
    index('billing_events_undelivered_idx')
      .on(t.seq)
      .where(sql`${t.deliveredAt} is null`),
    index('billing_events_delivered_at_idx').on(t.deliveredAt),
    check(
      'billing_events_bounded',
      sql`char_length(${t.id}) <= 64 and char_length(${t.type}) <= 100 and char_length(coalesce(${t.claimedBy}, '')) <= 64`,
    ),
  ],
);

/**
 * The local Content Lake (app/lake/, ADR 0025): the Studio's edits in the embedded world, layered
 * over the bundled dataset (studio/dataset/). One row per document the lake has written: its
 * current state, or `doc` null when a document of the bundled dataset was deleted. Content, not
 * client data: never removed by a retention job.
 */
export const lakeDocuments = pgTable(
  'lake_documents',
  {
    id: text('id').primaryKey(),
    type: text('type'),
    rev: text('rev').notNull(),
    doc: jsonb('doc'),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [check('lake_documents_bounded', sql`char_length(${t.id}) <= 200`)],
);

/**
 * Every transaction the lake committed, in order (`seq`): who, when, and per document the state
 * before and after (`effects`: [{id, previousRev, resultRev, before, after}]), which the Studio's
 * history reads (app/lake/history.server.ts).
 */
export const lakeTransactions = pgTable(
  'lake_transactions',
  {
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().primaryKey(),
    id: text('id').notNull(),
    at: at('at').notNull(),
    author: text('author').notNull(),
    documentIds: jsonb('document_ids').notNull(),
    effects: jsonb('effects').notNull(),
  },
  (t) => [uniqueIndex('lake_transactions_id_idx').on(t.id)],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** Images uploaded in the Studio (the bundled dataset's own stay in studio/dataset/images/). */
export const lakeAssets = pgTable('lake_assets', {
  fileName: text('file_name').primaryKey(),
  assetId: text('asset_id').notNull(),
  mimeType: text('mime_type').notNull(),
  bytes: bytea('bytes').notNull(),
  createdAt: at('created_at').notNull(),
});

/**
 * The local Content Lake's editors (ADR 0025): who may sign in to the Studio served at /studio in
 * the embedded world. Added and removed by an operator (`npm run lake:editor -- add|remove`);
 * removing one deletes their codes and sessions with them (cascade), so their token stops at once.
 * Apart from the client accounts: a client's address, code or session is never an editor's.
 */
export const lakeEditors = pgTable(
  'lake_editors',
  {
    email: text('email').primaryKey(),
    name: text('name').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [check('lake_editors_bounded', sql`char_length(${t.email}) <= 254 and char_length(${t.name}) <= 200`)],
);

/**
 * Retired (issue 40): editors' codes are rows of `signin_codes` (audience `editor`) since the two
 * sign-ins became one. Kept so the migrations stay additive; nothing writes it, and a code left in
 * it lapsed within its ten minutes.
 */
export const lakeEditorCodes = pgTable(
  'lake_editor_codes',
  {
    id: text('id').primaryKey(),
    subject: text('subject').notNull(),
    requester: text('requester').notNull(),
    email: text('email').references(() => lakeEditors.email, { onDelete: 'cascade' }),
    triesLeft: integer('tries_left').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [
    index('lake_editor_codes_subject_idx').on(t.subject, t.requester),
    index('lake_editor_codes_expires_at_idx').on(t.expiresAt),
    check(
      'lake_editor_codes_bounded',
      sql`char_length(${t.id}) <= 64 and char_length(${t.subject}) <= 64 and char_length(${t.requester}) <= 64 and ${t.triesLeft} >= 0`,
    ),
  ],
);

/**
 * An editor's signed-in Studio: the token the Studio holds is a random id; this keeps its sha256.
 * Signing out in the Studio or removing the editor deletes the row; it ends at `expires_at`.
 */
export const lakeEditorSessions = pgTable(
  'lake_editor_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    email: text('email')
      .notNull()
      .references(() => lakeEditors.email, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [
    index('lake_editor_sessions_email_idx').on(t.email),
    index('lake_editor_sessions_expires_at_idx').on(t.expiresAt),
    check('lake_editor_sessions_bounded', sql`char_length(${t.idHash}) <= 64`),
  ],
);

/**
 * An editor's Studio preferences (the Studio's `/users/me/keyvalue`: announcements seen, recent
 * searches and the like), kept per editor across restarts and deleted with the editor (cascade).
 * Bounded per row here and per editor by the lake (app/lake/preferences.server.ts).
 */
export const lakeEditorPreferences = pgTable(
  'lake_editor_preferences',
  {
    email: text('email')
      .notNull()
      .references(() => lakeEditors.email, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: jsonb('value'),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.email, t.key] }),
    check('lake_editor_preferences_bounded', sql`char_length(${t.key}) <= 200`),
  ],
);
