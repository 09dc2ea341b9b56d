import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { env } from './env.server';

/**
 * How the firm is told about a new submission. Two adapters behind one interface:
 * - SMTP through nodemailer when SMTP_URL is set (hosted world);
 * - otherwise an outbox folder (OUTBOX_DIR, default {CONTENT_DATA_DIR}/outbox): each
 *   message as a complete RFC 822 `.eml` file (open it in any mail program) beside a
 *   `.json` file with the same fields, written atomically (temp file, then rename).
 * A failed send rejects; callers log it and never fail the visitor's request for it.
 */
export interface MailMessage {
  to: string;
  from: string;
  subject: string;
  text: string;
  replyTo?: string;
}

export interface SentMail {
  transport: 'smtp' | 'outbox';
  messageId: string;
  /** The .eml file (outbox only). */
  file?: string;
}

export interface Mailer {
  readonly transport: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<SentMail>;
}

/** One line, no control characters: what may go into a header such as the subject. */
export function headerSafe(value: string, max = 200): string {
  // eslint-disable-next-line no-control-regex
  const line = value.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function createSmtpMailer(smtpUrl: string): Mailer {
  const transporter = nodemailer.createTransport(smtpUrl);
  return {
    transport: 'smtp',
    async send(message) {
      const info = await transporter.sendMail({ ...message, subject: headerSafe(message.subject) });
      return { transport: 'smtp', messageId: String(info.messageId) };
    },
  };
}

export function createOutboxMailer(outboxDir: string, now: () => Date = () => new Date()): Mailer {
  const dir = path.resolve(outboxDir);
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    transport: 'outbox',
    async send(message) {
      const date = now();
      const subject = headerSafe(message.subject);
      const info = await composer.sendMail({ ...message, subject, date });
      const base = `${date.toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`;
      await mkdir(dir, { recursive: true });
      const write = async (file: string, content: string | Buffer) => {
        const tmp = path.join(dir, `.${file}.tmp`);
        await writeFile(tmp, content);
        await rename(tmp, path.join(dir, file));
      };
      await write(`${base}.json`, JSON.stringify({ ...message, subject, date: date.toISOString(), messageId: info.messageId }, null, 2) + '\n');
      await write(`${base}.eml`, info.message as Buffer);
      return { transport: 'outbox', messageId: String(info.messageId), file: path.join(dir, `${base}.eml`) };
    },
  };
}

declare global {
  var __mailer: Mailer | undefined;
}

/** The app's mailer, chosen once from the environment. */
export function mailer(): Mailer {
  if (!globalThis.__mailer) {
    const { mail } = env();
    globalThis.__mailer = mail.smtpUrl ? createSmtpMailer(mail.smtpUrl) : createOutboxMailer(mail.outboxDir);
    console.log(`[mail] ${mail.smtpUrl ? `SMTP (${new URL(mail.smtpUrl).host})` : `outbox folder ${mail.outboxDir}/`}`);
  }
  return globalThis.__mailer;
}
