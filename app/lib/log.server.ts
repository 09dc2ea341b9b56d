import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * The server's one logger (pino): one JSON line per request and per event, on standard output
 * (standard error in a command, and in development, where the lines are written for a person).
 * No line may carry a person's email address, name, sign-in code, token, cookie or IP address in
 * clear (issue 44): `scrub` runs over every line's fields and message before it is written,
 * whoever logged it. Fields are named for what they hold (`customerId`, `invoiceId`, `jobId`):
 * ids are not personal, and are what an operator searches for.
 *
 * LOG_LEVEL sets the level (default info; `silent` in unit tests). In development
 * (NODE_ENV=development) the lines are written for a person to read instead (`readable`).
 */

/** Field names whose values never reach a line (any depth, any case). */
const SECRET_KEYS =
  /^(email|to|from|replyto|name|fullname|firstname|lastname|company|phone|code|token|secret|password|cookie|cookies|set-cookie|authorization|ip|clientip|remoteaddress|x-forwarded-for|x-bawaba-client-ip|address|body|message_body|params|headers)$/i;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const IPV4 = /\b(?:\d{1,3}\.){3}\d{1,3}\b/g;
// A full IPv6 address or a compressed one with at least two groups (not a time like 12:30).
const IPV6 = /\b(?:[0-9a-f]{1,4}:){2,7}(?::?[0-9a-f]{1,4}){1,7}\b|\b(?:[0-9a-f]{1,4}:)+:(?:[0-9a-f]{1,4})?\b/gi;
// Query strings carry codes and tokens (`?code=…`, `?token=…`): never logged.
const QUERY = /\?[^\s"']*/g;
// A six-digit sign-in code, or a long opaque token (cookies, session ids, secrets).
// Not an id's digits (`INV-000123`) or a process id (`pid 123456`), not a UUID (request and record ids stay searchable),
// not an image asset's name (the SHA-1 of its bytes and its size, `<40 hex>-3200x2000`: public, in every page).
const CODE = /(?<![\w-]|pid )\d{6}(?![\w-])/g;
const TOKEN =
  /(?<![\w-])(?![0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![\w-]))(?![0-9a-f]{40}-\d+x\d+(?![\w-]))[A-Za-z0-9_-]{32,}/g;
const REDACTED = '[redacted]';
// This machine's own addresses (the server says where it listens): no one's personal data.
const LOOPBACK = new Set(['127.0.0.1', '0.0.0.0', '::1', '::']);

/** A string as it may be logged: addresses, codes, tokens and query strings replaced. */
export function scrubText(text: string): string {
  return text
    .replace(EMAIL, '[email]')
    .replace(QUERY, '?[query]')
    .replace(IPV4, (ip) => (LOOPBACK.has(ip) ? ip : '[ip]'))
    .replace(IPV6, (ip) => (LOOPBACK.has(ip) ? ip : '[ip]'))
    .replace(TOKEN, '[token]')
    .replace(CODE, '[code]');
}

/** A value as it may be logged (objects and arrays walked, secret-named fields dropped). */
export function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 6) return '[deep]';
  if (value instanceof Error) return { type: value.name, message: scrubText(value.message) };
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = SECRET_KEYS.test(key) ? REDACTED : scrub(item, depth + 1);
  return out;
}

/** Development: `12:30:01 INFO  message key=value`, one line each, for a person to read. */
function readable(): DestinationStream {
  const names: Record<number, string> = {
    10: 'TRACE',
    20: 'DEBUG',
    30: 'INFO ',
    40: 'WARN ',
    50: 'ERROR',
    60: 'FATAL',
  };
  return {
    write(line: string) {
      try {
        const { time, level, msg, pid: _pid, hostname: _host, ...rest } = JSON.parse(line) as Record<string, unknown>;
        const extra = Object.entries(rest)
          .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
          .join(' ');
        const at = new Date(Number(time)).toISOString().slice(11, 19);
        process.stderr.write(`${at} ${names[Number(level)] ?? level} ${msg ?? ''}${extra ? ` ${extra}` : ''}\n`);
      } catch {
        process.stderr.write(line);
      }
    },
  };
}

function defaultLevel(): string {
  if (process.env.LOG_LEVEL) return process.env.LOG_LEVEL;
  return process.env.VITEST ? 'silent' : 'info';
}

function create(): Logger {
  return pino(
    {
      level: defaultLevel(),
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        // Every line's fields, whoever logged them, pass the scrub.
        log: (object) => scrub(object) as Record<string, unknown>,
      },
      hooks: {
        // The message too (and any printf-style arguments).
        logMethod(args, method) {
          const scrubbed = args.map((arg) => (typeof arg === 'string' ? scrubText(arg) : arg)) as Parameters<
            typeof method
          >;
          return method.apply(this, scrubbed);
        },
      },
    },
    process.env.NODE_ENV === 'development'
      ? readable()
      : // The server's lines go to standard output (server.mjs says so); a command's (npm run
        // submissions, lake:editor, …) to standard error, so what it prints stays its own.
        pino.destination({ fd: process.env.LOG_DESTINATION === 'stdout' ? 1 : 2, sync: true }),
  );
}

declare global {
  var __log: Logger | undefined;
}

/** The process's logger (one per process, like the database). */
export const log: Logger = (globalThis.__log ??= create());
