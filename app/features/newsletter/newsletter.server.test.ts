import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mailQueue, newsletterSignups } from '~/db/schema.server';
import { openTestDatabase, testDatabaseKinds } from '~/db/test-support';
import type { Database } from '~/db/types.server';
import { createOutboxMailer } from '~/lib/mailer.server';
import { sendDueMail } from '~/portal/mail-queue.server';
import { enforceRetention } from '~/portal/retention.server';
import { erasePerson } from '~/portal/erase.server';
import { CONFIRM_LINK_MS } from './links.server';
import {
  confirmSignup,
  MAX_CONFIRM_MAILS,
  requestLegacyConfirmations,
  sendConfirmation,
  subscribe,
  unsubscribe,
  type NewsletterMailDeps,
} from './newsletter.server';
import { NEWSLETTER_WORDING_VERSION } from './wording';

process.env.SESSION_SECRET ??= 'newsletter-test-session-secret-0123456789abcdef';

const SITE = 'https://www.example.test';
const T0 = Date.UTC(2026, 10, 29, 8, 0, 0);
const DAY = 24 * 60 * 60 * 1000;

type OutboxMail = { to: string; subject: string; text: string; headers?: Record<string, string> };

describe.each(testDatabaseKinds())('newsletter double opt-in (%s)', (kind) => {
  let database: Database;
  let dir: string;
  let now: number;
  let deps: NewsletterMailDeps;

  beforeEach(async () => {
    database = await openTestDatabase(kind);
    dir = await mkdtemp(path.join(tmpdir(), 'newsletter-'));
    now = T0;
    deps = {
      db: database.db,
      mailer: createOutboxMailer(path.join(dir, 'outbox'), () => new Date(now)),
      from: 'Firm <no-reply@example.test>',
      now: () => now,
      siteUrl: SITE,
      log: () => {},
    };
  }, 60_000);
  afterEach(async () => {
    await database.close();
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  const mails = async (): Promise<OutboxMail[]> => {
    const files = (await readdir(path.join(dir, 'outbox')).catch(() => [] as string[])).filter((f) =>
      f.endsWith('.json'),
    );
    const all = await Promise.all(
      files.map(
        async (f) => JSON.parse(await readFile(path.join(dir, 'outbox', f), 'utf8')) as OutboxMail & { date: string },
      ),
    );
    return all.sort((a, b) => a.date.localeCompare(b.date));
  };
  const linkIn = (mail: OutboxMail, page: 'confirm' | 'unsubscribe') => {
    const match = new RegExp(`${SITE.replace(/\./g, '\\.')}(?:/ar)?/newsletter/${page}\\?[^\\s]+`).exec(mail.text);
    if (!match) throw new Error(`no ${page} link in ${mail.subject}`);
    return new URL(match[0]);
  };
  const row = async (email: string) =>
    (await database.db.select().from(newsletterSignups).where(eq(newsletterSignups.emailKey, email)))[0];

  /** A sign-up as the form stores it, then its email sent (the form does both; tested in submissions.server.test.ts). */
  async function signUp(email: string, locale: 'en' | 'ar' = 'en') {
    const outcome = await database.db.transaction((tx) =>
      subscribe(tx, { id: randomUUID(), email, emailKey: email.toLowerCase(), locale, page: '/blog' }, now),
    );
    if (outcome.confirmIssuedAt !== null) {
      await sendConfirmation({ id: outcome.id, email, locale: outcome.locale }, outcome.confirmIssuedAt, deps);
    }
    return outcome;
  }

  it('a sign-up is pending, its emailed link confirms it once; the same link again says it is confirmed already', async () => {
    await signUp('ann@example.com', 'ar');
    expect(await row('ann@example.com')).toMatchObject({
      status: 'pending',
      locale: 'ar',
      consentVersion: NEWSLETTER_WORDING_VERSION,
      confirmedAt: null,
    });
    const [mail] = await mails();
    expect(mail!.to).toBe('ann@example.com');
    // The confirmation email is in the sign-up's language and is a list email (RFC 8058 headers).
    expect(mail!.subject).toMatch(/[\u0600-\u06ff]/);
    const link = linkIn(mail!, 'confirm');
    expect(link.pathname).toBe('/ar/newsletter/confirm');
    expect(mail!.headers).toMatchObject({
      'List-Unsubscribe': `<${linkIn(mail!, 'unsubscribe').href}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });

    now += DAY;
    expect(await confirmSignup(link.searchParams, deps)).toBe('confirmed');
    expect(await row('ann@example.com')).toMatchObject({
      status: 'confirmed',
      confirmedAt: new Date(now),
      expiresAt: null,
    });
    expect(await confirmSignup(link.searchParams, deps)).toBe('already');
    // A welcome email, with the same headers and an unsubscribe link.
    const welcome = (await mails())[1]!;
    expect(welcome.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(welcome.headers?.['List-Unsubscribe']).toMatch(
      /^<https:\/\/www\.example\.test\/ar\/newsletter\/unsubscribe\?s=/,
    );
    expect(await mails()).toHaveLength(2);
  });

  it('refuses an expired link and an altered one, and changes nothing', async () => {
    await signUp('bob@example.com');
    const link = linkIn((await mails())[0]!, 'confirm');
    for (const [name, value] of [
      ['t', link.searchParams.get('t')!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))],
      ['at', String(Number(link.searchParams.get('at')) + 1)],
      ['s', randomUUID()],
    ]) {
      const altered = new URLSearchParams(link.searchParams);
      altered.set(name!, value!);
      expect(await confirmSignup(altered, deps), name).toBe('invalid');
    }
    now += CONFIRM_LINK_MS + 1000;
    expect(await confirmSignup(link.searchParams, deps)).toBe('expired');
    expect((await row('bob@example.com'))!.status).toBe('pending');
  });

  it('sends a pending address its email again at most MAX_CONFIRM_MAILS times; a confirmed one gets nothing', async () => {
    for (let i = 0; i < MAX_CONFIRM_MAILS + 3; i++) {
      await signUp('cy@example.com');
      now += 60_000;
    }
    expect(await mails()).toHaveLength(MAX_CONFIRM_MAILS);
    // Every link of the request still works (the first is used here).
    expect(await confirmSignup(linkIn((await mails())[0]!, 'confirm').searchParams, deps)).toBe('confirmed');
    await signUp('cy@example.com');
    // The confirmation emails and one welcome: nothing for the sign-up of a confirmed address.
    expect(await mails()).toHaveLength(MAX_CONFIRM_MAILS + 1);
  });

  it('unsubscribes in one step from the link (no sign-in), sends nothing more, and the address can subscribe again', async () => {
    await signUp('dee@example.com');
    const first = (await mails())[0]!;
    await confirmSignup(linkIn(first, 'confirm').searchParams, deps);
    const unsubscribeLink = linkIn(first, 'unsubscribe');
    now += 1000;
    expect(await unsubscribe(database.db, unsubscribeLink.searchParams, now)).toBe('unsubscribed');
    expect(await unsubscribe(database.db, unsubscribeLink.searchParams, now)).toBe('already');
    const altered = new URLSearchParams(unsubscribeLink.searchParams);
    altered.set('t', 'x'.repeat(43));
    expect(await unsubscribe(database.db, altered, now)).toBe('invalid');
    expect(await row('dee@example.com')).toMatchObject({ status: 'unsubscribed', unsubscribedAt: new Date(now) });
    // The old confirmation link no longer subscribes anyone.
    expect(await confirmSignup(linkIn(first, 'confirm').searchParams, deps)).toBe('expired');

    now += 1000;
    await signUp('dee@example.com');
    expect((await row('dee@example.com'))!.status).toBe('pending');
    const again = (await mails()).at(-1)!;
    expect(await confirmSignup(linkIn(again, 'confirm').searchParams, deps)).toBe('confirmed');
  });

  it('the clean-up job deletes pending sign-ups whose link expired, and unsubscribed ones after 30 days; keeps the rest', async () => {
    await signUp('pending@example.com');
    await signUp('kept@example.com');
    const keptMail = (await mails()).find((m) => m.to === 'kept@example.com')!;
    await confirmSignup(linkIn(keptMail, 'confirm').searchParams, deps);
    await database.db.insert(newsletterSignups).values({
      id: randomUUID(),
      email: 'old@example.com',
      emailKey: 'old@example.com',
      locale: 'en',
      page: '/',
      submittedAt: new Date(T0 - 400 * DAY),
    });
    const subscribed = { subscribed: async () => false };
    await enforceRetention(database.db, new Date(now + CONFIRM_LINK_MS - 1000), subscribed);
    expect(await row('pending@example.com')).toBeDefined();
    await enforceRetention(database.db, new Date(now + CONFIRM_LINK_MS + 1000), subscribed);
    expect(await row('pending@example.com')).toBeUndefined();
    expect((await row('kept@example.com'))!.status).toBe('confirmed');
    // Stored before double opt-in: kept, unconfirmed.
    expect(await row('old@example.com')).toMatchObject({ status: 'pending', consentVersion: null, expiresAt: null });

    await unsubscribe(database.db, linkIn(keptMail, 'unsubscribe').searchParams, now);
    await enforceRetention(database.db, new Date(now + 29 * DAY), subscribed);
    expect(await row('kept@example.com')).toBeDefined();
    await enforceRetention(database.db, new Date(now + 31 * DAY), subscribed);
    expect(await row('kept@example.com')).toBeUndefined();
  });

  it('asks sign-ups stored before double opt-in to confirm, a bounded number a run, each once', async () => {
    for (let i = 0; i < 5; i++)
      await database.db.insert(newsletterSignups).values({
        id: randomUUID(),
        email: `old${i}@example.com`,
        emailKey: `old${i}@example.com`,
        locale: i % 2 ? 'ar' : 'en',
        page: '/',
        submittedAt: new Date(T0 - (10 - i) * DAY),
      });
    expect(await requestLegacyConfirmations(3, deps)).toEqual({ queued: 3, left: 2 });
    expect(await requestLegacyConfirmations(3, deps)).toEqual({ queued: 2, left: 0 });
    expect(await requestLegacyConfirmations(3, deps)).toEqual({ queued: 0, left: 0 });
    expect(await sendDueMail(20, { ...deps, log: () => {} })).toEqual({ sent: 5, failed: 0 });
    const sent = await mails();
    expect(sent).toHaveLength(5);
    const link = linkIn(
      sent.find((m) => m.to === 'old0@example.com')!,
      'confirm',
    );
    expect(await confirmSignup(link.searchParams, deps)).toBe('confirmed');
    expect(await row('old0@example.com')).toMatchObject({
      status: 'confirmed',
      consentVersion: NEWSLETTER_WORDING_VERSION,
      submittedAt: new Date(T0 - 10 * DAY),
    });
    // The others stay kept and unconfirmed.
    expect(await row('old1@example.com')).toMatchObject({ status: 'pending', expiresAt: null });
  });

  it('erasure removes the sign-up and its queued emails', async () => {
    await signUp('erase.me@example.com');
    expect(await database.db.select().from(mailQueue)).toHaveLength(1);
    const reports = await erasePerson('erase.me@example.com', {
      db: database.db,
      outboxDir: path.join(dir, 'outbox'),
      billingEngine: null,
      stripe: null,
    });
    expect(reports.find((r) => r.place === 'database: newsletter sign-up')?.removed).toBe(1);
    expect(await row('erase.me@example.com')).toBeUndefined();
    expect(await database.db.select().from(mailQueue)).toHaveLength(0);
    expect(await mails()).toHaveLength(0);
  });
});
