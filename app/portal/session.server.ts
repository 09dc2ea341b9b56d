import { createCookie } from '@remix-run/node';
import { localizePath, requestLocale } from '~/i18n';
import { env } from '~/lib/env.server';
import { oncePerRequest } from '~/lib/once-per-request.server';
import { getAccount, type AccountDoc } from './accounts.server';
import { keyed, randomId, verifyKeyed } from './crypto.server';

/**
 * The client's session: a signed, HttpOnly, SameSite=Lax cookie (Secure over HTTPS) holding the
 * customer id, the account's session epoch, a random session id and when it was issued. Nothing
 * else is kept on the server, except the epoch: raising it (sign out everywhere) ends every
 * session of that account at once. Each sign-in issues a new session id (no fixation).
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

type SessionValue = { a: string; e: number; s: string; iat: number };

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

export interface SignedInClient {
  account: AccountDoc;
  sessionId: string;
  csrfToken: string;
}

/** The signed-in client of this request (checked once per request), or null. */
export const readSession: (request: Request) => Promise<SignedInClient | null> = oncePerRequest(verify);

async function verify(request: Request): Promise<SignedInClient | null> {
  const header = request.headers.get('Cookie');
  if (!header?.includes(`${sessionCookie().name}=`)) return null;
  const value = (await sessionCookie().parse(header)) as Partial<SessionValue> | null;
  if (!value || typeof value !== 'object') return null;
  const { a, e, s, iat } = value;
  if (typeof a !== 'string' || typeof e !== 'number' || typeof s !== 'string' || typeof iat !== 'number') return null;
  if (Date.now() - iat > SESSION_DAYS * 24 * 60 * 60 * 1000 || iat > Date.now() + 60_000) return null;
  const account = await getAccount(a);
  if (!account || account.sessionEpoch !== e) return null;
  return { account, sessionId: s, csrfToken: keyed('csrf', s) };
}

/** Set-Cookie for a fresh session of this account. */
export function startSession(account: Pick<AccountDoc, 'customerId' | 'sessionEpoch'>): Promise<string> {
  const value: SessionValue = { a: account.customerId, e: account.sessionEpoch, s: randomId(), iat: Date.now() };
  return sessionCookie().serialize(value);
}

export function endSession(): Promise<string> {
  return sessionCookie().serialize('', { maxAge: 0 });
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
