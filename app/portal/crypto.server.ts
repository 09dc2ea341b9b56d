import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { env } from '~/lib/env.server';

/**
 * Keyed hashes for the portal. Each use names its purpose, so a value signed for one use
 * (a CSRF token) never verifies for another (a sign-in code). Keys derive from the current
 * signing secret; `verifyKeyed` also accepts the previous secrets during a rotation.
 */
export function keyed(purpose: string, value: string, secret = env().sessionSecret): string {
  return createHmac('sha256', secret).update(`${purpose}\n${value}`).digest('base64url');
}

export function verifyKeyed(purpose: string, value: string, mac: string): boolean {
  return env().sessionSecrets.some((secret) => safeEqual(keyed(purpose, value, secret), mac));
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A random id for documents and sessions (base64url, 144 bits by default). */
export function randomId(bytes = 18): string {
  return randomBytes(bytes)
    .toString('base64url')
    .replace(/[-_]/g, (c) => (c === '-' ? 'x' : 'y'));
}

/**
 * The 6-digit code of a sign-in code's row, derived from its id with the server's secret: the
 * database never holds a code, and a copy of it (or of the mail queue) yields none.
 */
export function derivedCode(id: string, secret = env().sessionSecret): string {
  const mac = createHmac('sha256', secret).update(`signin-code:${id}`).digest();
  return String(mac.readUIntBE(0, 6) % 1_000_000).padStart(6, '0');
}

/** Six decimal digits, uniformly random. */
export function sixDigitCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * A stable, non-reversible handle for a personal value (an email address, an IP) that may go
 * into a document id: keyed, so the id says nothing about the address to anyone without the key.
 *
 * Keyed with SESSION_SECRET on purpose, like the CSRF tokens and the codes above: what it names
 * (a sign-in code's row, the browser that asked for it) lives ten minutes or so, and rotating the
 * secret is meant to end all of them at once. The rate limits, which must survive a rotation, use
 * the database's own key instead (limitSubject in limits.server.ts).
 */
export function pseudonym(kind: string, value: string): string {
  return keyed(`pseudonym:${kind}`, value.trim().toLowerCase())
    .slice(0, 32)
    .replace(/[-_]/g, (c) => (c === '-' ? 'x' : 'y'));
}

/**
 * The visitor's address, as the site's server (server.mjs) put it in X-Bawaba-Client-Ip after
 * removing any value the visitor sent. Without that server (remix dev): one shared bucket.
 */
export const CLIENT_IP_HEADER = 'x-bawaba-client-ip';
export function clientIp(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER)?.trim() || 'unknown';
}
