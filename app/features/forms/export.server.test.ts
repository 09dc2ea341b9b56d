import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { faqQuestions, newsletterSignups } from '~/db/schema.server';
import { openTestDatabase, testDatabaseKinds } from '~/db/test-support';
import type { Database } from '~/db/types.server';
import { csvCell, csvHeader, csvLine, listSubmissions, textBlock, type SubmissionRow } from './export.server';

const at = (day: number, hour = 9) => new Date(Date.UTC(2026, 10, day, hour));

describe.each(testDatabaseKinds())('listing submissions (%s)', (kind) => {
  let database: Database;
  beforeEach(async () => {
    database = await openTestDatabase(kind);
    // Five questions, three at the same moment (the order is then by id), two confirmed sign-ups,
    // one never confirmed, one unsubscribed and one stored before double opt-in.
    const same = at(10);
    await database.db.insert(faqQuestions).values(
      [at(1), same, same, same, at(20)].map((submittedAt, i) => ({
        id: randomUUID(),
        name: `Person ${i}`,
        email: `p${i}@example.com`,
        phone: '+971 50 123 4567',
        question: `Question ${i}`,
        locale: i % 2 ? 'ar' : 'en',
        page: i % 2 ? '/ar/faq' : '/faq',
        submittedAt,
      })),
    );
    await database.db.insert(newsletterSignups).values([
      {
        id: randomUUID(),
        email: 'A@Example.com',
        emailKey: 'a@example.com',
        locale: 'en',
        page: '/',
        submittedAt: at(2),
        status: 'confirmed',
        consentVersion: '2026-11-29',
        confirmedAt: at(2, 10),
      },
      {
        id: randomUUID(),
        email: 'b@example.com',
        emailKey: 'b@example.com',
        locale: 'ar',
        page: '/ar',
        submittedAt: at(25),
        status: 'confirmed',
        consentVersion: '2026-11-29',
        confirmedAt: at(25, 11),
      },
      {
        id: randomUUID(),
        email: 'never@example.com',
        emailKey: 'never@example.com',
        locale: 'en',
        page: '/',
        submittedAt: at(3),
        status: 'pending',
        consentVersion: '2026-11-29',
        pendingSince: at(3),
        expiresAt: at(10),
      },
      {
        id: randomUUID(),
        email: 'left@example.com',
        emailKey: 'left@example.com',
        locale: 'en',
        page: '/',
        submittedAt: at(4),
        status: 'unsubscribed',
        consentVersion: '2026-11-29',
        confirmedAt: at(4, 10),
        unsubscribedAt: at(5),
      },
      {
        id: randomUUID(),
        email: 'old@example.com',
        emailKey: 'old@example.com',
        locale: 'en',
        page: '/',
        submittedAt: at(1),
      },
    ]);
  });
  afterEach(() => database.close());

  const all = async (options: Parameters<typeof listSubmissions>[1]) => {
    const rows: SubmissionRow[] = [];
    for await (const row of listSubmissions(database.db, options)) rows.push(row);
    return rows;
  };

  it('lists a period, oldest first, a page at a time, each row once', async () => {
    const rows = await all({ since: at(1), kinds: ['faq', 'newsletter'], pageSize: 2 });
    expect(rows.map((r) => r.kind)).toEqual(['faq', 'faq', 'faq', 'faq', 'faq', 'newsletter', 'newsletter']);
    expect(new Set(rows.map((r) => r.id)).size).toBe(7);
    const faq = rows.filter((r) => r.kind === 'faq');
    expect(faq.map((r) => r.submittedAt.getTime())).toEqual([...faq.map((r) => r.submittedAt.getTime())].sort());
    const sameMoment = faq.slice(1, 4).map((r) => r.id);
    expect(sameMoment).toEqual([...sameMoment].sort());
    expect(rows.find((r) => r.kind === 'newsletter')).toMatchObject({
      email: 'A@Example.com',
      name: '',
      question: '',
      locale: 'en',
      submittedAt: at(2),
      confirmedAt: at(2, 10),
      wordingVersion: '2026-11-29',
    });
  });

  it('never exports a newsletter sign-up that is not confirmed (pending, unsubscribed, or stored before double opt-in)', async () => {
    const emails = (await all({ since: at(1), kinds: ['newsletter'] })).map((r) => r.email);
    expect(emails).toEqual(['A@Example.com', 'b@example.com']);
  });

  it('takes --since (inclusive), --until (exclusive) and one kind', async () => {
    expect((await all({ since: at(10), kinds: ['faq'] })).map((r) => r.name)).toEqual([
      expect.stringMatching(/^Person [123]$/),
      expect.stringMatching(/^Person [123]$/),
      expect.stringMatching(/^Person [123]$/),
      'Person 4',
    ]);
    expect(await all({ since: at(10), until: at(20), kinds: ['faq'] })).toHaveLength(3);
    expect((await all({ since: at(2), until: at(26), kinds: ['newsletter'] })).map((r) => r.email)).toEqual([
      'A@Example.com',
      'b@example.com',
    ]);
    expect(await all({ since: at(26), kinds: ['faq', 'newsletter'] })).toEqual([]);
  });
});

describe('formats', () => {
  const row: SubmissionRow = {
    kind: 'faq',
    id: '0b5a3d5e-8a39-4e6f-9b61-2c1a8f0e4d11',
    submittedAt: new Date('2026-11-20T09:00:04.000Z'),
    name: 'Haddad, Layla',
    email: 'layla@example.ae',
    phone: '+971 50 123 4567',
    locale: 'ar',
    page: '/ar/faq',
    question: 'She said "soon".\nSecond line',
    confirmedAt: null,
    wordingVersion: '',
  };

  it('writes CSV by RFC 4180, and never a cell a spreadsheet would run as a formula', () => {
    expect(csvHeader()).toBe(
      'kind,submitted_at,name,email,phone,locale,page,question,id,confirmed_at,wording_version\r\n',
    );
    expect(csvLine(row)).toBe(
      'faq,2026-11-20T09:00:04.000Z,"Haddad, Layla",layla@example.ae,\'+971 50 123 4567,ar,/ar/faq,' +
        '"She said ""soon"".\nSecond line",0b5a3d5e-8a39-4e6f-9b61-2c1a8f0e4d11,,\r\n',
    );
    for (const formula of ['=HYPERLINK("http://x")', '+1', '-2+3', '@SUM(A1)', '\tx'])
      expect(csvCell(formula).replace(/^"/, '')).toMatch(/^'/);
    expect(csvCell('plain')).toBe('plain');
  });

  it('writes readable text: one line a submission, the question indented', () => {
    expect(textBlock(row)).toBe(
      '2026-11-20 09:00 UTC  FAQ         Haddad, Layla <layla@example.ae> +971 50 123 4567  (ar, /ar/faq)\n' +
        '    She said "soon".\n    Second line\n\n',
    );
    expect(
      textBlock({
        ...row,
        kind: 'newsletter',
        name: '',
        phone: '',
        question: '',
        confirmedAt: new Date('2026-11-20T09:30:00Z'),
        wordingVersion: '2026-11-29',
      }),
    ).toBe(
      '2026-11-20 09:00 UTC  newsletter  layla@example.ae (confirmed 2026-11-20 09:30 UTC, wording 2026-11-29)  (ar, /ar/faq)\n',
    );
  });
});
