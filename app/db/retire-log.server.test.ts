import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from './client.server';
import { withoutMovedRecords } from './retire-log.server';
import { faqQuestions, newsletterSignups } from './schema.server';

/**
 * A data folder the previous version wrote (fixtures/main-data: FAQ questions, a newsletter
 * sign-up, a portal account, rate-limit windows and form tokens in its write log): after the
 * first start of this version, the database holds them and the log does not.
 */
const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'main-data');
const LOG = 'content-writes.ndjson';
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'retire-log-'));
  cpSync(FIXTURE, dir, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const addresses = (text: string) => [...new Set(text.match(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g) ?? [])];

describe('the write log after the import', () => {
  it('holds none of the moved records once they are in the database; content lines stay; a second start changes nothing', async () => {
    const before = readFileSync(path.join(dir, LOG), 'utf8');
    expect(addresses(before).length).toBeGreaterThan(0);
    // A content write of the previous version, in the same log: it must survive, byte for byte.
    const contentLine = JSON.stringify({
      _tx: 'content-1',
      docs: [{ _id: 'drafts.post-1', _type: 'post', title: { en: 'Kept' } }],
      deleted: [],
    });
    // The fixture ends in a torn line (a crash mid-write, never acknowledged): it goes too.
    const whole = before.slice(0, before.lastIndexOf('\n') + 1);
    writeFileSync(
      path.join(dir, LOG),
      whole + contentLine + '\n' + '{"_tx":"torn","docs":[{"_id":"x","email":"torn@example.com"',
    );

    const database = await openDatabase({ kind: 'pglite', dataDir: dir });
    try {
      expect((await database.db.select().from(faqQuestions)).length).toBe(2);
      expect((await database.db.select().from(newsletterSignups)).length).toBe(2);
    } finally {
      await database.close();
    }
    const after = readFileSync(path.join(dir, LOG), 'utf8');
    expect(addresses(after)).toEqual([]);
    expect(after).not.toMatch(/"_id":"(submission|form\.token|portal)\./);
    expect(after).toBe(contentLine + '\n');

    const again = await openDatabase({ kind: 'pglite', dataDir: dir });
    await again.close();
    expect(readFileSync(path.join(dir, LOG), 'utf8')).toBe(after);
  });
});

describe('withoutMovedRecords', () => {
  it('drops moved documents and deletions from a mixed line and keeps its content; a torn last line goes', () => {
    const mixed = JSON.stringify({
      _tx: 't1',
      docs: [
        { _id: 'portal.account.cus_1', _type: 'portal.account', email: 'a@example.com' },
        { _id: 'faq-1', _type: 'faq' },
      ],
      deleted: ['submission.faqQuestion.x', 'post-2'],
    });
    const single = JSON.stringify({ _id: 'portal.mail.abc', _type: 'portal.mail', to: 'b@example.com' });
    const { kept, removed } = withoutMovedRecords(`${mixed}\n${single}\n{"_tx":"torn`);
    expect(removed).toBe(4);
    expect(kept).toBe(
      `${JSON.stringify({ _tx: 't1', docs: [{ _id: 'faq-1', _type: 'faq' }], deleted: ['post-2'] })}\n`,
    );
  });
});
