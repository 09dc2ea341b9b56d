import { createCookie } from '@remix-run/node';
import { embeddedBilling } from '~/billing/billing.server';
import type { AcceptedCard } from '~/billing/engine/cards';
import { BillingError } from '~/billing/types';
import { localizePath, type Locale } from '~/i18n';
import { parseEmailAddress } from '~/lib/email';
import { env } from '~/lib/env.server';
import { safeReturnPath } from '~/lib/return-path';
import { contentClient } from '~/sanity/client.server';
import { isConflict, type StoredDocument } from '~/sanity/types';
import { ensureCustomerAccount, findAccountByEmail, getAccount, normalizeEmail } from './accounts.server';
import { clientIp, keyed, pseudonym, randomId, safeEqual, sixDigitCode } from './crypto.server';
import type { ClientEmail } from './emails.server';
import { dispatchEngineEvents } from './events.server';
import { consume, LIMITS, remaining } from './limits.server';
import { queueMail, sendNow } from './mail-queue.server';
import { portalCookieName, portalCookiesSecure, startSession } from './session.server';

/**
 * Passwordless sign-in by email, and the confirmation of a payer's address.
 * - Asking for a code: the same answer whether or not the address belongs to a client (no
 *   enumeration); limited per address and per IP. For a client, a 6-digit code is stored
 *   hashed (keyed) in `portal.code.<random>` with a 10-minute expiry and 5 tries, and emailed
 *   with a link that carries the same code. The link opens a page with a button that POSTs it,
 *   because mail scanners open links and must not use up the code.
 * - Paying a local checkout without a session of the paying client: the card is checked, and
 *   the payment waits in a code of the same kind, emailed to the address the payer typed. Only
 *   that code (or its link) completes the payment and signs in: paying never makes anyone a
 *   client they have not proven to be, and the address's owner is told by that email.
 * - Checking a code: limited per address and per IP; a wrong code costs a try on every live
 *   code of that address; the right one is deleted in the same conditional write that checks
 *   it, so it signs in (and completes its payment) once. The new session gets a fresh id.
 */
export const CODE_MINUTES = 10;
export const CODE_TRIES = 5;

/** A local checkout's payment, checked and waiting for the payer to confirm the address. */
export interface PendingCheckout {
  checkoutId: string;
  email: string;
  name: string;
  company: string | null;
  card: AcceptedCard;
}

type CodeDoc = {
  _id: string;
  _type: 'portal.code';
  /** The keyed pseudonym of the address the code was sent to (codes are found by it). */
  subject: string;
  /** The client the code signs in as; null for a payment's confirmation. */
  customerId: string | null;
  hash: string;
  expiresAt: number;
  triesLeft: number;
  next: string;
  checkout?: PendingCheckout;
};

const codeSubject = (email: string) => pseudonym('code-address', email);

/** Remembers, for 15 minutes, which address the code was sent to (to say so, and to check it). */
let cookieOfSignIn: ReturnType<typeof createCookie> | undefined;
function signInCookie() {
  const e = env();
  const secure = portalCookiesSecure();
  cookieOfSignIn ??= createCookie(portalCookieName('signin', secure), {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: 15 * 60,
    secrets: e.sessionSecrets,
  });
  return cookieOfSignIn;
}

export function nextPath(value: unknown, locale: Locale): string {
  const fallback = localizePath('/account', locale);
  if (typeof value !== 'string' || !value) return fallback;
  const path = safeReturnPath(value) ?? '/';
  // Only pages of the portal: a sign-in link never becomes a way to send people elsewhere.
  return /^(\/ar)?\/account(\/|$|\?)/.test(path) ? path : fallback;
}

export type PendingPurpose = 'sign-in' | 'checkout';

/** The address a code was sent to (from the short-lived cookie), and why; null when none. */
export async function pendingSignIn(request: Request): Promise<{ email: string; purpose: PendingPurpose } | null> {
  const value = (await signInCookie().parse(request.headers.get('Cookie'))) as {
    email?: unknown;
    exp?: unknown;
    purpose?: unknown;
  } | null;
  if (!value || typeof value.email !== 'string' || typeof value.exp !== 'number' || value.exp < Date.now()) return null;
  return { email: value.email, purpose: value.purpose === 'checkout' ? 'checkout' : 'sign-in' };
}

export async function pendingEmail(request: Request): Promise<string | null> {
  return (await pendingSignIn(request))?.email ?? null;
}

function pendingCookie(email: string, purpose: PendingPurpose): Promise<string> {
  return signInCookie().serialize({ email, exp: Date.now() + 15 * 60 * 1000, purpose });
}

/**
 * Stores a new code for `email` (hashed; the code itself only goes into the email) and sends
 * the email that `message` makes of it, queued so that a mail server that is down is retried
 * while the code is valid.
 */
async function issueCode(
  email: string,
  fields: Pick<CodeDoc, 'customerId' | 'next' | 'checkout'>,
  locale: Locale,
  message: (code: string, link: string) => ClientEmail,
): Promise<void> {
  const id = randomId();
  const code = sixDigitCode();
  const expiresAt = Date.now() + CODE_MINUTES * 60 * 1000;
  const doc: CodeDoc = {
    _id: `portal.code.${id}`,
    _type: 'portal.code',
    subject: codeSubject(email),
    hash: keyed('signin-code', `${id}:${code}`),
    expiresAt,
    triesLeft: CODE_TRIES,
    ...fields,
  };
  await contentClient().mutate([{ create: doc as CodeDoc & { _id: `${string}.${string}` } }]);
  const link =
    `${env().siteUrl}${localizePath('/account/verify', locale)}?c=${encodeURIComponent(id)}&code=${code}` +
    (fields.checkout ? '&p=checkout' : '');
  const key = `signin:${id}`;
  await queueMail(key, email, message(code, link), { expiresAt });
  // Sent now; if the mail server is down the queue retries while the code is valid.
  await sendNow(key).catch((error) => console.error(`[mail] sign-in email: ${String(error)}`));
}

export type RequestCodeResult =
  { status: 'sent'; headers: Headers } | { status: 'invalid-email' } | { status: 'rate-limited' };

export async function requestCode(request: Request, form: FormData, locale: Locale): Promise<RequestCodeResult> {
  const email = parseEmailAddress(form.get('email'));
  if (!email) return { status: 'invalid-email' };
  const ip = clientIp(request);
  if (!(await consume('signin-ip', ip, LIMITS.signInPerIp))) return { status: 'rate-limited' };
  if (!(await consume('signin-email', email, LIMITS.signInPerAddress))) return { status: 'rate-limited' };
  const account = await findAccountByEmail(email);
  if (account) {
    const siteUrl = env().siteUrl;
    await issueCode(
      account.email,
      { customerId: account.customerId, next: nextPath(form.get('next'), locale) },
      locale,
      (code, link) => ({ kind: 'sign-in', locale, name: account.name, siteUrl, code, link, minutes: CODE_MINUTES }),
    );
  }
  return { status: 'sent', headers: new Headers({ 'Set-Cookie': await pendingCookie(email, 'sign-in') }) };
}

/**
 * A checked payment waits for the payer to confirm the address they typed: a code (and link)
 * goes to that address, whether or not it belongs to a client, with the same answer either
 * way. Limited like a sign-in request (per IP and per address).
 */
export async function requestCheckoutConfirmation(
  request: Request,
  payment: PendingCheckout,
  planName: string,
  locale: Locale,
): Promise<{ status: 'sent'; headers: Headers; redirectTo: string } | { status: 'rate-limited' }> {
  const email = normalizeEmail(payment.email);
  if (!(await consume('signin-ip', clientIp(request), LIMITS.signInPerIp))) return { status: 'rate-limited' };
  if (!(await consume('signin-email', email, LIMITS.signInPerAddress))) return { status: 'rate-limited' };
  const next = `${localizePath('/account/subscription', locale)}?welcome=1`;
  const siteUrl = env().siteUrl;
  await issueCode(email, { customerId: null, next, checkout: { ...payment, email } }, locale, (code, link) => ({
    // No name: the address's owner may not be the one who typed it.
    kind: 'checkout-confirm',
    locale,
    name: '',
    siteUrl,
    code,
    link,
    minutes: CODE_MINUTES,
    planName,
  }));
  return {
    status: 'sent',
    headers: new Headers({ 'Set-Cookie': await pendingCookie(email, 'checkout') }),
    redirectTo: localizePath('/account/verify', locale),
  };
}

/**
 * The confirmed payment is taken: the checkout completes for the address's customer (created
 * if new). Returns the customer to sign in as, or null when nothing can be completed and the
 * address has no client either (the checkout expired).
 */
async function completeConfirmedCheckout(
  pending: PendingCheckout,
): Promise<{ customerId: string; paid: boolean } | null> {
  const engine = embeddedBilling();
  if (engine) {
    try {
      const result = await engine.completeCheckout(pending.checkoutId, {
        email: pending.email,
        name: pending.name,
        company: pending.company,
        cardNumber: '',
        expMonth: pending.card.expMonth,
        expYear: pending.card.expYear,
        cvc: '',
        acceptedCard: pending.card,
        allowExistingCustomer: true,
      });
      await ensureCustomerAccount(result.customer);
      // The welcome email goes out now, without waiting for the job.
      await dispatchEngineEvents().catch((error) => console.error(`[portal] events: ${String(error)}`));
      return { customerId: result.customer.id, paid: true };
    } catch (error) {
      // Already subscribed, or the checkout expired: the address is still proven, so its client signs in.
      if (!(error instanceof BillingError)) throw error;
      console.log(`[portal] confirmed checkout ${pending.checkoutId} not completed: ${error.code}`);
    }
  }
  const account = await findAccountByEmail(pending.email);
  return account ? { customerId: account.customerId, paid: false } : null;
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
    codes = doc?.subject ? [doc] : [];
    subject = doc?.subject ? `address:${doc.subject}` : `link:${linkId}`;
  } else {
    const email = await pendingEmail(request);
    if (!email) return { status: 'expired' };
    subject = email;
    codes = await store.queryPrivate<StoredDocument<CodeDoc>[]>(
      '*[_type == "portal.code" && subject == $subject && expiresAt > $now] | order(expiresAt desc)',
      { subject: codeSubject(email), now: Date.now() },
    );
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
      let customerId = doc.customerId;
      let redirectTo = nextPath(form.get('next') || doc.next, locale);
      if (doc.checkout) {
        // The payer has proven the address: the payment is taken now, once (the code is gone).
        const confirmed = await completeConfirmedCheckout(doc.checkout);
        customerId = confirmed?.customerId ?? null;
        if (confirmed && !confirmed.paid) redirectTo = localizePath('/account/subscription', locale);
      }
      const account = customerId ? await getAccount(customerId) : null;
      if (!account) return { status: 'expired' };
      const headers = new Headers();
      headers.append('Set-Cookie', await startSession(account));
      headers.append('Set-Cookie', await signInCookie().serialize('', { maxAge: 0 }));
      return { status: 'signed-in', headers, redirectTo };
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
