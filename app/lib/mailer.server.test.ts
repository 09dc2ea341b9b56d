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
    const sent = await mailer.send({
      to: 'firm@example.com',
      from: 'Site <no-reply@example.com>',
      subject: 'New question from Ann',
      text: 'Question:\nمرحبا',
      replyTo: 'ann@example.com',
    });
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
    expect(json).toMatchObject({
      to: 'firm@example.com',
      subject: 'New question from Ann',
      text: 'Question:\nمرحبا',
      date: '2025-03-01T10:00:00.000Z',
    });
  });

  it('keeps header injection out of the subject', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'outbox-'));
    const mailer = createOutboxMailer(dir);
    await mailer.send({
      to: 'a@example.com',
      from: 'b@example.com',
      subject: 'Hi\r\nBcc: evil@example.com',
      text: 'x',
    });
    const eml = await readFile(
      path.join(
        dir,
        (await readdir(dir)).find((f) => f.endsWith('.eml'))!,
      ),
      'utf8',
    );
    expect(eml).not.toMatch(/^Bcc:/m);
    expect(eml).toMatch(/^Subject: Hi Bcc: evil@example\.com$/m);
  });

  it("sends text and HTML as multipart/alternative with the caller's Message-ID; a retry rewrites the same files", async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'outbox-'));
    let now = new Date('2026-03-01T10:00:00Z');
    const mailer = createOutboxMailer(dir, () => now);
    const message = {
      to: 'layla@example.com',
      from: 'Bawaba Advisory <no-reply@example.com>',
      subject: 'تم إلغاء اشتراكك',
      text: 'مرحباً ليلى،\nتم إلغاء اشتراكك.',
      html: '<!DOCTYPE html><html lang="ar" dir="rtl"><body><p>مرحباً ليلى،</p></body></html>',
      messageId: '<portal.mail.abc123@www.bawaba-advisory.com>',
    };
    const sent = await mailer.send(message);
    expect(sent.messageId).toBe('<portal.mail.abc123@www.bawaba-advisory.com>');
    const eml = (await readFile(sent.file!, 'utf8')).replace(/\r\n/g, '\n');
    expect(eml).toMatch(/^Message-ID: <portal\.mail\.abc123@www\.bawaba-advisory\.com>$/m);
    expect(eml).toMatch(/^Content-Type: multipart\/alternative;/m);
    const parts = eml.split(/^--[^\n]+$/m);
    const plain = parts.find((p) => /^Content-Type: text\/plain; charset=utf-8$/m.test(p));
    const html = parts.find((p) => /^Content-Type: text\/html; charset=utf-8$/m.test(p));
    expect(plain).toBeTruthy();
    expect(html).toBeTruthy();
    // Plain text comes first: clients show the last alternative they can render.
    expect(eml.indexOf('text/plain')).toBeLessThan(eml.indexOf('text/html'));
    const decode = (part: string) => {
      const body = part.split(/\n\n/).slice(1).join('\n\n').trim();
      if (/base64/.test(part)) return Buffer.from(body.replace(/\s/g, ''), 'base64').toString('utf8');
      if (/quoted-printable/.test(part))
        return Buffer.from(
          body.replace(/=\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ).toString('utf8');
      return body;
    };
    expect(decode(plain!)).toContain('تم إلغاء اشتراكك.');
    expect(decode(html!)).toContain('<html lang="ar" dir="rtl">');
    const json = JSON.parse(await readFile(sent.file!.replace(/\.eml$/, '.json'), 'utf8'));
    expect(json).toMatchObject({ html: message.html, messageId: message.messageId });
    // The same message sent again (a retry after a crash) replaces its files instead of adding a copy.
    now = new Date('2026-03-01T10:20:00Z');
    const again = await mailer.send(message);
    expect(again.file).toBe(sent.file);
    expect((await readdir(dir)).filter((f) => !f.startsWith('.')).sort()).toHaveLength(2);
    // Without a Message-ID, nodemailer makes a fresh one per message and the files are separate.
    const other = await mailer.send({ ...message, messageId: undefined });
    expect(other.messageId).not.toBe(message.messageId);
    expect(await readdir(dir)).toHaveLength(4);
  });

  it('refuses a Message-ID that is not one <local@domain> token', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'outbox-'));
    const mailer = createOutboxMailer(dir);
    await expect(
      mailer.send({
        to: 'a@example.com',
        from: 'b@example.com',
        subject: 's',
        text: 't',
        messageId: '<x@y>\r\nBcc: evil@example.com',
      }),
    ).rejects.toThrow(/Message-ID/);
    expect(await readdir(dir)).toHaveLength(0);
  });

  it('headerSafe makes one trimmed line and caps its length', () => {
    expect(headerSafe('  a\n\tb  ')).toBe('a b');
    expect(headerSafe('x'.repeat(300), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});

describe('extra headers (a newsletter email’s List-Unsubscribe)', () => {
  it('writes them into the message and refuses one that would smuggle in another header', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'outbox-headers-'));
    try {
      const mailer = createOutboxMailer(dir);
      const base = { to: 'a@example.com', from: 'Firm <f@example.com>', subject: 'Hi', text: 'Hello' };
      const sent = await mailer.send({
        ...base,
        headers: {
          'List-Unsubscribe': '<https://www.example.test/newsletter/unsubscribe?s=x&t=y>',
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      });
      const eml = await readFile(sent.file!, 'utf8');
      expect(eml).toMatch(/^List-Unsubscribe: <https:\/\/www\.example\.test\/newsletter\/unsubscribe\?s=x&t=y>$/m);
      expect(eml).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
      await expect(
        mailer.send({ ...base, headers: { 'List-Unsubscribe': '<https://x>\r\nBcc: evil@example.com' } }),
      ).rejects.toThrow(/not a header/);
      await expect(mailer.send({ ...base, headers: { 'Bad Name:': 'x' } })).rejects.toThrow(/not a header/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('SMTP mailer', () => {
  it('delivers through a real SMTP server, with Arabic text intact', async () => {
    const { SMTPServer } = await import('smtp-server');
    const received: { from?: string; to: string[]; data: string }[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as { port: number }).port;
    try {
      const { createSmtpMailer } = await import('./mailer.server');
      const mailer = createSmtpMailer(`smtp://127.0.0.1:${port}?ignoreTLS=true`);
      const sent = await mailer.send({
        to: 'firm@example.com',
        from: 'no-reply@example.com',
        subject: 'سؤال جديد',
        text: 'مرحبا، لدي سؤال عن الرخصة.',
      });
      expect(sent.transport).toBe('smtp');
      expect(received).toHaveLength(1);
      expect(received[0].to).toEqual(['firm@example.com']);
      expect(received[0].from).toBe('no-reply@example.com');
      const body = received[0].data;
      // Non-ASCII headers and bodies are encoded; decode what nodemailer sent.
      expect(body).toMatch(/^Subject: =\?UTF-8\?/m);
      const b64 = /\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)$/.exec(body.trim())?.[1];
      const qp = body.includes('quoted-printable');
      const text = qp
        ? decodeURIComponent(
            body
              .split(/\r?\n\r?\n/)
              .slice(1)
              .join('\n')
              .replace(/=\r?\n/g, '')
              .replace(/=([0-9A-F]{2})/g, '%$1'),
          )
        : Buffer.from((b64 ?? '').replace(/\s/g, ''), 'base64').toString('utf8');
      expect(text).toContain('مرحبا، لدي سؤال عن الرخصة.');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('delivers the HTML alternative and the given Message-ID over SMTP', async () => {
    const { SMTPServer } = await import('smtp-server');
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as { port: number }).port;
    try {
      const { createSmtpMailer } = await import('./mailer.server');
      const mailer = createSmtpMailer(`smtp://127.0.0.1:${port}?ignoreTLS=true`);
      const sent = await mailer.send({
        to: 'layla@example.com',
        from: 'no-reply@example.com',
        subject: 'Hello',
        text: 'Plain body',
        html: '<p>HTML body</p>',
        messageId: '<portal.mail.def456@example.com>',
      });
      expect(sent.messageId).toBe('<portal.mail.def456@example.com>');
      expect(received).toHaveLength(1);
      expect(received[0]).toMatch(/^Message-ID: <portal\.mail\.def456@example\.com>\r?$/m);
      expect(received[0]).toMatch(/^Content-Type: multipart\/alternative;/m);
      expect(received[0]).toMatch(/^Content-Type: text\/plain/m);
      expect(received[0]).toMatch(/^Content-Type: text\/html/m);
      expect(received[0]).toContain('<p>HTML body</p>');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('a server that refuses the message is reported as a failure to the caller', async () => {
    const { SMTPServer } = await import('smtp-server');
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(_address, _session, callback) {
        callback(new Error('Mailbox unavailable'));
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as { port: number }).port;
    try {
      const { createSmtpMailer } = await import('./mailer.server');
      const mailer = createSmtpMailer(`smtp://127.0.0.1:${port}?ignoreTLS=true`);
      await expect(
        mailer.send({ to: 'firm@example.com', from: 'no-reply@example.com', subject: 'x', text: 'y' }),
      ).rejects.toThrow();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
