import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClientEmail } from './emails.server';
import { mailDeps, mailId, queueMail, sendDueMail, type MailDoc } from './mail-queue.server';
import { createTestWorld, type TestWorld } from './test-support';

let world: TestWorld;
beforeEach(async () => (world = await createTestWorld()));
afterEach(() => world.close());

const cancellation: ClientEmail = {
  kind: 'cancellation',
  locale: 'ar',
  name: 'ليلى حداد',
  siteUrl: 'https://www.bawaba-advisory.com',
  planName: 'الأعمال',
  accessEndsAt: '2026-12-14T00:00:00.000Z',
  resumeUrl: 'https://www.bawaba-advisory.com/ar/account/subscription',
};

describe('the client mail queue', () => {
  it('queues an email once per key, however often the same fact is reported', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () => queueMail('cancel:sub_1:2026-11-20', 'client@example.com', cancellation)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await world.store.queryPrivate<number>('count(*[_type == "portal.mail"])')).toBe(1);
    await sendDueMail();
    await sendDueMail();
    expect(world.sent).toHaveLength(1);
    expect(world.sent[0].to).toBe('client@example.com');
    expect(world.sent[0].html).toContain('dir="rtl"');
    expect(world.sent[0].messageId).toBe(`<${mailId('cancel:sub_1:2026-11-20')}@www.bawaba-advisory.com>`);
  });

  it('keeps a message while the mail server is down and sends it, once, when it is back', async () => {
    let now = Date.UTC(2026, 10, 23, 10);
    const deps = { ...mailDeps(), now: () => now };
    await queueMail('cancel:sub_2:x', 'client@example.com', cancellation, {}, deps);
    world.mailer.failing = true;
    expect(await sendDueMail(20, deps)).toEqual({ sent: 0, failed: 1 });
    const doc = await world.store.getDocument<MailDoc>(mailId('cancel:sub_2:x'));
    expect(doc).toMatchObject({ status: 'pending', attempts: 1 });
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

  it('survives a restart: a queued message is still sent after the process is replaced', async () => {
    await queueMail('cancel:sub_3:y', 'client@example.com', cancellation);
    await world.restart();
    expect((await sendDueMail()).sent).toBe(1);
  });

  it('erases a sign-in email once sent, and drops one whose code expired before it could go', async () => {
    const signIn: ClientEmail = {
      kind: 'sign-in',
      locale: 'en',
      name: 'Layla',
      siteUrl: 'https://www.bawaba-advisory.com',
      code: '123456',
      link: 'https://www.bawaba-advisory.com/account/verify?c=x&code=123456',
      minutes: 10,
    };
    await queueMail('signin:a', 'client@example.com', signIn, { expiresAt: Date.now() + 600_000 });
    await queueMail('signin:b', 'client@example.com', signIn, { expiresAt: Date.now() - 1 });
    await sendDueMail();
    expect(world.sent).toHaveLength(1);
    expect(await world.store.getDocument<MailDoc>(mailId('signin:a'))).toMatchObject({ status: 'sent', message: null });
    expect(await world.store.getDocument<MailDoc>(mailId('signin:b'))).toMatchObject({
      status: 'dropped',
      message: null,
    });
  });
});
