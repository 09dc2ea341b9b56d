import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createOutboxMailer, headerSafe } from './mailer.server';

let dir: string;
afterEach(async () => dir && rm(dir, { recursive: true, force: true }));

describe('outbox mailer', () => {
  it('writes an .eml and a .json file per message, creating the folder', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'outbox-'));
    const outbox = path.join(dir, 'nested', 'outbox');
    const mailer = createOutboxMailer(outbox, () => new Date('2025-03-01T10:00:00Z'));
    const sent = await mailer.send({ to: 'firm@example.com', from: 'Site <no-reply@example.com>', subject: 'New question from Ann', text: 'Question:\nمرحبا', replyTo: 'ann@example.com' });
    expect(sent.transport).toBe('outbox');
    const files = (await readdir(outbox)).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^2025-03-01T10-00-00-000Z-[0-9a-f]{8}\.eml$/);
    expect(files[1]).toMatch(/\.json$/);
    const eml = await readFile(path.join(outbox, files[0]!), 'utf8');
    expect(eml).toMatch(/^To: firm@example\.com$/m);
    expect(eml).toMatch(/^Reply-To: ann@example\.com$/m);
    expect(eml).toMatch(/^Subject: New question from Ann$/m);
    expect(eml).toMatch(/^Date: Sat, 01 Mar 2025 10:00:00 \+0000$/m);
    const json = JSON.parse(await readFile(path.join(outbox, files[1]!), 'utf8'));
    expect(json).toMatchObject({ to: 'firm@example.com', subject: 'New question from Ann', text: 'Question:\nمرحبا', date: '2025-03-01T10:00:00.000Z' });
  });

  it('keeps header injection out of the subject', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'outbox-'));
    const mailer = createOutboxMailer(dir);
    await mailer.send({ to: 'a@example.com', from: 'b@example.com', subject: 'Hi\r\nBcc: evil@example.com', text: 'x' });
    const eml = await readFile(path.join(dir, (await readdir(dir)).find((f) => f.endsWith('.eml'))!), 'utf8');
    expect(eml).not.toMatch(/^Bcc:/m);
    expect(eml).toMatch(/^Subject: Hi Bcc: evil@example\.com$/m);
  });

  it('headerSafe makes one trimmed line and caps its length', () => {
    expect(headerSafe('  a\n\tb  ')).toBe('a b');
    expect(headerSafe('x'.repeat(300), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});
