import { createHash } from 'node:crypto';
import { createCookie } from '@remix-run/node';
import { and, eq, gt, inArray } from 'drizzle-orm';
import { db } from '~/db/client.server';
import { accounts, sessions } from '~/db/schema.server';
import type { Db } from '~/db/types.server';
import { localizePath, requestLocale } from '~/i18n';
import { env } from '~/lib/env.server';
import { oncePerRequest } from '~/lib/once-per-request.server';
import type { AccountRecord } from './accounts.server';
import { keyed, randomId, verifyKeyed } from './crypto.server';
import { hasSignedInHint, SIGNED_IN_HINT_COOKIE } from './signed-in-hint';

/**
 * The client's session: a row of `sessions` per signed-in device, named by a random id that
 * only the cookie holds (the table keeps its sha256). The cookie is signed, HttpOnly,
 * SameSite=Lax (Secure and `__Host-` over HTTPS). Signing out deletes the row, so the cookie is
 * worth nothing after it, even replayed; signing out everywhere deletes every row of the account.
 * Each sign-in makes a new row and id (no fixation); a session lasts SESSION_DAYS.
 */
export const SESSION_DAYS = 30;
/**
 * A portal cookie's name: over HTTPS with the `__Host-` prefix, which browsers accept only on a
 * Secure cookie for this exact host and path `/` (no subdomain or plain-HTTP page can set or
 * shadow it); the bare name on plain HTTP (local development and tests), where the prefix
 * would make browsers drop the cookie.
 */
export function portalCookieName(name: string, secure: boolean): string {
  return secure ? `__Host-${name}` : `__${name}`;
}

/** Portal cookies are Secure when the site is served over HTTPS in production. */
export function portalCookiesSecure(): boolean {
  const e = env();
  return e.isProduction && e.siteUrl.startsWith('https:');
}

type SessionValue = { s: string };

let cookie: ReturnType<typeof createCookie> | undefined;
function sessionCookie() {
  const e = env();
  const secure = portalCookiesSecure();
  cookie ??= createCookie(portalCookieName('client', secure), {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: SESSION_DAYS * 24 * 60 * 60,
    // Signs with the current secret; SESSION_SECRET_PREVIOUS still verifies during a change-over.
    secrets: e.sessionSecrets,
  });
  return cookie;
}

/**
 * The Set-Cookie of the signed-in hint (./signed-in-hint.ts): set with the session cookie's
 * lifetime, path, SameSite and Secure, but readable by scripts and holding no secret; `false`
 * clears it. A label for the public pages' header, never trusted for access.
 */
export function signedInHintCookie(signedIn: boolean): string {
  const maxAge = signedIn ? SESSION_DAYS * 24 * 60 * 60 : 0;
  const expires = new Date(signedIn ? Date.now() + maxAge * 1000 : 0).toUTCString();
  return `${SIGNED_IN_HINT_COOKIE}=${signedIn ? '1' : ''}; Max-Age=${maxAge}; Expires=${expires}; Path=/; SameSite=Lax${portalCookiesSecure() ? '; Secure' : ''}`;
}

export interface SignedInClient {
  account: AccountRecord;
  sessionId: string;
  csrfToken: string;
}

/** The signed-in client of this request (checked once per request), or null. */
export const readSession: (request: Request) => Promise<SignedInClient | null> = oncePerRequest(verify);

const idHash = (id: string) => createHash('sha256').update(id).digest('hex');

/** The session id in the request's cookie (signature checked), or null. */
async function sessionIdOf(request: Request): Promise<string | null> {
  const header = request.headers.get('Cookie');
  if (!header?.includes(`${sessionCookie().name}=`)) return null;
  const value = (await sessionCookie().parse(header)) as Partial<SessionValue> | null;
  return value && typeof value === 'object' && typeof value.s === 'string' && /^[A-Za-z0-9]{20,64}$/.test(value.s)
    ? value.s
    : null;
}

async function verify(request: Request): Promise<SignedInClient | null> {
  const id = await sessionIdOf(request);
  if (!id) return null;
  // One statement: the live session and its account.
  const [row] = await (
    await db()
  )
    .select({
      customerId: accounts.customerId,
      email: accounts.email,
      name: accounts.name,
      company: accounts.company,
      locale: accounts.locale,
    })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.customerId, sessions.customerId))
    .where(and(eq(sessions.idHash, idHash(id)), gt(sessions.expiresAt, new Date())));
  if (!row) return null;
  const account: AccountRecord = { ...row, locale: row.locale === 'ar' ? 'ar' : 'en' };
  return { account, sessionId: id, csrfToken: keyed('csrf', id) };
}

/**
 * A new session's id, the row that stores it and its Set-Cookie: for callers that insert the row
 * within a statement of their own (a sign-in spends its code and starts the session in one).
 */
export function newSession(now = Date.now()) {
  const id = randomId();
  return {
    idHash: idHash(id),
    expiresAt: new Date(now + SESSION_DAYS * 24 * 60 * 60 * 1000),
    cookie: () => sessionCookie().serialize({ s: id } satisfies SessionValue),
  };
}

/** Starts a session of this account (a new row) and answers its Set-Cookie. */
export async function startSession(account: Pick<AccountRecord, 'customerId'>, database?: Db): Promise<string> {
  const session = newSession();
  await (database ?? (await db())).insert(sessions).values({
    idHash: session.idHash,
    customerId: account.customerId,
    expiresAt: session.expiresAt,
  });
  return session.cookie();
}

/**
 * Ends this request's session (its row is deleted: the cookie opens nothing after this, even
 * replayed), or with `everywhere` every session of its account; answers the Set-Cookie that
 * clears the cookie.
 */
export async function endSession(request: Request, options: { everywhere?: boolean } = {}): Promise<string> {
  const id = await sessionIdOf(request);
  if (id) {
    const database = await db();
    const own = eq(sessions.idHash, idHash(id));
    await database
      .delete(sessions)
      .where(
        options.everywhere
          ? inArray(sessions.customerId, database.select({ customerId: sessions.customerId }).from(sessions).where(own))
          : own,
      );
  }
  return sessionCookie().serialize('', { maxAge: 0 });
}

/**
 * For a request found without a live session (expired, signed out elsewhere, forged): the
 * Set-Cookies that clear what it still carries (the dead session cookie, the signed-in hint),
 * so the header stops saying "My account". Empty when it carries neither.
 */
export async function staleSessionCookies(request: Request): Promise<string[]> {
  const header = request.headers.get('Cookie');
  const out: string[] = [];
  if (header?.includes(`${sessionCookie().name}=`)) out.push(await sessionCookie().serialize('', { maxAge: 0 }));
  if (hasSignedInHint(header)) out.push(signedInHintCookie(false));
  return out;
}

export function csrfMatches(client: SignedInClient, token: unknown): boolean {
  return typeof token === 'string' && verifyKeyed('csrf', client.sessionId, token);
}

/** Where a signed-out visitor is sent: the sign-in page, to come back to `path` afterwards. */
export function signInPath(request: Request): string {
  const url = new URL(request.url);
  const locale = requestLocale(request);
  return `${localizePath('/account', locale)}?next=${encodeURIComponent(url.pathname + url.search)}`;
}
