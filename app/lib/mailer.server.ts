import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { env } from './env.server';
import { log as logger } from '~/lib/log.server';

/**
 * How the firm is told about a new submission. Two adapters behind one interface:
 * - SMTP through nodemailer when SMTP_URL is set (hosted world);
 * - otherwise an outbox folder (OUTBOX_DIR, default {CONTENT_DATA_DIR}/outbox): each
 *   message as a complete RFC 822 `.eml` file (open it in any mail program) beside a
 *   `.json` file with the same fields, written atomically (temp file, then rename).
 * A message may carry an HTML body beside its text (sent as multipart/alternative) and its own
 * Message-ID, so a retried send is recognisably the same message (mail systems drop the
 * duplicate; the outbox names its files after that id, so a retry rewrites the same files).
 * A failed send rejects; callers log it and never fail the visitor's request for it.
 */
export interface MailMessage {
  to: string;
  from: string;
  subject: string;
  text: string;
  /** An HTML alternative to `text`, with the same content. */
  html?: string;
  replyTo?: string;
  /** The Message-ID to send with, `<unique@host>`; nodemailer makes one when absent. */
  messageId?: string;
  /** Extra headers (a newsletter's List-Unsubscribe and List-Unsubscribe-Post): checked, one line each. */
  headers?: Record<string, string>;
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

/** A caller's Message-ID, checked: one `<local@domain>` token with no spaces or control characters. */
function checkedMessageId(messageId: string | undefined): string | undefined {
  if (messageId === undefined) return undefined;
  if (!/^<[^<>\s@]+@[^<>\s@]+>$/.test(messageId))
    throw new Error(`mail: not a Message-ID: ${JSON.stringify(messageId.slice(0, 100))}`);
  return messageId;
}

/** One line, no control characters: what may go into a header such as the subject. */
export function headerSafe(value: string, max = 200): string {
  const line = value
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A caller's extra headers, checked: a plain header name, and a value of one line (no header can be smuggled in). */
function checkedHeaders(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!headers) return undefined;
  for (const [name, value] of Object.entries(headers)) {
    // eslint-disable-next-line no-control-regex
    if (!/^[A-Za-z][A-Za-z0-9-]{0,60}$/.test(name) || /[\u0000-\u001f\u007f]/.test(value) || value.length > 2000)
      throw new Error(`mail: not a header: ${JSON.stringify(name.slice(0, 60))}`);
  }
  return headers;
}

export function createSmtpMailer(smtpUrl: string): Mailer {
  // Bounded: nodemailer's defaults wait minutes for a silent server, longer than the claim a
  // sign-in email's own request holds on it (mail-queue.server.ts, SELF_CLAIM_LEASE_MS).
  const transporter = nodemailer.createTransport(smtpUrl, {
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
  return {
    transport: 'smtp',
    async send(message) {
      const info = await transporter.sendMail({
        ...message,
        subject: headerSafe(message.subject),
        messageId: checkedMessageId(message.messageId),
        headers: checkedHeaders(message.headers),
      });
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
      const messageId = checkedMessageId(message.messageId);
      const headers = checkedHeaders(message.headers);
      const info = await composer.sendMail({ ...message, subject, date, messageId, headers });
      // A given Message-ID names the files, so sending the same message again replaces them.
      const base = messageId
        ? `message-${createHash('sha256').update(messageId).digest('hex').slice(0, 24)}`
        : `${date.toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`;
      await mkdir(dir, { recursive: true });
      const write = async (file: string, content: string | Buffer) => {
        const tmp = path.join(dir, `.${file}.tmp`);
        await writeFile(tmp, content);
        await rename(tmp, path.join(dir, file));
      };
      await write(
        `${base}.json`,
        JSON.stringify({ ...message, subject, date: date.toISOString(), messageId: info.messageId }, null, 2) + '\n',
      );
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
    logger.info(`[mail] ${mail.smtpUrl ? `SMTP (${new URL(mail.smtpUrl).host})` : `outbox folder ${mail.outboxDir}/`}`);
  }
  return globalThis.__mailer;
}
