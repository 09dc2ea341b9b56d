import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
 * address or IP (app/portal/crypto.server.ts), never the value itself. Counting and deciding are
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
  },
  (t) => [
    index('newsletter_signups_submitted_at_idx').on(t.submittedAt),
    check(
      'newsletter_signups_bounded',
      sql`char_length(${t.email}) <= 254 and char_length(${t.emailKey}) <= 254 and char_length(${t.page}) <= 2048`,
    ),
    check('newsletter_signups_locale', sql`${t.locale} in ('en', 'ar')`),
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
 * subscription; erased on request (`npm run erase`) or by the retention job (docs/portal.md).
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
  },
  (t) => [
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
