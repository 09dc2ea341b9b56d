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
