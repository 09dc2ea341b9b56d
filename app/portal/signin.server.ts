import { createCookie } from '@remix-run/node';
import { z } from 'zod';
import { localizePath, type Locale } from '~/i18n';
import { env } from '~/lib/env.server';
import { safeReturnPath } from '~/lib/return-path';
import { contentClient } from '~/sanity/client.server';
import { isConflict, type StoredDocument } from '~/sanity/types';
import { findAccountByEmail, getAccount, normalizeEmail } from './accounts.server';
import { clientIp, keyed, randomId, safeEqual, sixDigitCode } from './crypto.server';
import { consume, LIMITS, remaining } from './limits.server';
import { queueMail, sendNow } from './mail-queue.server';
import { startSession } from './session.server';

/**
 * Passwordless sign-in by email.
 * - Asking for a code: the same answer whether or not the address belongs to a client (no
 *   enumeration); limited per address and per IP. For a client, a 6-digit code is stored
 *   hashed (keyed) in `portal.code.<random>` with a 10-minute expiry and 5 tries, and emailed
 *   with a link that carries the same code. The link opens a page with a button that POSTs it,
 *   because mail scanners open links and must not use up the code.
 * - Checking a code: limited per address and per IP; a wrong code costs a try on every live
 *   code of that address; the right one is deleted in the same conditional write that checks
 *   it, so it signs in once. The new session gets a fresh id.
 */
export const CODE_MINUTES = 10;
export const CODE_TRIES = 5;

type CodeDoc = {
  _id: string;
  _type: 'portal.code';
  customerId: string;
  hash: string;
  expiresAt: number;
  triesLeft: number;
  next: string;
};

/** Remembers, for 15 minutes, which address the code was sent to (to say so, and to check it). */
let pendingCookie: ReturnType<typeof createCookie> | undefined;
function signInCookie() {
  const e = env();
  pendingCookie ??= createCookie('__signin', {
    httpOnly: true,
    sameSite: 'lax',
    secure: e.isProduction && e.siteUrl.startsWith('https:'),
    path: '/',
    maxAge: 15 * 60,
    secrets: e.sessionSecrets,
  });
  return pendingCookie;
}

const emailSchema = z.string().trim().min(3).max(254).pipe(z.email());

export function nextPath(value: unknown, locale: Locale): string {
  const fallback = localizePath('/account', locale);
  if (typeof value !== 'string' || !value) return fallback;
  const path = safeReturnPath(value) ?? '/';
  // Only pages of the portal: a sign-in link never becomes a way to send people elsewhere.
  return /^(\/ar)?\/account(\/|$|\?)/.test(path) ? path : fallback;
}

export async function pendingEmail(request: Request): Promise<string | null> {
  const value = (await signInCookie().parse(request.headers.get('Cookie'))) as {
    email?: unknown;
    exp?: unknown;
  } | null;
  if (!value || typeof value.email !== 'string' || typeof value.exp !== 'number' || value.exp < Date.now()) return null;
  return value.email;
}

export type RequestCodeResult =
  { status: 'sent'; headers: Headers } | { status: 'invalid-email' } | { status: 'rate-limited' };

export async function requestCode(request: Request, form: FormData, locale: Locale): Promise<RequestCodeResult> {
  const parsed = emailSchema.safeParse(form.get('email'));
  if (!parsed.success) return { status: 'invalid-email' };
  const email = normalizeEmail(parsed.data);
  const ip = clientIp(request);
  if (!(await consume('signin-ip', ip, LIMITS.signInPerIp))) return { status: 'rate-limited' };
  if (!(await consume('signin-email', email, LIMITS.signInPerAddress))) return { status: 'rate-limited' };
  const account = await findAccountByEmail(email);
  if (account) {
    const id = randomId();
    const code = sixDigitCode();
    const expiresAt = Date.now() + CODE_MINUTES * 60 * 1000;
    const next = nextPath(form.get('next'), locale);
    const doc: CodeDoc = {
      _id: `portal.code.${id}`,
      _type: 'portal.code',
      customerId: account.customerId,
      hash: keyed('signin-code', `${id}:${code}`),
      expiresAt,
      triesLeft: CODE_TRIES,
      next,
    };
    await contentClient().mutate([{ create: doc as CodeDoc & { _id: `${string}.${string}` } }]);
    const siteUrl = env().siteUrl;
    const link = `${siteUrl}${localizePath('/account/verify', locale)}?c=${encodeURIComponent(id)}&code=${code}`;
    const key = `signin:${id}`;
    await queueMail(
      key,
      account.email,
      { kind: 'sign-in', locale, name: account.name, siteUrl, code, link, minutes: CODE_MINUTES },
      { expiresAt },
    );
    // Sent now; if the mail server is down the queue retries while the code is valid.
    await sendNow(key).catch((error) => console.error(`[mail] sign-in email: ${String(error)}`));
  }
  const headers = new Headers({
    'Set-Cookie': await signInCookie().serialize({ email, exp: Date.now() + 15 * 60 * 1000 }),
  });
  return { status: 'sent', headers };
}

export type VerifyResult =
  | { status: 'signed-in'; headers: Headers; redirectTo: string }
  | { status: 'wrong-code'; triesLeft: number }
  | { status: 'expired' }
  | { status: 'rate-limited' };

export async function verifyCode(request: Request, form: FormData, locale: Locale): Promise<VerifyResult> {
  const store = contentClient();
  // Arabic-Indic (٠-٩) and Persian (۰-۹) digits are read as ASCII: a phone keyboard may type either.
  const code = String(form.get('code') ?? '')
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/\s+/g, '');
  const linkId = String(form.get('c') ?? '');
  const ip = clientIp(request);
  if (!(await consume('verify-ip', ip, LIMITS.verifyPerIp))) return { status: 'rate-limited' };

  let codes: StoredDocument<CodeDoc>[];
  let subject: string;
  if (linkId) {
    if (!/^[A-Za-z0-9]{10,40}$/.test(linkId)) return { status: 'expired' };
    const doc = await store.getDocument<CodeDoc>(`portal.code.${linkId}`);
    codes = doc ? [doc] : [];
    subject = doc ? `customer:${doc.customerId}` : `link:${linkId}`;
  } else {
    const email = await pendingEmail(request);
    if (!email) return { status: 'expired' };
    subject = email;
    const account = await findAccountByEmail(email);
    codes = account
      ? await store.queryPrivate<StoredDocument<CodeDoc>[]>(
          '*[_type == "portal.code" && customerId == $customerId && expiresAt > $now] | order(expiresAt desc)',
          { customerId: account.customerId, now: Date.now() },
        )
      : [];
  }
  if (!(await consume('verify-address', subject, LIMITS.verifyPerAddress))) return { status: 'rate-limited' };
  const live = codes.filter((c) => c.expiresAt > Date.now() && c.triesLeft > 0);
  // An address without a client account answers exactly like one whose code is wrong.
  if (!live.length && !linkId) {
    // No live code for this address (none sent: not a client; or all expired or used): answer
    // as a real code would, with tries counting down to "expired", so the reply never tells.
    const virtual = { max: CODE_TRIES, windowMs: CODE_MINUTES * 60 * 1000 };
    if (!(await consume('verify-none', subject, virtual))) return { status: 'expired' };
    const left = await remaining('verify-none', subject, virtual);
    return left > 0 ? { status: 'wrong-code', triesLeft: left } : { status: 'expired' };
  }
  if (!live.length) return { status: 'expired' };

  if (/^\d{6}$/.test(code)) {
    for (const doc of live) {
      const id = doc._id.slice('portal.code.'.length);
      if (!safeEqual(keyed('signin-code', `${id}:${code}`), doc.hash)) continue;
      try {
        // The check and the use are one write: a code signs in once.
        await store.mutate([
          { patch: { id: doc._id, ifRevisionID: doc._rev, set: { triesLeft: 0 } } },
          { delete: { id: doc._id } },
        ]);
      } catch (error) {
        if (isConflict(error)) return { status: 'expired' };
        throw error;
      }
      const account = await getAccount(doc.customerId);
      if (!account) return { status: 'expired' };
      const headers = new Headers();
      headers.append('Set-Cookie', await startSession(account));
      headers.append('Set-Cookie', await signInCookie().serialize('', { maxAge: 0 }));
      return { status: 'signed-in', headers, redirectTo: nextPath(form.get('next') || doc.next, locale) };
    }
  }
  // Wrong: every live code of this address loses a try; the last try deletes it.
  let triesLeft = 0;
  for (const doc of live) {
    const left = doc.triesLeft - 1;
    triesLeft = Math.max(triesLeft, left);
    try {
      await store.mutate(
        left <= 0
          ? [{ patch: { id: doc._id, ifRevisionID: doc._rev, set: { triesLeft: 0 } } }, { delete: { id: doc._id } }]
          : [{ patch: { id: doc._id, ifRevisionID: doc._rev, set: { triesLeft: left } } }],
      );
    } catch (error) {
      if (!isConflict(error)) throw error;
      // A concurrent check used a try too: count it as spent.
    }
  }
  return triesLeft > 0 ? { status: 'wrong-code', triesLeft } : { status: 'expired' };
}
