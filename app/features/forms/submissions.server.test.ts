import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '~/db/client.server';
import { faqQuestions, formTokens, newsletterSignups } from '~/db/schema.server';
import { createPostgresDatabase, testDatabaseKinds } from '~/db/test-support';
import type { Database } from '~/db/types.server';
import { createOutboxMailer, type Mailer } from '~/lib/mailer.server';
import {
  FAQ_PER_IP,
  handleFaqQuestion,
  handleNewsletter,
  newsletterKey,
  NEWSLETTER_PER_IP,
  NOTIFY_LIMIT,
  purgeExpiredFormTokens,
  tokenHashOf,
  type SubmissionDeps,
} from './submissions.server';
import { FORM_TOKEN_FIELD, HONEYPOT_FIELD } from './fields';
import { RATE_LIMIT } from './rate-limit';
import { createFormToken, MIN_FILL_MS, PAGE_TOKEN_MAX_AGE_MS, TOKEN_MAX_AGE_MS } from './spam-check';

// The limits' document ids are keyed with the signing secret.
process.env.SESSION_SECRET ??= 'forms-test-session-secret-0123456789abcdef';

const SECRET = 'test-secret';
const T0 = Date.UTC(2025, 2, 1, 10, 0, 0);
let dir: string;
let database: Database;
/** Opens the same database again (a restarted server). */
let reopen: () => Promise<Database>;
let dropDatabase: () => Promise<void>;
let now: number;
let logs: string[];

async function deps(overrides: Partial<SubmissionDeps> = {}): Promise<SubmissionDeps> {
  return {
    db: database.db,
    mailer: createOutboxMailer(path.join(dir, 'outbox'), () => new Date(now)),
    secret: SECRET,
    now: () => now,
    mailFrom: 'Site <no-reply@example.com>',
    mailTo: async () => 'firm@example.com',
    log: (m) => logs.push(m),
    ...overrides,
  };
}

/** A new token issued by the refusal itself, dated now (its start time for the next try). */
const issuedNow = () => expect.stringMatching(new RegExp(`^${now}\\.`));

let seq = 0;
/** A form with its own token (each page load issues one): started just before T0 unless told. */
async function form(fields: Record<string, string>, startedAt = T0 - ++seq): Promise<FormData> {
  const f = new FormData();
  f.set(FORM_TOKEN_FIELD, await createFormToken(startedAt, SECRET));
  f.set(HONEYPOT_FIELD, '');
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

const QUESTION = {
  name: 'Ann Lee',
  email: 'Ann@Example.com',
  phone: '+971 50 123 4567',
  question: 'How do I open a free zone company?',
};
const outbox = async () =>
  (await readdir(path.join(dir, 'outbox')).catch(() => [] as string[])).filter((f) => f.endsWith('.eml'));

/** The outbox's messages (their .json twins), to the firm or to the person. */
const mails = async () => {
  const names = (await readdir(path.join(dir, 'outbox')).catch(() => [] as string[])).filter((f) =>
    f.endsWith('.json'),
  );
  return Promise.all(
    names.map(
      async (f) =>
        JSON.parse(await readFile(path.join(dir, 'outbox', f), 'utf8')) as {
          to: string;
          subject: string;
          headers?: Record<string, string>;
        },
    ),
  );
};
const firmMails = async () => (await mails()).filter((m) => m.to === 'firm@example.com');

async function count(table: PgTable, db = database.db): Promise<number> {
  const r = await db.execute<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(getTableName(table))}`);
  return Number(r.rows[0]!.n);
}

describe.each(testDatabaseKinds())('forms on %s', (kind) => {
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'submissions-'));
    if (kind === 'pglite') {
      // The embedded world's own layout: the database in {data}/db, the folder locked.
      const dataDir = path.join(dir, 'data');
      reopen = () => openDatabase({ kind: 'pglite', dataDir });
      dropDatabase = async () => {};
    } else {
      const created = await createPostgresDatabase();
      reopen = () => openDatabase({ kind: 'postgres', url: created.url, poolSize: 20 });
      dropDatabase = created.drop;
    }
    database = await reopen();
    now = T0 + MIN_FILL_MS + 1000;
    logs = [];
  });
  afterEach(async () => {
    await database.close();
    await dropDatabase();
    await rm(dir, { recursive: true, force: true });
  });

  describe('FAQ question', () => {
    it('stores the question durably with locale and page, then notifies the firm', async () => {
      const result = await handleFaqQuestion(await form(QUESTION), { page: '/ar/faq' }, await deps());
      expect(result).toEqual({ status: 'submitted' });
      // The same database opened again (a restarted server) has it.
      await database.close();
      database = await reopen();
      const docs = await database.db.select().from(faqQuestions);
      expect(docs[0]).toMatchObject({
        ...QUESTION,
        locale: 'ar',
        page: '/ar/faq',
        submittedAt: new Date(now),
      });
      expect(docs[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
      // The token that carried it is known by its hash, and points at it.
      expect(await database.db.select().from(formTokens)).toMatchObject([{ form: 'faq', submissionId: docs[0]!.id }]);
      const mails = await outbox();
      expect(mails).toHaveLength(1);
      const eml = await readFile(path.join(dir, 'outbox', mails[0]!), 'utf8');
      expect(eml).toContain('Subject: New question from Ann Lee (website FAQ)');
      expect(eml).toMatch(/^Reply-To: Ann@example\.com\r?$/im);
    });

    it('answers validation errors with keys per field and the values back, storing nothing', async () => {
      const result = await handleFaqQuestion(
        await form({ ...QUESTION, name: '', phone: '971501234567' }),
        { page: '/faq' },
        await deps(),
      );
      expect(result).toMatchObject({
        status: 'rejected',
        formError: { titleKey: 'forms:incompleteTitle', messageKey: 'forms:incomplete' },
        fieldErrors: { name: 'forms:required', phone: 'forms:phoneCountryCode' },
        values: { ...QUESTION, name: '', phone: '971501234567' },
        httpStatus: 400,
      });
      expect(await count(faqQuestions)).toBe(0);
    });

    it('rejects the honeypot, a too-fast and a forged submission with their messages', async () => {
      const d = await deps();
      const bot = await form({ ...QUESTION, [HONEYPOT_FIELD]: 'http://spam' });
      expect(await handleFaqQuestion(bot, { page: '/faq' }, d)).toMatchObject({
        status: 'rejected',
        formError: { messageKey: 'forms:spamHoneypot' },
      });
      const fast = await form(QUESTION, now - 500);
      const r = await handleFaqQuestion(fast, { page: '/faq' }, d);
      expect(r).toMatchObject({ status: 'rejected', formError: { messageKey: 'forms:spamTooFast' } });
      // The genuine token comes back, so the next try keeps its start time.
      expect(r.status !== 'submitted' && r.token).toBe(fast.get(FORM_TOKEN_FIELD));
      const forged = await form(QUESTION);
      forged.set(FORM_TOKEN_FIELD, `${T0}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`);
      expect(await handleFaqQuestion(forged, { page: '/faq' }, d)).toMatchObject({
        status: 'rejected',
        formError: { messageKey: 'forms:spamExpired' },
        token: issuedNow(),
      });
      expect(await count(faqQuestions)).toBe(0);
    });

    it('a post without a token (JavaScript off: pages carry none) is asked to confirm, with a token that then carries it', async () => {
      const d = await deps();
      const first = await form(QUESTION);
      first.delete(FORM_TOKEN_FIELD);
      const r = await handleFaqQuestion(first, { page: '/faq' }, d);
      expect(r).toMatchObject({
        status: 'rejected',
        formError: { titleKey: 'forms:confirmTitle', messageKey: 'forms:confirmSend' },
        values: QUESTION,
        token: issuedNow(),
      });
      expect(await count(faqQuestions)).toBe(0);
      const again = await form(QUESTION);
      again.set(FORM_TOKEN_FIELD, r.status !== 'submitted' ? r.token! : '');
      now += MIN_FILL_MS;
      expect(await handleFaqQuestion(again, { page: '/faq' }, d)).toEqual({ status: 'submitted' });
      expect(await count(faqQuestions)).toBe(1);
    });

    it('50 questions at once from one address store exactly 5 (counting and storing do not race)', async () => {
      const d = await deps();
      const forms = await Promise.all(
        Array.from({ length: 50 }, (_, i) => form({ ...QUESTION, question: `Question ${i}` })),
      );
      const results = await Promise.all(forms.map((f) => handleFaqQuestion(f, { page: '/faq', ip: '203.0.113.7' }, d)));
      expect(results.filter((r) => r.status === 'submitted')).toHaveLength(RATE_LIMIT.max);
      expect(results.filter((r) => r.status === 'rejected' && r.httpStatus === 429)).toHaveLength(50 - RATE_LIMIT.max);
      expect(await count(faqQuestions)).toBe(RATE_LIMIT.max);
    });

    it('a token carries one submission: a retry gets the same success and stores nothing, other content is refused', async () => {
      const d = await deps();
      const first = await form(QUESTION);
      const token = String(first.get(FORM_TOKEN_FIELD));
      expect(await handleFaqQuestion(first, { page: '/faq' }, d)).toEqual({ status: 'submitted' });
      // The answer was lost; the browser sends the same form again (twice, at once).
      const retries = await Promise.all(
        [0, 1].map(async () => {
          const again = await form(QUESTION);
          again.set(FORM_TOKEN_FIELD, token);
          return handleFaqQuestion(again, { page: '/faq' }, d);
        }),
      );
      expect(retries).toEqual([{ status: 'submitted' }, { status: 'submitted' }]);
      // Something else with the used token: expired, and a new token comes back instead of the used one.
      const other = await form({ ...QUESTION, question: 'A different question' });
      other.set(FORM_TOKEN_FIELD, token);
      const refused = await handleFaqQuestion(other, { page: '/faq' }, d);
      expect(refused).toEqual({
        status: 'rejected',
        formError: { titleKey: 'forms:spamTitle', messageKey: 'forms:spamExpired' },
        fieldErrors: {},
        values: { ...QUESTION, question: 'A different question' },
        token: issuedNow(),
        httpStatus: 400,
      });
      expect(await count(faqQuestions)).toBe(1);
      expect(await database.db.select().from(formTokens)).toMatchObject([
        { tokenHash: tokenHashOf(token), form: 'faq' },
      ]);
      expect(await outbox()).toHaveLength(1);
    });

    it('concurrent different submissions with one token: exactly one is stored', async () => {
      const d = await deps();
      const token = await createFormToken(T0 - 5, SECRET);
      const results = await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const f = await form({ ...QUESTION, email: `p${i}@example.com` });
          f.set(FORM_TOKEN_FIELD, token);
          return handleFaqQuestion(f, { page: '/faq' }, d);
        }),
      );
      expect(results.filter((r) => r.status === 'submitted')).toHaveLength(1);
      expect(
        results.filter((r) => r.status === 'rejected' && r.formError.messageKey === 'forms:spamExpired'),
      ).toHaveLength(9);
      expect(await count(faqQuestions)).toBe(1);
    });

    it('a token expires after two hours; one dated 1970 is refused', async () => {
      const d = await deps();
      const old = await form(QUESTION, now - TOKEN_MAX_AGE_MS - 1);
      expect(await handleFaqQuestion(old, { page: '/faq' }, d)).toMatchObject({
        status: 'rejected',
        formError: { messageKey: 'forms:spamExpired' },
        token: issuedNow(),
      });
      const ancient = await form(QUESTION, 0);
      expect(await handleFaqQuestion(ancient, { page: '/faq' }, d)).toMatchObject({
        status: 'rejected',
        formError: { messageKey: 'forms:spamExpired' },
        token: issuedNow(),
      });
      expect(await count(faqQuestions)).toBe(0);
    });

    it('refusals carry only the title and message keys (no internal reason)', async () => {
      const d = await deps();
      const r = await handleFaqQuestion(await form({ ...QUESTION, [HONEYPOT_FIELD]: 'x' }), { page: '/faq' }, d);
      expect(r.status !== 'submitted' && Object.keys(r.formError).sort()).toEqual(['messageKey', 'titleKey']);
      const n = await handleNewsletter(await form({ email: 'a@example.com' }, now - 10), { page: '/' }, d);
      expect(n.status !== 'subscribed' && Object.keys(n.formError).sort()).toEqual(['messageKey', 'titleKey']);
    });

    it('the firm is emailed for at most NOTIFY_LIMIT submissions an hour per IP; the rest are still stored', async () => {
      const d = await deps();
      const total = NOTIFY_LIMIT.max + 4;
      for (let i = 0; i < total; i++) {
        const r =
          i % 2
            ? await handleFaqQuestion(
                await form({ ...QUESTION, email: `ip${i}@example.com` }),
                { page: '/faq', ip: '198.51.100.4' },
                d,
              )
            : await handleNewsletter(await form({ email: `ip${i}@example.com` }), { page: '/', ip: '198.51.100.4' }, d);
        expect(r.status).toMatch(/submitted|subscribed/);
      }
      expect((await count(faqQuestions)) + (await count(newsletterSignups))).toBe(total);
      expect(await firmMails()).toHaveLength(NOTIFY_LIMIT.max);
      expect(logs.filter((l) => /over its hourly limit/.test(l))).toHaveLength(4);
      // Another visitor's submission is still emailed.
      expect(
        await handleFaqQuestion(
          await form({ ...QUESTION, email: 'else@example.com' }),
          { page: '/faq', ip: '198.51.100.5' },
          d,
        ),
      ).toEqual({ status: 'submitted' });
      expect(await firmMails()).toHaveLength(NOTIFY_LIMIT.max + 1);
    });

    it('limits questions per address (case-insensitive) within the window', async () => {
      const d = await deps();
      for (let i = 0; i < RATE_LIMIT.max; i++) {
        const email = i % 2 ? QUESTION.email.toLowerCase() : QUESTION.email.toUpperCase();
        expect(await handleFaqQuestion(await form({ ...QUESTION, email }), { page: '/faq' }, d)).toEqual({
          status: 'submitted',
        });
        now += 1000;
      }
      expect(await handleFaqQuestion(await form(QUESTION), { page: '/faq' }, d)).toMatchObject({
        status: 'rejected',
        formError: { messageKey: 'forms:spamRateLimited' },
        httpStatus: 429,
      });
      expect(
        await handleFaqQuestion(await form({ ...QUESTION, email: 'other@example.com' }), { page: '/faq' }, d),
      ).toEqual({ status: 'submitted' });
      now += RATE_LIMIT.windowMs;
      expect(await handleFaqQuestion(await form(QUESTION), { page: '/faq' }, d)).toEqual({ status: 'submitted' });
    });

    it('one IP stores at most FAQ_PER_IP questions an hour, whatever the addresses: then 429 and nothing stored; other IPs go on', async () => {
      const d = await deps();
      const ip = '198.51.100.20';
      for (let i = 0; i < FAQ_PER_IP.max; i++) {
        const r = await handleFaqQuestion(
          await form({ ...QUESTION, email: `flood${i}@example.com` }),
          { page: '/faq', ip },
          d,
        );
        expect(r, `question ${i}`).toEqual({ status: 'submitted' });
      }
      const refusedForm = await form({ ...QUESTION, email: 'one.more@example.com' });
      const refused = await handleFaqQuestion(refusedForm, { page: '/ar/faq', ip }, d);
      expect(refused).toEqual({
        status: 'rejected',
        formError: { titleKey: 'forms:spamTitle', messageKey: 'forms:spamRateLimited' },
        fieldErrors: {},
        values: { ...QUESTION, email: 'one.more@example.com' },
        // The visitor's own token comes back, unspent: it can carry the question later.
        token: refusedForm.get(FORM_TOKEN_FIELD),
        httpStatus: 429,
      });
      expect(await count(faqQuestions)).toBe(FAQ_PER_IP.max);
      expect(await count(formTokens)).toBe(FAQ_PER_IP.max);
      // Another visitor is not held up by this one.
      expect(
        await handleFaqQuestion(
          await form({ ...QUESTION, email: 'neighbour@example.com' }),
          { page: '/faq', ip: '198.51.100.21' },
          d,
        ),
      ).toEqual({ status: 'submitted' });
      // An hour later the IP has room again, and the refused form's token carries its question.
      now += FAQ_PER_IP.windowMs;
      expect(await handleFaqQuestion(refusedForm, { page: '/faq', ip }, d)).toEqual({ status: 'submitted' });
      expect(await count(faqQuestions)).toBe(FAQ_PER_IP.max + 2);
    });

    it('50 questions at once from one IP (other addresses) store exactly FAQ_PER_IP', async () => {
      const d = await deps();
      const forms = await Promise.all(
        Array.from({ length: 50 }, (_, i) => form({ ...QUESTION, email: `at.once${i}@example.com` })),
      );
      const results = await Promise.all(
        forms.map((f) => handleFaqQuestion(f, { page: '/faq', ip: '198.51.100.22' }, d)),
      );
      expect(results.filter((r) => r.status === 'submitted')).toHaveLength(FAQ_PER_IP.max);
      expect(results.filter((r) => r.status === 'rejected' && r.httpStatus === 429)).toHaveLength(50 - FAQ_PER_IP.max);
      expect(await count(faqQuestions)).toBe(FAQ_PER_IP.max);
    });

    it('a retried question (its token already carried it) is the same success and counts nothing, even from a full IP', async () => {
      const d = await deps();
      const ip = '198.51.100.23';
      const first = await form(QUESTION);
      expect(await handleFaqQuestion(first, { page: '/faq', ip }, d)).toEqual({ status: 'submitted' });
      // The answer was lost three times: three retries, none of them counted against the IP.
      for (let i = 0; i < 3; i++)
        expect(await handleFaqQuestion(first, { page: '/faq', ip }, d)).toEqual({ status: 'submitted' });
      for (let i = 1; i < FAQ_PER_IP.max; i++)
        expect(
          await handleFaqQuestion(await form({ ...QUESTION, email: `later${i}@example.com` }), { page: '/faq', ip }, d),
          `question ${i}`,
        ).toEqual({ status: 'submitted' });
      // The IP is full now; the retry is still answered as the success it was.
      expect(
        await handleFaqQuestion(await form({ ...QUESTION, email: 'refused@example.com' }), { page: '/faq', ip }, d),
      ).toMatchObject({ httpStatus: 429 });
      expect(await handleFaqQuestion(first, { page: '/faq', ip }, d)).toEqual({ status: 'submitted' });
      expect(await count(faqQuestions)).toBe(FAQ_PER_IP.max);
    });

    it("a question refused for its IP does not use up its address's own five", async () => {
      const d = await deps();
      const full = '198.51.100.24';
      for (let i = 0; i < FAQ_PER_IP.max; i++)
        await handleFaqQuestion(
          await form({ ...QUESTION, email: `fill${i}@example.com` }),
          { page: '/faq', ip: full },
          d,
        );
      for (let i = 0; i < 3; i++)
        expect(await handleFaqQuestion(await form(QUESTION), { page: '/faq', ip: full }, d)).toMatchObject({
          httpStatus: 429,
        });
      // From elsewhere the address still has its five.
      for (let i = 0; i < RATE_LIMIT.max; i++)
        expect(
          await handleFaqQuestion(
            await form({ ...QUESTION, question: `Q${i}` }),
            { page: '/faq', ip: '198.51.100.25' },
            d,
          ),
        ).toEqual({ status: 'submitted' });
    });

    it('a failing database is a Submission Error; the token is not spent, nothing is mailed', async () => {
      // The questions' table is gone: the insert fails inside the transaction with the token's row.
      await database.db.execute(sql`alter table faq_questions rename to faq_questions_away`);
      const first = await form(QUESTION);
      const result = await handleFaqQuestion(first, { page: '/faq' }, await deps());
      expect(result).toMatchObject({
        status: 'error',
        formError: { titleKey: 'forms:submissionErrorTitle', messageKey: 'forms:submissionError' },
        httpStatus: 503,
        // The same token comes back: the next try (the table back) stores the question with it.
        token: first.get(FORM_TOKEN_FIELD),
      });
      expect(await count(formTokens)).toBe(0);
      expect(await outbox()).toHaveLength(0);
      expect(logs.join('\n')).toMatch(/could not store an FAQ question: .*faq_questions/);
      await database.db.execute(sql`alter table faq_questions_away rename to faq_questions`);
      expect(await handleFaqQuestion(first, { page: '/faq' }, await deps())).toEqual({ status: 'submitted' });
      expect(await count(faqQuestions)).toBe(1);
    });

    it('a failing or hanging mailer never fails the answer or loses the question', async () => {
      const broken: Mailer = {
        transport: 'smtp',
        send: async () => {
          throw new Error('SMTP down');
        },
      };
      expect(await handleFaqQuestion(await form(QUESTION), { page: '/faq' }, await deps({ mailer: broken }))).toEqual({
        status: 'submitted',
      });
      expect(logs.join('\n')).toMatch(/notification .* failed .*SMTP down/);
      const hanging: Mailer = { transport: 'smtp', send: () => new Promise(() => {}) };
      const started = Date.now();
      expect(
        await handleFaqQuestion(
          await form(QUESTION),
          { page: '/faq' },
          await deps({ mailer: hanging, mailWaitMs: 50 }),
        ),
      ).toEqual({ status: 'submitted' });
      expect(Date.now() - started).toBeLessThan(2000);
      expect(await count(faqQuestions)).toBe(2);
    });
  });

  describe('newsletter', () => {
    it('keeps one record per address (any case) and thanks the visitor each time; mails once', async () => {
      const d = await deps();
      expect(await handleNewsletter(await form({ email: 'Reader@Example.com' }), { page: '/blog' }, d)).toEqual({
        status: 'subscribed',
        created: true,
      });
      now += 1000;
      expect(await handleNewsletter(await form({ email: ' reader@example.com ' }), { page: '/ar/blog' }, d)).toEqual({
        status: 'subscribed',
        created: false,
      });
      const rows = await database.db.select().from(newsletterSignups);
      expect(rows).toHaveLength(1);
      // The address itself, as first typed, in the firm's database (no unkeyed hash for an id);
      // pending, with the language and page of the latest request (its email is in that language).
      expect(rows[0]).toMatchObject({
        email: 'Reader@Example.com',
        emailKey: 'reader@example.com',
        status: 'pending',
        locale: 'ar',
        page: '/ar/blog',
        confirmMails: 2,
      });
      expect(newsletterKey(' Reader@Example.COM ')).toBe('reader@example.com');
      // The firm is told once; the address gets its confirmation each time (bounded: newsletter.server.test.ts).
      expect(await firmMails()).toHaveLength(1);
      expect((await mails()).filter((m) => m.to.toLowerCase() === 'reader@example.com')).toHaveLength(2);
    });

    it('answers an invalid address and spam with their messages', async () => {
      const d = await deps();
      expect(await handleNewsletter(await form({ email: 'not-an-email' }), { page: '/' }, d)).toMatchObject({
        status: 'rejected',
        formError: { titleKey: 'forms:invalidEmailTitle', messageKey: 'forms:invalidEmail' },
      });
      expect(await handleNewsletter(await form({ email: 'a@example.com' }, now - 10), { page: '/' }, d)).toMatchObject({
        formError: { messageKey: 'forms:spamTooFast' },
      });
      expect(
        await handleNewsletter(await form({ email: 'a@example.com', [HONEYPOT_FIELD]: 'x' }), { page: '/' }, d),
      ).toMatchObject({ formError: { messageKey: 'forms:spamHoneypot' } });
      expect(await count(newsletterSignups)).toBe(0);
    });

    it('a token carries one sign-up: the same address again is the same success, another address is refused', async () => {
      const d = await deps();
      const first = await form({ email: 'once@example.com' });
      expect(await handleNewsletter(first, { page: '/' }, d)).toEqual({ status: 'subscribed', created: true });
      expect(await handleNewsletter(first, { page: '/' }, d)).toMatchObject({ status: 'subscribed' });
      const other = await form({ email: 'twice@example.com' });
      other.set(FORM_TOKEN_FIELD, String(first.get(FORM_TOKEN_FIELD)));
      expect(await handleNewsletter(other, { page: '/' }, d)).toEqual({
        status: 'rejected',
        formError: { titleKey: 'forms:spamTitle', messageKey: 'forms:spamExpired' },
        token: issuedNow(),
        httpStatus: 400,
      });
      expect(await count(newsletterSignups)).toBe(1);
      expect(await firmMails()).toHaveLength(1);
    });
    it('one IP signs up at most NEWSLETTER_PER_IP addresses an hour: then 429 and nothing stored; other IPs go on', async () => {
      const d = await deps();
      const ip = '198.51.100.30';
      for (let i = 0; i < NEWSLETTER_PER_IP.max; i++)
        expect(
          await handleNewsletter(await form({ email: `list${i}@example.com` }), { page: '/blog', ip }, d),
          `sign-up ${i}`,
        ).toEqual({ status: 'subscribed', created: true });
      const refusedForm = await form({ email: 'one.more@example.com' });
      expect(await handleNewsletter(refusedForm, { page: '/ar/blog', ip }, d)).toEqual({
        status: 'rejected',
        formError: { titleKey: 'forms:spamTitle', messageKey: 'forms:spamRateLimited' },
        token: refusedForm.get(FORM_TOKEN_FIELD),
        httpStatus: 429,
      });
      // An address already on the list is a sign-up too: refused the same way, nothing written.
      expect(await handleNewsletter(await form({ email: 'list0@example.com' }), { page: '/', ip }, d)).toMatchObject({
        httpStatus: 429,
      });
      expect(await count(newsletterSignups)).toBe(NEWSLETTER_PER_IP.max);
      expect(await count(formTokens)).toBe(NEWSLETTER_PER_IP.max);
      expect(
        await handleNewsletter(await form({ email: 'neighbour@example.com' }), { page: '/', ip: '198.51.100.31' }, d),
      ).toEqual({ status: 'subscribed', created: true });
    });

    it('a retried sign-up (its token already carried it) is the same success from a full IP and counts nothing', async () => {
      const d = await deps();
      const ip = '198.51.100.32';
      const first = await form({ email: 'first@example.com' });
      expect(await handleNewsletter(first, { page: '/', ip }, d)).toEqual({ status: 'subscribed', created: true });
      for (let i = 0; i < 3; i++)
        expect(await handleNewsletter(first, { page: '/', ip }, d)).toMatchObject({ status: 'subscribed' });
      for (let i = 1; i < NEWSLETTER_PER_IP.max; i++)
        expect(
          await handleNewsletter(await form({ email: `n${i}@example.com` }), { page: '/', ip }, d),
          `sign-up ${i}`,
        ).toEqual({ status: 'subscribed', created: true });
      expect(await handleNewsletter(await form({ email: 'over@example.com' }), { page: '/', ip }, d)).toMatchObject({
        httpStatus: 429,
      });
      expect(await handleNewsletter(first, { page: '/', ip }, d)).toEqual({ status: 'subscribed', created: false });
      expect(await count(newsletterSignups)).toBe(NEWSLETTER_PER_IP.max);
    });
  });

  describe('page tokens (rendered into the cached page, shared by its visitors; ADR 0021)', () => {
    /** A form as posted from a cached page rendered at `renderedAt`: every visitor of it sends this token. */
    async function pageForm(fields: Record<string, string>, token: string): Promise<FormData> {
      const f = await form(fields);
      f.set(FORM_TOKEN_FIELD, token);
      return f;
    }

    it('the first post is accepted; an identical retry is the same one; another visitor of the page is stored too', async () => {
      const d = await deps();
      const token = await createFormToken(T0 - 60_000, SECRET, 'page');
      expect(await handleFaqQuestion(await pageForm(QUESTION, token), { page: '/faq' }, d)).toEqual({
        status: 'submitted',
      });
      // The answer was lost; the browser sends the same form again (twice, at once).
      const retries = await Promise.all(
        [0, 1].map(async () => handleFaqQuestion(await pageForm(QUESTION, token), { page: '/faq' }, d)),
      );
      expect(retries).toEqual([{ status: 'submitted' }, { status: 'submitted' }]);
      expect(await count(faqQuestions)).toBe(1);
      expect(await outbox()).toHaveLength(1);
      // Someone else who got the same cached page asks their own question with the same token.
      const other = { ...QUESTION, name: 'Omar', email: 'omar@example.com', question: 'Do you help with VAT?' };
      expect(await handleFaqQuestion(await pageForm(other, token), { page: '/faq' }, d)).toEqual({
        status: 'submitted',
      });
      expect(await count(faqQuestions)).toBe(2);
      expect(await count(formTokens)).toBe(2);
    });

    it('identical posts at the same instant with one page token store one question', async () => {
      // Four: copies sent at the same instant may each be counted against the address's five.
      const d = await deps();
      const token = await createFormToken(T0 - 60_000, SECRET, 'page');
      const results = await Promise.all(
        Array.from({ length: 4 }, async () => handleFaqQuestion(await pageForm(QUESTION, token), { page: '/faq' }, d)),
      );
      expect(results).toEqual(Array.from({ length: 4 }, () => ({ status: 'submitted' })));
      expect(await count(faqQuestions)).toBe(1);
    });

    it("too fast within 3 s of the render; accepted for the page cache's day; expired after, with a new token", async () => {
      const d = await deps();
      const fresh = await createFormToken(now - 1000, SECRET, 'page');
      expect(await handleFaqQuestion(await pageForm(QUESTION, fresh), { page: '/faq' }, d)).toMatchObject({
        status: 'rejected',
        formError: { messageKey: 'forms:spamTooFast' },
      });
      // A page kept by the cache for a day, then filled in slowly: older than a visitor token may be.
      const dayOld = await createFormToken(now - PAGE_TOKEN_MAX_AGE_MS + 1000, SECRET, 'page');
      expect(PAGE_TOKEN_MAX_AGE_MS).toBeGreaterThanOrEqual(24 * 60 * 60 * 1000 + TOKEN_MAX_AGE_MS);
      expect(await handleFaqQuestion(await pageForm(QUESTION, dayOld), { page: '/faq' }, d)).toEqual({
        status: 'submitted',
      });
      const tooOld = await createFormToken(now - PAGE_TOKEN_MAX_AGE_MS - 1, SECRET, 'page');
      expect(
        await handleFaqQuestion(await pageForm({ ...QUESTION, question: 'Another' }, tooOld), { page: '/faq' }, d),
      ).toMatchObject({ status: 'rejected', formError: { messageKey: 'forms:spamExpired' }, token: issuedNow() });
      expect(await count(faqQuestions)).toBe(1);
    });

    it("a page token's claim is kept as long as the token is accepted, so a late retry is still one", async () => {
      const d = await deps();
      const token = await createFormToken(T0 - 60_000, SECRET, 'page');
      expect(await handleFaqQuestion(await pageForm(QUESTION, token), { page: '/faq' }, d)).toEqual({
        status: 'submitted',
      });
      now = T0 + 20 * 60 * 60 * 1000;
      expect(await purgeExpiredFormTokens(database.db, now)).toBe(0);
      expect(await handleFaqQuestion(await pageForm(QUESTION, token), { page: '/faq' }, d)).toEqual({
        status: 'submitted',
      });
      expect(await count(faqQuestions)).toBe(1);
      expect(await purgeExpiredFormTokens(database.db, T0 + PAGE_TOKEN_MAX_AGE_MS + 120_000)).toBe(1);
    });

    it('newsletter: after unsubscribing, signing up again from the same cached page is a new sign-up, not a retry', async () => {
      const d = await deps();
      const token = await createFormToken(T0 - 60_000, SECRET, 'page');
      const signUp = async () =>
        handleNewsletter(await pageForm({ email: 'back@example.com' }, token), { page: '/' }, d);
      expect(await signUp()).toEqual({ status: 'subscribed', created: true });
      now += 1000;
      await database.db
        .update(newsletterSignups)
        .set({ status: 'unsubscribed', unsubscribedAt: new Date(now) })
        .where(sql`${newsletterSignups.emailKey} = 'back@example.com'`);
      now += 1000;
      expect(await signUp()).toEqual({ status: 'subscribed', created: false });
      const [row] = await database.db.select().from(newsletterSignups);
      expect(row).toMatchObject({ status: 'pending', unsubscribedAt: null, pendingSince: new Date(now) });
      expect((await mails()).filter((m) => m.to === 'back@example.com')).toHaveLength(2);
      // The same post again is still the same one.
      expect(await signUp()).toEqual({ status: 'subscribed', created: false });
      expect((await mails()).filter((m) => m.to === 'back@example.com')).toHaveLength(2);
    });

    it('newsletter: one page token signs up each address once; the same address again is the same success', async () => {
      const d = await deps();
      const token = await createFormToken(T0 - 60_000, SECRET, 'page');
      expect(await handleNewsletter(await pageForm({ email: 'a@example.com' }, token), { page: '/' }, d)).toEqual({
        status: 'subscribed',
        created: true,
      });
      expect(await handleNewsletter(await pageForm({ email: 'A@example.com' }, token), { page: '/' }, d)).toEqual({
        status: 'subscribed',
        created: false,
      });
      expect(await handleNewsletter(await pageForm({ email: 'b@example.com' }, token), { page: '/' }, d)).toEqual({
        status: 'subscribed',
        created: true,
      });
      expect(await count(newsletterSignups)).toBe(2);
      expect(await firmMails()).toHaveLength(2);
    });

    it('a page token still counts against the per-address limit (sharing it is no way around the limits)', async () => {
      const d = await deps();
      const token = await createFormToken(T0 - 60_000, SECRET, 'page');
      const results = [];
      for (let i = 0; i < RATE_LIMIT.max + 2; i++)
        results.push(
          await handleFaqQuestion(await pageForm({ ...QUESTION, question: `Q ${i}` }, token), { page: '/faq' }, d),
        );
      expect(results.filter((r) => r.status === 'submitted')).toHaveLength(RATE_LIMIT.max);
      expect(results.filter((r) => r.status === 'rejected' && r.httpStatus === 429)).toHaveLength(2);
    });
  });

  describe('clean-up', () => {
    it('deletes the records of tokens once they could no longer be accepted, and nothing else', async () => {
      const d = await deps();
      const first = await form(QUESTION);
      expect(await handleFaqQuestion(first, { page: '/faq' }, d)).toEqual({ status: 'submitted' });
      expect(await handleNewsletter(await form({ email: 'keep@example.com' }), { page: '/' }, d)).toMatchObject({
        status: 'subscribed',
      });
      expect(await purgeExpiredFormTokens(database.db, now)).toBe(0);
      const later = T0 + TOKEN_MAX_AGE_MS + 120_000;
      expect(await purgeExpiredFormTokens(database.db, later, 1)).toBe(1);
      expect(await purgeExpiredFormTokens(database.db, later)).toBe(1);
      expect(await count(formTokens)).toBe(0);
      // The submissions stay; a token that old is refused anyway (expired), so nothing is stored twice.
      expect(await count(faqQuestions)).toBe(1);
      expect(await count(newsletterSignups)).toBe(1);
      now = later;
      expect(await handleFaqQuestion(first, { page: '/faq' }, d)).toMatchObject({
        status: 'rejected',
        formError: { messageKey: 'forms:spamExpired' },
      });
    });
  });
});
