import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consentRecords } from '~/db/schema.server';
import { openTestDatabase, testDatabaseKinds } from '~/db/test-support';
import type { Database } from '~/db/types.server';
import { enforceRetention, RETENTION_DAYS } from '~/portal/retention.server';
import { RETENTION_TABLE } from '~/portal/retention-policy.server';
import { CONSENT_VERSION, parseConsentValue } from './consent';
import { recordConsent } from './consent.server';
import { COOKIES, cookieEntryOf } from './cookie-list.server';

const DAY = 24 * 60 * 60 * 1000;
const valueOf = (setCookie: string) => parseConsentValue(/^cookie_consent=([^;]*)/.exec(setCookie)?.[1]);

describe.each(testDatabaseKinds())('cookie choices recorded on %s', (kind) => {
  let database: Database;
  beforeEach(async () => {
    database = await openTestDatabase(kind);
  }, 60_000);
  afterEach(() => database.close(), 60_000);

  it('records each choice under one random id, marks a withdrawal, honours GPC, and keeps no IP', async () => {
    const { db } = database;
    const first = await recordConsent(db, {
      cookies: null,
      action: 'all',
      choice: { analytics: true, marketing: true },
      gpc: false,
      via: 'script',
      locale: 'en',
    });
    expect(first.setCookie).toMatch(/; Max-Age=\d+; Path=\/; SameSite=Lax$/);
    const stored = valueOf(first.setCookie)!;
    expect(stored).toMatchObject({ version: CONSENT_VERSION, analytics: true, marketing: true });

    const second = await recordConsent(db, {
      cookies: `lng=ar; ${first.setCookie.split(';')[0]}`,
      action: 'none',
      choice: { analytics: false, marketing: false },
      gpc: false,
      via: 'form',
      locale: 'ar',
    });
    expect(valueOf(second.setCookie)).toMatchObject({ id: stored.id, analytics: false, marketing: false });

    const third = await recordConsent(db, {
      cookies: second.setCookie.split(';')[0]!,
      action: 'all',
      choice: { analytics: true, marketing: true },
      gpc: true,
      via: 'script',
      locale: 'en',
    });
    expect(valueOf(third.setCookie)).toMatchObject({ analytics: true, marketing: false });

    const rows = await db.select().from(consentRecords).orderBy(consentRecords.recordedAt);
    expect(
      rows.map((r) => [r.subject, r.action, r.analytics, r.marketing, r.withdrawal, r.gpc, r.via, r.locale]),
    ).toEqual([
      [stored.id, 'accept_all', true, true, false, false, 'script', 'en'],
      [stored.id, 'reject_all', false, false, true, false, 'form', 'ar'],
      [stored.id, 'accept_all', true, false, false, true, 'script', 'en'],
    ]);
    expect(Object.keys(rows[0]!).sort()).toEqual(
      [
        'action',
        'analytics',
        'gpc',
        'id',
        'locale',
        'marketing',
        'recordedAt',
        'subject',
        'version',
        'via',
        'withdrawal',
      ].sort(),
    );
  });

  it('the clean-up job removes choices past their retention and keeps the others', { timeout: 60_000 }, async () => {
    const { db } = database;
    const now = new Date('2027-03-01T12:00:00Z');
    const at = (days: number) => new Date(now.getTime() - days * DAY);
    for (const [subject, days] of [
      ['old', RETENTION_DAYS.consentRecords + 1],
      ['kept', RETENTION_DAYS.consentRecords - 1],
    ] as const)
      await recordConsent(db, {
        cookies: `cookie_consent=${CONSENT_VERSION}.00.${subject.padEnd(16, 'x')}`,
        action: 'none',
        choice: { analytics: false, marketing: false },
        gpc: false,
        via: 'form',
        locale: 'en',
        now: at(days),
      });
    const removed = await enforceRetention(db, now, { subscribed: async () => false });
    expect(removed[`cookie choices (${RETENTION_DAYS.consentRecords} days)`]).toBe(1);
    expect((await db.select().from(consentRecords)).map((r) => r.subject)).toEqual(['keptxxxxxxxxxxxx']);
  });
});

describe('the lists the policies show', () => {
  it('every retention rule with a number is in the privacy policy table', () => {
    for (const key of Object.keys(RETENTION_DAYS)) expect(RETENTION_TABLE.map((r) => r.key)).toContain(key);
    const row = RETENTION_TABLE.find((r) => r.key === 'consentRecords')!;
    expect(row.period.en).toContain(String(RETENTION_DAYS.consentRecords.toLocaleString('en-US')));
    expect(row.period.ar).toContain(RETENTION_DAYS.consentRecords.toLocaleString('en-US'));
  });
  it('the cookie list names patterns and exact names, in both languages', () => {
    expect(cookieEntryOf('_ga_ABC123')?.category).toBe('analytics');
    expect(cookieEntryOf('cookie_consent')?.category).toBe('necessary');
    expect(cookieEntryOf('__Host-client')).toBeDefined();
    expect(cookieEntryOf('_fbp')).toBeUndefined();
    for (const entry of COOKIES) for (const text of [entry.purpose, entry.lifetime]) expect(text.ar).not.toBe(text.en);
  });
});
