import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClientEmail } from './emails.server';
import { eq, sql } from 'drizzle-orm';
import { mailQueue } from '~/db/schema.server';
import { testDatabaseKinds } from '~/db/test-support';
import {
  mailDeps,
  mailKeyHash,
  queueMail,
  queuedMail,
  SELF_CLAIM_LEASE_MS,
  selfClaimedAt,
  sendDueMail,
} from './mail-queue.server';
import { createTestWorld, type TestWorld } from './test-support';

const cancellation: ClientEmail = {
  kind: 'cancellation',
  locale: 'ar',
  name: 'ليلى حداد',
  siteUrl: 'https://www.bawaba-advisory.com',
  planName: 'الأعمال',
  accessEndsAt: '2026-12-14T00:00:00.000Z',
  resumeUrl: 'https://www.bawaba-advisory.com/ar/account/subscription',
};

describe.each(testDatabaseKinds())('the client mail queue (%s)', (kind) => {
  let world: TestWorld;
  beforeEach(async () => (world = await createTestWorld({ database: kind })));
  afterEach(() => world.close());
  const row = async (key: string) =>
    (
      await world.database.db
        .select()
        .from(mailQueue)
        .where(eq(mailQueue.keyHash, mailKeyHash(key)))
    )[0];

  it('queues an email once per key, however often the same fact is reported', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () => queueMail('cancel:sub_1:2026-11-20', 'client@example.com', cancellation)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await world.database.db.execute(sql`select count(*)::int as n from mail_queue`)).rows[0]).toEqual({ n: 1 });
    await sendDueMail();
    await sendDueMail();
    expect(world.sent).toHaveLength(1);
    expect(world.sent[0].to).toBe('client@example.com');
    expect(world.sent[0].html).toContain('dir="rtl"');
    expect(world.sent[0].messageId).toBe(
      `<portal.mail.${mailKeyHash('cancel:sub_1:2026-11-20')}@www.bawaba-advisory.com>`,
    );
  });

  it('a row its request inserted claimed, whose process died before sending, goes out a few minutes later, once', async () => {
    let now = Date.UTC(2026, 10, 23, 10);
    const deps = { ...mailDeps(), now: () => now };
    const mail = queuedMail('cancel:sub_lease:x', 'client@example.com', cancellation, {}, now);
    await world.database.db.insert(mailQueue).values({ ...mail, status: 'sending', claimedAt: selfClaimedAt(now) });
    // The request's own send would come now; the process is gone, so no one sends it yet…
    now += SELF_CLAIM_LEASE_MS - 1000;
    expect(await sendDueMail(20, deps)).toEqual({ sent: 0, failed: 0 });
    // …and once its claim has gone stale, the job's sender does, once.
    now += 2000;
    expect(await sendDueMail(20, deps)).toEqual({ sent: 1, failed: 0 });
    now += 60 * 60 * 1000;
    expect(await sendDueMail(20, deps)).toEqual({ sent: 0, failed: 0 });
    expect(world.sent).toHaveLength(1);
  });

  it("a sender whose claim was taken over records nothing over the newer claimer's outcome", async () => {
    let now = Date.UTC(2026, 10, 23, 10);
    const deps = { ...mailDeps(), now: () => now };
    await queueMail('cancel:sub_slow:x', 'client@example.com', cancellation, {}, deps);
    // The first sender's send hangs past its claim; a second sender takes the row over and sends it.
    let release: () => void = () => {};
    const slow = {
      ...deps,
      mailer: {
        ...world.mailer,
        send: () => new Promise<never>((_, reject) => (release = () => reject(new Error('timed out')))),
      },
    };
    const first = sendDueMail(20, slow as typeof deps);
    await expect.poll(async () => (await row('cancel:sub_slow:x'))?.status).toBe('sending');
    now += 16 * 60 * 1000;
    expect(await sendDueMail(20, deps)).toEqual({ sent: 1, failed: 0 });
    // The first send now fails: the row stays sent, and is not sent a third time.
    release();
    expect(await first).toEqual({ sent: 0, failed: 1 });
    expect(await row('cancel:sub_slow:x')).toMatchObject({ status: 'sent' });
    now += 60 * 60 * 1000;
    expect(await sendDueMail(20, deps)).toEqual({ sent: 0, failed: 0 });
    expect(world.sent).toHaveLength(1);
  });

  it('keeps a message while the mail server is down and sends it, once, when it is back', async () => {
    let now = Date.UTC(2026, 10, 23, 10);
    const deps = { ...mailDeps(), now: () => now };
    await queueMail('cancel:sub_2:x', 'client@example.com', cancellation, {}, deps);
    world.mailer.failing = true;
    expect(await sendDueMail(20, deps)).toEqual({ sent: 0, failed: 1 });
    expect(await row('cancel:sub_2:x')).toMatchObject({ status: 'pending', attempts: 1 });
    // Not retried before its delay…
    world.mailer.failing = false;
    expect(await sendDueMail(20, deps)).toEqual({ sent: 0, failed: 0 });
    // …then sent, and never again.
    now += 60 * 60 * 1000;
    expect(await sendDueMail(20, deps)).toEqual({ sent: 1, failed: 0 });
    now += 24 * 60 * 60 * 1000;
    expect(await sendDueMail(20, deps)).toEqual({ sent: 0, failed: 0 });
    expect(world.sent).toHaveLength(1);
  });

  it('two senders running at once send each message once', async () => {
    for (let i = 0; i < 6; i++) await queueMail(`k${i}`, `c${i}@example.com`, cancellation);
    await Promise.all([sendDueMail(), sendDueMail(), sendDueMail()]);
    expect(world.sent.map((m) => m.to).sort()).toEqual(
      ['c0', 'c1', 'c2', 'c3', 'c4', 'c5'].map((c) => `${c}@example.com`),
    );
  });

  it('a claim left by a sender that died is taken again after 15 minutes, once', async () => {
    let now = Date.now();
    const deps = { ...mailDeps(), now: () => now };
    await queueMail('cancel:sub_3:y', 'client@example.com', cancellation, {}, deps);
    // A sender claimed it and died before sending.
    await world.database.db.update(mailQueue).set({ status: 'sending', claimedAt: new Date(now) });
    expect((await sendDueMail(20, deps)).sent).toBe(0);
    now += 16 * 60 * 1000;
    const again = await Promise.all([sendDueMail(20, deps), sendDueMail(20, deps)]);
    expect(again.map((r) => r.sent).sort()).toEqual([0, 1]);
    expect(world.sent).toHaveLength(1);
  });

  it('a sign-in email holds only its code row id; it is dropped when the code is gone, and keeps nothing once sent', async () => {
    const codes = {
      live: async (id: string) => (id === 'live' ? { customerId: 'cus_1', name: 'Layla', checkout: false } : null),
      codeOf: (id: string) => ({
        code: '482913',
        link: `https://www.bawaba-advisory.com/account/verify?c=${id}&code=482913`,
      }),
    };
    const deps = { ...mailDeps(), codes };
    const signIn = (codeId: string) =>
      ({ kind: 'sign-in', locale: 'en', siteUrl: 'https://www.bawaba-advisory.com', codeId, minutes: 10 }) as const;
    await queueMail('signin:a', 'client@example.com', signIn('live'), { sendBefore: Date.now() + 600_000 }, deps);
    await queueMail('signin:b', 'client@example.com', signIn('used'), { sendBefore: Date.now() + 600_000 }, deps);
    await queueMail('signin:c', 'client@example.com', signIn('live'), { sendBefore: Date.now() - 1 }, deps);
    expect(JSON.stringify((await world.database.db.execute(sql`select * from mail_queue`)).rows)).not.toContain(
      '482913',
    );
    await sendDueMail(20, deps);
    expect(world.sent).toHaveLength(1);
    expect(world.sent[0].text).toContain('482913');
    expect(world.sent[0].text).toContain('Layla');
    expect(await row('signin:a')).toMatchObject({ status: 'sent', message: null });
    expect(await row('signin:b')).toMatchObject({ status: 'dropped', message: null });
    expect(await row('signin:c')).toMatchObject({ status: 'dropped', message: null });
  });
});
