import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOutboxMailer, type Mailer } from '~/lib/mailer.server';
import { EmbeddedContentClient } from '~/sanity/embedded.server';
import type { PrivateStore } from '~/sanity/types';
import {
  handleFaqQuestion,
  handleNewsletter,
  newsletterId,
  NOTIFY_LIMIT,
  tokenRecordId,
  type SubmissionDeps,
} from './submissions.server';
import { FORM_TOKEN_FIELD, HONEYPOT_FIELD } from './fields';
import { RATE_LIMIT } from './rate-limit';
import { createFormToken, MIN_FILL_MS, TOKEN_MAX_AGE_MS } from './spam-check';

// The limits' document ids are keyed with the signing secret.
process.env.SESSION_SECRET ??= 'forms-test-session-secret-0123456789abcdef';

const SECRET = 'test-secret';
const T0 = Date.UTC(2025, 2, 1, 10, 0, 0);
let dir: string;
let client: EmbeddedContentClient;
let now: number;
let logs: string[];

async function deps(overrides: Partial<SubmissionDeps> = {}): Promise<SubmissionDeps> {
  return {
    store: client,
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

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'submissions-'));
  await writeFile(
    path.join(dir, 'dataset.ndjson'),
    JSON.stringify({ _id: 'siteSettings', _type: 'siteSettings', contactEmail: 'hello@example.com' }) + '\n',
  );
  client = new EmbeddedContentClient({
    datasetFile: path.join(dir, 'dataset.ndjson'),
    dataDir: path.join(dir, 'data'),
  });
  await client.whenReady();
  now = T0 + MIN_FILL_MS + 1000;
  logs = [];
});
afterEach(async () => {
  client.close();
  await rm(dir, { recursive: true, force: true });
});

describe('FAQ question', () => {
  it('stores the question durably with locale and page, then notifies the firm', async () => {
    const result = await handleFaqQuestion(await form(QUESTION), { page: '/ar/faq' }, await deps());
    expect(result).toEqual({ status: 'submitted' });
    // A fresh client over the same folder (a restarted server) sees it.
    const again = new EmbeddedContentClient({
      datasetFile: path.join(dir, 'dataset.ndjson'),
      dataDir: path.join(dir, 'data'),
    });
    const docs = await again.fetch<Record<string, unknown>[]>(
      '*[_type == "faqQuestion"]',
      {},
      { perspective: 'published' },
    );
    again.close();
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({
      ...QUESTION,
      locale: 'ar',
      page: '/ar/faq',
      submittedAt: new Date(now).toISOString(),
    });
    expect(String(docs[0]!._id)).toMatch(/^submission\.faqQuestion\.[0-9a-f-]{36}$/);
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
    expect(await client.fetch('count(*[_type == "faqQuestion"])', {}, { perspective: 'published' })).toBe(0);
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
    expect(await client.fetch('count(*[_type == "faqQuestion"])', {}, { perspective: 'published' })).toBe(0);
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
    expect(await client.fetch('count(*[_type == "faqQuestion"])', {}, { perspective: 'published' })).toBe(0);
    const again = await form(QUESTION);
    again.set(FORM_TOKEN_FIELD, r.status !== 'submitted' ? r.token! : '');
    now += MIN_FILL_MS;
    expect(await handleFaqQuestion(again, { page: '/faq' }, d)).toEqual({ status: 'submitted' });
    expect(await client.fetch('count(*[_type == "faqQuestion"])', {}, { perspective: 'published' })).toBe(1);
  });

  it('50 questions at once from one address store exactly 5 (counting and storing do not race)', async () => {
    const d = await deps();
    const forms = await Promise.all(
      Array.from({ length: 50 }, (_, i) => form({ ...QUESTION, question: `Question ${i}` })),
    );
    const results = await Promise.all(forms.map((f) => handleFaqQuestion(f, { page: '/faq', ip: '203.0.113.7' }, d)));
    expect(results.filter((r) => r.status === 'submitted')).toHaveLength(RATE_LIMIT.max);
    expect(results.filter((r) => r.status === 'rejected' && r.httpStatus === 429)).toHaveLength(50 - RATE_LIMIT.max);
    expect(await client.fetch('count(*[_type == "faqQuestion"])', {}, { perspective: 'published' })).toBe(
      RATE_LIMIT.max,
    );
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
    expect(await client.fetch('count(*[_type == "faqQuestion"])', {}, { perspective: 'published' })).toBe(1);
    expect(await client.getDocument(tokenRecordId(token))).toMatchObject({ _type: 'form.token', form: 'faq' });
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
    expect(await client.fetch('count(*[_type == "faqQuestion"])', {}, { perspective: 'published' })).toBe(1);
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
    expect(await client.fetch('count(*[_type == "faqQuestion"])', {}, { perspective: 'published' })).toBe(0);
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
    expect(
      await client.fetch('count(*[_type in ["faqQuestion", "newsletterSignup"]])', {}, { perspective: 'published' }),
    ).toBe(total);
    expect(await outbox()).toHaveLength(NOTIFY_LIMIT.max);
    expect(logs.filter((l) => /over its hourly limit/.test(l))).toHaveLength(4);
    // Another visitor's submission is still emailed.
    expect(
      await handleFaqQuestion(
        await form({ ...QUESTION, email: 'else@example.com' }),
        { page: '/faq', ip: '198.51.100.5' },
        d,
      ),
    ).toEqual({ status: 'submitted' });
    expect(await outbox()).toHaveLength(NOTIFY_LIMIT.max + 1);
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

  it('a failing store is a Submission Error; nothing is mailed', async () => {
    const store: PrivateStore = client;
    const failing: PrivateStore = {
      getDocument: store.getDocument.bind(store),
      queryPrivate: store.queryPrivate.bind(store),
      mutate: async (mutations) => {
        if (mutations.some((m) => 'create' in m && m.create._type === 'faqQuestion')) throw new Error('disk full');
        return store.mutate(mutations);
      },
    };
    const result = await handleFaqQuestion(await form(QUESTION), { page: '/faq' }, await deps({ store: failing }));
    expect(result).toMatchObject({
      status: 'error',
      formError: { titleKey: 'forms:submissionErrorTitle', messageKey: 'forms:submissionError' },
      httpStatus: 503,
    });
    expect(await outbox()).toHaveLength(0);
    expect(logs.join('\n')).toMatch(/disk full/);
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
      await handleFaqQuestion(await form(QUESTION), { page: '/faq' }, await deps({ mailer: hanging, mailWaitMs: 50 })),
    ).toEqual({ status: 'submitted' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await client.fetch('count(*[_type == "faqQuestion"])', {}, { perspective: 'published' })).toBe(2);
  });
});

describe('newsletter', () => {
  it('keeps one record per address (any case) and thanks the visitor each time; mails once', async () => {
    const d = await deps();
    expect(await handleNewsletter(await form({ email: 'Reader@Example.com' }), { page: '/blog' }, d)).toEqual({
      status: 'subscribed',
      created: true,
    });
    expect(await handleNewsletter(await form({ email: ' reader@example.com ' }), { page: '/ar/blog' }, d)).toEqual({
      status: 'subscribed',
      created: false,
    });
    const docs = await client.fetch<Record<string, unknown>[]>(
      '*[_type == "newsletterSignup"]',
      {},
      { perspective: 'published' },
    );
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({
      _id: newsletterId('reader@example.com'),
      email: 'Reader@Example.com',
      locale: 'en',
      page: '/blog',
    });
    expect(newsletterId('reader@example.com')).toMatch(/^submission\.newsletter\.[0-9a-f]{32}$/);
    expect(await outbox()).toHaveLength(1);
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
    expect(await client.fetch('count(*[_type == "newsletterSignup"])', {}, { perspective: 'published' })).toBe(0);
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
    expect(await client.fetch('count(*[_type == "newsletterSignup"])', {}, { perspective: 'published' })).toBe(1);
    expect(await outbox()).toHaveLength(1);
  });
});
