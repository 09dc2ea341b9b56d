import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
import { testDatabaseKinds } from '~/db/test-support';
import { erasePerson, formatErasure, StillBilledError, type ErasureContext } from './erase.server';
import { queueMail } from './mail-queue.server';
import { createTestWorldOn, type TestWorldOn } from './test-world-on';

const EMAIL = 'erase@example.com';
const OTHER = 'other@example.com';
const HOUR = 60 * 60 * 1000;

const customer = (id: string, email: string): Customer => ({
  id,
  email,
  name: 'Erase Me',
  company: null,
  locale: 'en',
});

describe.each(testDatabaseKinds())('erasure on %s', (kind) => {
  let world: TestWorldOn;
  let context: ErasureContext;
  const stripeAsked: string[] = [];

  beforeEach(async () => {
    world = await createTestWorldOn(kind);
    const db = world.database.db;
    // The database: two clients, each with a session; a code; questions, sign-ups, emails.
    await db.insert(accounts).values([
      { customerId: 'cus_erase', email: EMAIL, name: 'Erase Me', locale: 'en' },
      { customerId: 'cus_other', email: OTHER, name: 'Other', locale: 'ar' },
    ]);
    await db.insert(sessions).values([
      { idHash: 's1', customerId: 'cus_erase', expiresAt: new Date(Date.now() + HOUR) },
      { idHash: 's2', customerId: 'cus_erase', expiresAt: new Date(Date.now() + HOUR) },
      { idHash: 's3', customerId: 'cus_other', expiresAt: new Date(Date.now() + HOUR) },
    ]);
    await db.insert(signinCodes).values({
      id: 'code1',
      subject: 'x',
      requester: 'y',
      customerId: 'cus_erase',
      triesLeft: 5,
      next: '/account',
      locale: 'en',
      expiresAt: new Date(Date.now() + HOUR),
    });
    const question = (n: number, email: string) => ({
      id: `00000000-0000-4000-8000-00000000000${n}`,
      name: 'Q',
      email,
      phone: '+971500000000',
      question: 'Mainland or free zone?',
      locale: 'en',
      page: '/faq',
      submittedAt: new Date('2026-11-02T10:00:00Z'),
    });
    // As typed (case and spaces): found all the same.
    await db.insert(faqQuestions).values([question(1, ' Erase@Example.com'), question(2, EMAIL), question(3, OTHER)]);
    await db.insert(newsletterSignups).values([
      {
        id: '00000000-0000-4000-8000-000000000004',
        email: 'Erase@example.com',
        emailKey: EMAIL,
        locale: 'en',
        page: '/',
        submittedAt: new Date(),
      },
      {
        id: '00000000-0000-4000-8000-000000000005',
        email: OTHER,
        emailKey: OTHER,
        locale: 'en',
        page: '/',
        submittedAt: new Date(),
      },
    ]);
    // They are a Studio editor too, signed in, with a code pending; another editor likewise.
    await db.insert(lakeEditors).values([
      { email: EMAIL, name: 'Erase Me' },
      { email: OTHER, name: 'Other' },
    ]);
    await db.insert(lakeEditorSessions).values([
      { idHash: 'e1', email: EMAIL, expiresAt: new Date(Date.now() + HOUR) },
      { idHash: 'e2', email: OTHER, expiresAt: new Date(Date.now() + HOUR) },
    ]);
    await db.insert(lakeEditorCodes).values({
      id: 'ecode1',
      subject: 'x',
      requester: 'y',
      email: EMAIL,
      triesLeft: 5,
      expiresAt: new Date(Date.now() + HOUR),
    });
    const mail = (key: string, to: string) => ({
      keyHash: key,
      toAddress: to,
      kind: 'sign-in',
      message: null,
      status: 'sent',
      nextAttemptAt: new Date(),
    });
    await db.insert(mailQueue).values([mail('m1', EMAIL), mail('m2', EMAIL), mail('m3', OTHER)]);

    // The development outbox: an email to them, the firm's notification of their question
    // (Reply-To: them), and an email to someone else.
    const outboxDir = path.join(world.dir, 'outbox');
    mkdirSync(outboxDir);
    const outbox = (base: string, fields: Record<string, string>) => {
      writeFileSync(path.join(outboxDir, `${base}.json`), JSON.stringify({ from: 'site@x', subject: 's', ...fields }));
      writeFileSync(path.join(outboxDir, `${base}.eml`), 'Subject: s\n\nbody\n');
    };
    outbox('message-to-them', { to: `Erase Me <${EMAIL.toUpperCase()}>` });
    outbox('message-about-them', { to: 'staff@firm.example, owner@firm.example', replyTo: EMAIL });
    outbox('message-to-other', { to: OTHER });

    // An email queued to them through the queue itself.
    await queueMail('cancel:sub_e:1', EMAIL, {
      kind: 'cancellation',
      locale: 'en',
      name: 'Erase Me',
      siteUrl: 'https://www.bawaba-advisory.com',
      planName: 'Starter',
      accessEndsAt: '2026-12-14T00:00:00.000Z',
      resumeUrl: 'https://www.bawaba-advisory.com/account/subscription',
    });

    context = {
      db,
      outboxDir,
      billingEngine: {
        findCustomerByEmail: async (e) => (e === EMAIL ? customer('cus_erase', EMAIL) : null),
        getSubscription: async () => null,
      },
      stripe: {
        findCustomerByEmail: async (e) => {
          stripeAsked.push(e);
          return e === EMAIL ? customer('cus_StripeErase', EMAIL) : null;
        },
        getSubscription: async () => null,
      },
    };
  }, 60_000);
  afterEach(() => world.close(), 60_000);

  const count = async (query: ReturnType<typeof sql>) =>
    (await world.database.db.execute<{ n: number }>(query)).rows[0]!.n;

  it(
    'removes the person everywhere, says what per place, leaves everyone else; a second run removes nothing',
    { timeout: 60_000 },
    async () => {
      const first = await erasePerson(' Erase@Example.com ', context);
      const removed = Object.fromEntries(
        first.map((r) => [r.place.split(' (')[0]!.split(':').slice(0, 2).join(':'), r.removed]),
      );
      expect(removed).toEqual({
        'database: portal accounts': 1,
        'database: Studio editor account': 1,
        'database: FAQ questions': 2,
        'database: newsletter sign-up': 1,
        'database: client emails': 3,
        'database: rate-limit windows': 0,
        outbox: 2,
        'billing engine: customer, subscriptions and invoices': 0,
        'Stripe customers': 0,
      });
      expect(first.every((r) => !r.failed)).toBe(true);
      const text = formatErasure(EMAIL, first);
      expect(text).toContain('Erasure of erase@example.com: 10 records removed');
      expect(text).toContain('2 sessions and 1 sign-in codes with it');
      expect(text).toMatch(
        /editor Erase Me\n {4}1 sessions and 1 sign-in codes with it\n {4}note: their content edits stay/,
      );
      expect(text).toMatch(/rate-limit windows: 0 removed\n {4}note: not findable by address/);
      expect(text).toMatch(/customer cus_erase \(Erase Me\): kept\n {4}note: .*accounting records/);
      expect(text).toMatch(
        /Stripe customers \(listed for the operator, not deleted\): 0 removed\n {4}customer cus_StripeErase/,
      );
      // Asked twice: whether a subscription still renews, then for the listing.
      expect(stripeAsked).toEqual([EMAIL, EMAIL]);

      // Everyone else's data is where it was.
      expect(await count(sql`select count(*)::int as n from ${accounts}`)).toBe(1);
      expect(await count(sql`select count(*)::int as n from ${sessions}`)).toBe(1);
      expect(await count(sql`select count(*)::int as n from ${signinCodes}`)).toBe(0);
      expect(await count(sql`select count(*)::int as n from ${faqQuestions}`)).toBe(1);
      expect(await count(sql`select count(*)::int as n from ${lakeEditors}`)).toBe(1);
      expect(await count(sql`select count(*)::int as n from ${lakeEditorSessions}`)).toBe(1);
      expect(await count(sql`select count(*)::int as n from ${lakeEditorCodes}`)).toBe(0);
      expect(await count(sql`select count(*)::int as n from ${newsletterSignups}`)).toBe(1);
      expect(await count(sql`select count(*)::int as n from ${mailQueue}`)).toBe(1);
      expect(readdirSync(context.outboxDir).sort()).toEqual(['message-to-other.eml', 'message-to-other.json']);

      const second = await erasePerson(EMAIL, context);
      expect(second.map((r) => r.removed)).toEqual(second.map(() => 0));
      expect(formatErasure(EMAIL, second)).toContain('Erasure of erase@example.com: 0 records removed');
    },
  );

  it('a place that fails is reported and the others are still erased', { timeout: 60_000 }, async () => {
    // The outbox "folder" is a file: that place cannot be read.
    const notAFolder = path.join(world.dir, 'not-a-folder');
    writeFileSync(notAFolder, '');
    const reports = await erasePerson(EMAIL, { ...context, outboxDir: notAFolder });
    expect(reports.find((r) => r.failed)).toMatchObject({ place: expect.stringMatching(/^outbox/) });
    expect(reports.filter((r) => r.failed)).toHaveLength(1);
    expect(await count(sql`select count(*)::int as n from ${accounts}`)).toBe(1);
  });

  const renewing = (id: string, customerId: string, change: Partial<SubscriptionView> = {}): SubscriptionView => ({
    id,
    customerId,
    plan: 'business',
    status: 'active',
    amount: 49_900,
    currency: 'sgd',
    currentPeriodStart: '2026-11-14T00:00:00.000Z',
    currentPeriodEnd: '2026-12-14T00:00:00.000Z',
    cancelAtPeriodEnd: false,
    canceledAt: null,
    endedAt: null,
    scheduledChange: null,
    card: null,
    ...change,
  });

  it(
    'refuses, erasing nothing, while a subscription still renews; erases once it is set to end',
    {
      timeout: 60_000,
    },
    async () => {
      const accountsBefore = await count(sql`select count(*)::int as n from ${accounts}`);
      let subscription = renewing('sub_engine1', 'cus_erase');
      const withEngine = {
        ...context,
        billingEngine: { ...context.billingEngine!, getSubscription: async () => subscription },
      };
      const refused = await erasePerson(EMAIL, withEngine).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(StillBilledError);
      expect(String((refused as Error).message)).toMatch(
        /^nothing erased: erase@example\.com still has a subscription that renews \(billing engine sub_engine1, plan business, active, next renewal 2026-12-14\)\. Cancel it first \(the client can, at \/account\/subscription/,
      );
      expect(await count(sql`select count(*)::int as n from ${accounts}`)).toBe(accountsBefore);
      expect(await count(sql`select count(*)::int as n from ${faqQuestions}`)).toBe(3);
      expect(readdirSync(context.outboxDir)).toHaveLength(6);

      // A payment being retried still renews; so does a Stripe subscription.
      subscription = renewing('sub_engine1', 'cus_erase', { status: 'past_due' });
      await expect(erasePerson(EMAIL, withEngine)).rejects.toBeInstanceOf(StillBilledError);
      await expect(
        erasePerson(EMAIL, {
          ...context,
          stripe: { ...context.stripe!, getSubscription: async () => renewing('sub_S1', 'cus_StripeErase') },
        }),
      ).rejects.toThrow(/\(Stripe sub_S1, plan business, active/);
      expect(await count(sql`select count(*)::int as n from ${accounts}`)).toBe(accountsBefore);

      // Cancelled at the end of its period: it will not renew, and the erasure goes ahead.
      subscription = renewing('sub_engine1', 'cus_erase', {
        cancelAtPeriodEnd: true,
        canceledAt: '2026-11-20T00:00:00.000Z',
      });
      const reports = await erasePerson(EMAIL, withEngine);
      expect(reports.every((r) => !r.failed)).toBe(true);
      expect(await count(sql`select count(*)::int as n from ${accounts}`)).toBe(accountsBefore - 1);
    },
  );

  it(
    'erases nothing when billing cannot be read to check for a renewing subscription',
    { timeout: 60_000 },
    async () => {
      const accountsBefore = await count(sql`select count(*)::int as n from ${accounts}`);
      await expect(
        erasePerson(EMAIL, {
          ...context,
          stripe: {
            ...context.stripe!,
            findCustomerByEmail: async () => {
              throw new Error('Stripe unreachable');
            },
          },
        }),
      ).rejects.toThrow('Stripe unreachable');
      expect(await count(sql`select count(*)::int as n from ${accounts}`)).toBe(accountsBefore);
    },
  );

  it('without Stripe or the billing engine, says there is nothing to list', { timeout: 60_000 }, async () => {
    const text = formatErasure(EMAIL, await erasePerson(EMAIL, { ...context, stripe: null, billingEngine: null }));
    expect(text).toContain('note: Stripe is not configured here: nothing to list');
    expect(text).toContain('note: the embedded billing engine does not run here');
  });
});
