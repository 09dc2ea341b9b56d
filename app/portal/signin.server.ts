import { createCookie } from '@remix-run/node';
import { and, eq, gt, sql } from 'drizzle-orm';
import { embeddedBilling } from '~/billing/billing.server';
import type { AcceptedCard } from '~/billing/engine/cards';
import type { BillingDetails } from '~/billing/tax/details';
import { BillingError } from '~/billing/types';
import { db } from '~/db/client.server';
import { accounts, lakeEditors, lakeEditorSessions, mailQueue, sessions, signinCodes } from '~/db/schema.server';
import { localizePath, type Locale } from '~/i18n';
import { digitsOf } from '~/lib/digits';
import { parseEmailAddress } from '~/lib/email';
import { env } from '~/lib/env.server';
import { safeReturnPath } from '~/lib/return-path';
import { ensureCustomerAccount, findAccountByEmail, normalizeEmail } from './accounts.server';
import { codeOf, type Audience } from './codes.server';
import { clientIp, pseudonym, randomId, safeEqual } from './crypto.server';
import { dispatchEngineEvents } from './events.server';
export type { Audience } from './codes.server';
import { consume, consumeAll, giveBack, LIMITS, takeBudget } from './limits.server';
import { queuedMail, selfClaimedAt, sendSelfClaimed } from './mail-queue.server';
import { newSession, portalCookieName, portalCookiesSecure, signedInHintCookie, startSession } from './session.server';
import { log as logger } from '~/lib/log.server';

/**
 * Passwordless sign-in by email, and the confirmation of a payer's address.
 * - Asking for a code: the same answer, the same statements and the same time whether or not
 *   the address belongs to a client. Every request stores a code row (`signin_codes`) and
 *   queues an email; for an address without an account the row names no client and the email
 *   is dropped by the sender, off the request path. No code is stored: it is derived from the
 *   row's id with the server's secret when the email is rendered and when a code is checked.
 * - The row is bound to the browser that asked (a nonce in the short-lived `__signin` cookie):
 *   a code typed in is checked only against the codes this browser asked for, so another
 *   browser's guesses cannot spend a client's code. The emailed link carries the row's id and
 *   its code and works in any browser, whatever was guessed elsewhere.
 * - Limits bind the one who asks: per IP, per address and IP, and a wider cap per address.
 * - Checking a typed code spends a try on every live code of this browser and address in ONE
 *   statement (`update … set tries_left = tries_left - 1 … where tries_left > 0 returning`),
 *   so concurrent guesses cannot all see the same count; the right one is deleted by ONE
 *   statement that returns it, so it signs in (and completes its payment) once, and in that
 *   statement every other live code of the address gets no tries left (its emailed link works on).
 * - The address's budget of typed codes (LIMITS.verifyPerAddress, a rolling 24 hours, across every
 *   IP and browser): each live code a typed guess is checked against takes one (`takeBudget`, one
 *   statement); a right code gives its own back. Once spent, a typed code is refused unchecked
 *   ('locked') and every live code of the address gets no tries left; the emailed link, which
 *   proves the mailbox and cannot be guessed, still works. Clients' and strangers' addresses alike.
 * - Paying a local checkout without a session of the paying client: the card is checked, and
 *   the payment waits in a code emailed to the address the payer typed (ADR 0020).
 * - ONE sign-in, two audiences (issue 40): clients (the portal) and the local Content Lake's
 *   Studio editors (app/lake/editors.server.ts) ask, get a code and a one-click link, are limited,
 *   budgeted and checked by the same functions and statements here; the audience is a parameter
 *   that picks only the names (the limits' kinds, the pseudonyms, the code's derivation, the
 *   pending cookie), who a row names (`customer_id` or `editor_email`) and the session started
 *   (the portal's cookie, or the Studio's bearer token). A row of one audience never signs in
 *   the other, and a used code spends only its own audience's codes.
 */
export const CODE_MINUTES = 10;
export const CODE_TRIES = 5;
export const PENDING_MINUTES = 15;

/** A local checkout's payment, checked and waiting for the payer to confirm the address. */
export interface PendingCheckout {
  checkoutId: string;
  email: string;
  name: string;
  company: string | null;
  card: AcceptedCard;
  /** The billing details given at checkout, recorded when the payment is taken. */
  billingDetails?: BillingDetails | null;
}

/**
 * What differs between the audiences (see codes.server.ts for the code's derivation): names only.
 * The editors' names are those their sign-in had before it became this one (so their limits' rows
 * and pending cookies carry over).
 */
const AUDIENCES = {
  client: { kind: (k: string) => k, cookie: 'signin' },
  editor: { kind: (k: string) => `lake-${k}`, cookie: 'lake_signin' },
} as const satisfies Record<Audience, unknown>;

const codeSubject = (email: string, audience: Audience = 'client') =>
  pseudonym(`${AUDIENCES[audience].kind('code-address')}`, email);
const requesterOf = (nonce: string, audience: Audience = 'client') =>
  pseudonym(`${AUDIENCES[audience].kind('code-requester')}`, nonce);

/** Remembers, for 15 minutes, which address the code was sent to, why, and this browser's nonce. */
const cookiesOfSignIn: Partial<Record<Audience, ReturnType<typeof createCookie>>> = {};
function signInCookie(audience: Audience = 'client') {
  const e = env();
  const secure = portalCookiesSecure();
  cookiesOfSignIn[audience] ??= createCookie(portalCookieName(AUDIENCES[audience].cookie, secure), {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: PENDING_MINUTES * 60,
    secrets: e.sessionSecrets,
  });
  return cookiesOfSignIn[audience];
}

/** The Set-Cookie that forgets a pending sign-in of this audience (after it succeeded). */
export const clearPendingCookie = (audience: Audience) => signInCookie(audience).serialize('', { maxAge: 0 });

export function nextPath(value: unknown, locale: Locale): string {
  const fallback = localizePath('/account', locale);
  if (typeof value !== 'string' || !value) return fallback;
  const path = safeReturnPath(value) ?? '/';
  // Only pages of the portal: a sign-in link never becomes a way to send people elsewhere.
  return /^(\/ar)?\/account(\/|$|\?)/.test(path) ? path : fallback;
}

export type PendingPurpose = 'sign-in' | 'checkout';
type Pending = { email: string; purpose: PendingPurpose; nonce: string };

async function readPending(request: Request, audience: Audience = 'client'): Promise<Pending | null> {
  const value = (await signInCookie(audience).parse(request.headers.get('Cookie'))) as {
    email?: unknown;
    exp?: unknown;
    purpose?: unknown;
    nonce?: unknown;
  } | null;
  if (!value || typeof value.email !== 'string' || typeof value.exp !== 'number' || value.exp < Date.now()) return null;
  if (typeof value.nonce !== 'string' || !/^[A-Za-z0-9]{16,64}$/.test(value.nonce)) return null;
  return { email: value.email, purpose: value.purpose === 'checkout' ? 'checkout' : 'sign-in', nonce: value.nonce };
}

/** The address a code was sent to (from the short-lived cookie), and why; null when none. */
export async function pendingSignIn(request: Request): Promise<{ email: string; purpose: PendingPurpose } | null> {
  const pending = await readPending(request);
  return pending && { email: pending.email, purpose: pending.purpose };
}

export async function pendingEmail(request: Request, audience: Audience = 'client'): Promise<string | null> {
  return (await readPending(request, audience))?.email ?? null;
}

/**
 * Stores a new code row for `email`, bound to this browser, and queues its email (sent off the
 * request path). `customer`: the row names the address's account when there is one (looked up
 * in the same statement), or none (a payment's confirmation names its client when it completes).
 * Answers the cookie that remembers the address, the purpose and the browser's nonce.
 */
async function issueCode(
  request: Request,
  email: string,
  purpose: PendingPurpose,
  fields: { next: string; locale: Locale; checkout?: PendingCheckout; planName?: string },
  audience: Audience = 'client',
): Promise<string> {
  const nonce = (await readPending(request, audience))?.nonce ?? randomId(24);
  const id = randomId();
  const expiresAt = new Date(Date.now() + CODE_MINUTES * 60 * 1000);
  const siteUrl = env().siteUrl;
  const key = `signin:${id}`;
  const mail = queuedMail(
    key,
    email,
    audience === 'editor'
      ? { kind: 'editor-sign-in', locale: fields.locale, siteUrl, codeId: id, minutes: CODE_MINUTES }
      : purpose === 'checkout'
        ? {
            kind: 'checkout-confirm',
            locale: fields.locale,
            siteUrl,
            codeId: id,
            minutes: CODE_MINUTES,
            planName: fields.planName ?? '',
          }
        : { kind: 'sign-in', locale: fields.locale, siteUrl, codeId: id, minutes: CODE_MINUTES },
    { sendBefore: expiresAt.getTime() },
  );
  // ONE statement for a client's address and a stranger's alike: the code row (its account, if
  // any, a subquery) and its email in the queue, claimed by this request, which sends it next.
  const account =
    audience === 'client' && purpose === 'sign-in'
      ? sql`(select ${accounts.customerId} from ${accounts} where ${accounts.email} = ${email})`
      : sql`null`;
  const editor =
    audience === 'editor'
      ? sql`(select ${lakeEditors.email} from ${lakeEditors} where ${lakeEditors.email} = ${email})`
      : sql`null`;
  const now = Date.now();
  const claimedAt = selfClaimedAt(now);
  const inserted = await (
    await db()
  ).execute<{ customer_id: string | null; editor_email: string | null; name: string | null }>(sql`
    with code as (
      insert into ${signinCodes} (id, subject, requester, audience, customer_id, editor_email, tries_left, next,
        locale, checkout, expires_at)
      values (${id}, ${codeSubject(email, audience)}, ${requesterOf(nonce, audience)}, ${audience}, ${account},
        ${editor}, ${CODE_TRIES}, ${fields.next}, ${fields.locale},
        ${fields.checkout ? JSON.stringify(fields.checkout) : null}::jsonb, ${expiresAt.toISOString()}::timestamptz)
      returning customer_id, editor_email),
    mail as (
      insert into ${mailQueue} (key_hash, to_address, kind, message, status, attempts, next_attempt_at, claimed_at, send_before)
      select ${mail.keyHash}, ${mail.toAddress}, ${mail.kind}, ${JSON.stringify(mail.message)}::jsonb, 'sending', 0,
        ${mail.nextAttemptAt.toISOString()}::timestamptz, ${claimedAt.toISOString()}::timestamptz,
        ${mail.sendBefore?.toISOString() ?? null}::timestamptz from code)
    select code.customer_id, code.editor_email, coalesce(${accounts.name}, ${lakeEditors.name}) as name from code
      left join ${accounts} on ${accounts.customerId} = code.customer_id
      left join ${lakeEditors} on ${lakeEditors.email} = code.editor_email`);
  const [code] = inserted.rows;
  // Sent off the request path: the answer never waits for (or reveals) the mail server. The only
  // statement it costs records the outcome (sent, or the row deleted when the address is no client's).
  const row = {
    ...mail,
    status: 'sending' as const,
    attempts: 0,
    claimedAt,
    sentAt: null,
    lastError: null,
    createdAt: new Date(now),
  };
  setImmediate(() => {
    sendSelfClaimed(row, {
      customerId: code?.customer_id ?? null,
      editorEmail: code?.editor_email ?? null,
      name: code?.name ?? null,
      checkout: purpose === 'checkout',
    }).catch((error) => logger.error(`[mail] sign-in email: ${String(error)}`));
  });
  return signInCookie(audience).serialize({ email, exp: Date.now() + PENDING_MINUTES * 60 * 1000, purpose, nonce });
}

/**
 * The limits on asking for a code, in ONE statement (consumeAll: counted only when all three have
 * room): those that bind the one who asks (their IP, the address from their IP), and the cap on
 * what one address receives from anywhere, so a request refused to its sender never uses up the
 * owner's allowance. (consumeAll's one race, a request counted in the others while racing the one
 * that fills its sender's window, costs the owner's cap at most one use per such race, and the
 * sender's own windows bound how many races they can run.)
 */
async function mayAskForCode(request: Request, email: string, audience: Audience = 'client'): Promise<boolean> {
  const ip = clientIp(request);
  const kind = AUDIENCES[audience].kind;
  return consumeAll([
    { kind: kind('signin-ip'), subject: ip, limit: LIMITS.signInPerIp },
    { kind: kind('signin-address-ip'), subject: `${email}\n${ip}`, limit: LIMITS.signInPerAddress },
    { kind: kind('signin-address'), subject: email, limit: LIMITS.signInPerAddressAll },
  ]);
}

export type RequestCodeResult =
  { status: 'sent'; headers: Headers } | { status: 'invalid-email' } | { status: 'rate-limited' };

/**
 * Sends a code and a one-click link to the address, if it is one of the audience's (a client's
 * account, an editor's); answers the same either way. `next`: where the signed-in person goes (a
 * client: a portal page from the form's `next`; an editor: the Studio the caller checked).
 */
export async function requestCode(
  request: Request,
  form: FormData,
  locale: Locale,
  audience: Audience = 'client',
  next?: string,
): Promise<RequestCodeResult> {
  const email = parseEmailAddress(form.get('email'));
  if (!email) return { status: 'invalid-email' };
  if (!(await mayAskForCode(request, email, audience))) return { status: 'rate-limited' };
  const cookie = await issueCode(
    request,
    email,
    'sign-in',
    { next: next ?? nextPath(form.get('next'), locale), locale },
    audience,
  );
  return { status: 'sent', headers: new Headers({ 'Set-Cookie': cookie }) };
}

/**
 * A checked payment waits for the payer to confirm the address they typed: a code (and link)
 * goes to that address, whether or not it belongs to a client, with the same answer either
 * way. Limited like a sign-in request.
 */
export async function requestCheckoutConfirmation(
  request: Request,
  payment: PendingCheckout,
  planName: string,
  locale: Locale,
): Promise<{ status: 'sent'; headers: Headers; redirectTo: string } | { status: 'rate-limited' }> {
  const email = normalizeEmail(payment.email);
  if (!(await mayAskForCode(request, email))) return { status: 'rate-limited' };
  const cookie = await issueCode(request, email, 'checkout', {
    next: `${localizePath('/account/subscription', locale)}?welcome=1`,
    locale,
    checkout: { ...payment, email },
    planName,
  });
  return {
    status: 'sent',
    headers: new Headers({ 'Set-Cookie': cookie }),
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
        billingDetails: pending.billingDetails ?? null,
      });
      await ensureCustomerAccount(result.customer);
      // The welcome email goes out now, without waiting for the job.
      await dispatchEngineEvents().catch((error) => logger.error(`[portal] events: ${String(error)}`));
      return { customerId: result.customer.id, paid: true };
    } catch (error) {
      // Already subscribed, or the checkout expired: the address is still proven, so its client signs in.
      if (!(error instanceof BillingError)) throw error;
      logger.info(`[portal] confirmed checkout ${pending.checkoutId} not completed: ${error.code}`);
    }
  }
  const account = await findAccountByEmail(pending.email);
  return account ? { customerId: account.customerId, paid: false } : null;
}

export type VerifyResult =
  | { status: 'signed-in'; headers: Headers; redirectTo: string }
  | { status: 'wrong-code'; triesLeft: number }
  /** Not six digits (once separators are dropped): refused, nothing counted. */
  | { status: 'malformed' }
  | { status: 'expired' }
  /** The address's budget of typed codes is spent: typed codes are refused for up to 24 hours. */
  | { status: 'locked' }
  | { status: 'rate-limited' };

type UsedCode = { customerId: string | null; next: string; checkout: unknown; session: boolean };

/** The session a right code starts in the statement that uses it: the sha256 of its secret id, and its end. */
export interface StartedSession {
  idHash: string;
  expiresAt: Date;
}

/**
 * Uses the code row `id` of `audience`, in ONE statement: deleted and returned (or already gone:
 * null), and when the row names its person, their session `session` is started in the same
 * statement (a client's `sessions` row, or an editor's `lake_editor_sessions` row; a payment's
 * confirmation starts its session once the payment is taken). Every other live code of the same
 * address and audience (sign-in or payment, any browser) gets no tries left in that statement
 * too: once the address is proven, no code of it can be typed in any more (a guesser holding codes
 * of their own loses them); their emailed links still work, since they prove the mailbox as well
 * and a payment waiting in one is not lost.
 */
async function spendCode(id: string, audience: Audience, session: StartedSession): Promise<UsedCode | null> {
  const started =
    audience === 'editor'
      ? sql`insert into ${lakeEditorSessions} (id_hash, email, expires_at)
          select ${session.idHash}, editor_email, ${session.expiresAt.toISOString()}::timestamptz from used
          where editor_email is not null
          returning email`
      : sql`insert into ${sessions} (id_hash, customer_id, expires_at)
          select ${session.idHash}, customer_id, ${session.expiresAt.toISOString()}::timestamptz from used
          where customer_id is not null and checkout is null
          returning customer_id`;
  const result = await (
    await db()
  ).execute<{ customer_id: string | null; next: string; checkout: unknown; session: boolean }>(sql`
    with used as (
      delete from ${signinCodes}
      where id = ${id} and audience = ${audience} and expires_at > ${new Date().toISOString()}::timestamptz
      returning customer_id, editor_email, next, checkout, subject),
    others as (
      update ${signinCodes} set tries_left = 0
      where subject in (select subject from used) and audience = ${audience} and id <> ${id} and tries_left > 0
      returning id),
    started as (${started})
    select used.customer_id, used.next, used.checkout, exists (select 1 from started) as session from used`);
  const [row] = result.rows;
  return row ? { customerId: row.customer_id, next: row.next, checkout: row.checkout, session: row.session } : null;
}

type Checked =
  | { status: 'used'; used: UsedCode }
  | { status: 'wrong-code'; triesLeft: number }
  /** Not six digits (once separators are dropped): refused, nothing counted. */
  | { status: 'malformed' }
  | { status: 'expired' }
  | { status: 'locked' }
  | { status: 'rate-limited' };

/**
 * Checks the posted code (typed, or the emailed link's `c` and `code`) for `audience`; a right one
 * is used and starts `session`. Every limit, budget and statement of the sign-in is here, once.
 */
async function checkCode(
  request: Request,
  form: FormData,
  audience: Audience,
  session: StartedSession,
): Promise<Checked> {
  // The code as typed or pasted ("123 456", Arabic-Indic or Persian digits, marks a copy carries):
  // read here, never rewritten in the field. What is not six digits is no guess: it is refused
  // before anything is counted or spent (a try, the budget, the IP's limit).
  const code = digitsOf(String(form.get('code') ?? ''));
  if (!/^\d{6}$/.test(code)) return { status: 'malformed' };
  const linkId = String(form.get('c') ?? '');
  const kind = AUDIENCES[audience].kind;
  if (!(await consume(kind('verify-ip'), clientIp(request), LIMITS.verifyPerIp))) return { status: 'rate-limited' };

  if (linkId) {
    // The emailed link: its id names the row, and its code must be that row's. Guesses made
    // elsewhere do not spend it; a wrong code on a link spends one of its tries.
    if (!/^[A-Za-z0-9]{10,40}$/.test(linkId)) return { status: 'expired' };
    let used: UsedCode | null = null;
    if (safeEqual(codeOf(linkId, audience), code)) used = await spendCode(linkId, audience, session);
    else
      await (
        await db()
      )
        .update(signinCodes)
        .set({ triesLeft: sql`${signinCodes.triesLeft} - 1` })
        .where(and(eq(signinCodes.id, linkId), eq(signinCodes.audience, audience), gt(signinCodes.triesLeft, 0)));
    return used ? { status: 'used', used } : { status: 'expired' };
  }
  const pending = await readPending(request, audience);
  if (!pending) return { status: 'expired' };
  // One statement spends a try on every live code this browser asked for, for this address.
  const live = await (
    await db()
  )
    .update(signinCodes)
    .set({ triesLeft: sql`${signinCodes.triesLeft} - 1` })
    .where(
      and(
        eq(signinCodes.subject, codeSubject(pending.email, audience)),
        eq(signinCodes.requester, requesterOf(pending.nonce, audience)),
        eq(signinCodes.audience, audience),
        gt(signinCodes.expiresAt, new Date()),
        gt(signinCodes.triesLeft, 0),
      ),
    )
    .returning({ id: signinCodes.id, triesLeft: signinCodes.triesLeft });
  if (!live.length) return { status: 'expired' };
  // The address's budget, whatever the IP or browser: one use per live code this guess is checked
  // against, taken before it is checked, so concurrent guesses cannot all pass the last one.
  const taken = await takeBudget(kind('verify-address'), pending.email, LIMITS.verifyPerAddress, live.length);
  if (!taken) {
    await (
      await db()
    )
      .update(signinCodes)
      .set({ triesLeft: 0 })
      .where(
        and(
          eq(signinCodes.subject, codeSubject(pending.email, audience)),
          eq(signinCodes.audience, audience),
          gt(signinCodes.triesLeft, 0),
        ),
      );
    return { status: 'locked' };
  }
  const match = live.find((row) => safeEqual(codeOf(row.id, audience), code));
  const used = match ? await spendCode(match.id, audience, session) : null;
  // A right code is no failed guess: its uses go back (the other codes it was checked against are spent).
  if (used) {
    await giveBack(taken);
    return { status: 'used', used };
  }
  if (match) return { status: 'expired' }; // used at the same moment by another request
  const triesLeft = Math.max(...live.map((row) => row.triesLeft));
  return triesLeft > 0 ? { status: 'wrong-code', triesLeft } : { status: 'expired' };
}

export type EditorSignInResult =
  | { status: 'signed-in'; next: string; headers: Headers }
  | { status: 'wrong-code'; triesLeft: number }
  /** Not six digits (once separators are dropped): refused, nothing counted. */
  | { status: 'malformed' }
  | { status: 'expired' }
  | { status: 'locked' }
  | { status: 'rate-limited' };

/**
 * An editor's code or link (app/lake/editors.server.ts makes the token and its `session`): the
 * same checks as a client's. `next` is where the code was asked for (the Studio the caller checked).
 */
export async function verifyEditorSignIn(
  request: Request,
  form: FormData,
  session: StartedSession,
): Promise<EditorSignInResult> {
  const checked = await checkCode(request, form, 'editor', session);
  if (checked.status !== 'used') return checked;
  if (!checked.used.session) return { status: 'expired' };
  const headers = new Headers({ 'Set-Cookie': await clearPendingCookie('editor') });
  return { status: 'signed-in', next: checked.used.next, headers };
}

export async function verifyCode(request: Request, form: FormData, locale: Locale): Promise<VerifyResult> {
  const session = newSession();
  const checked = await checkCode(request, form, 'client', session);
  if (checked.status !== 'used') return checked;
  const { used } = checked;

  let redirectTo = nextPath(form.get('next') || used.next, locale);
  const headers = new Headers();
  if (used.session) {
    headers.append('Set-Cookie', await session.cookie());
  } else {
    // A confirmed payment (or a row whose client was erased meanwhile): the payer has proven the
    // address, so the payment is taken now, once (the code is gone), and its client signs in.
    const confirmed = used.checkout
      ? await completeConfirmedCheckout(used.checkout as unknown as PendingCheckout)
      : null;
    if (!confirmed) return { status: 'expired' };
    if (!confirmed.paid) redirectTo = localizePath('/account/subscription', locale);
    headers.append('Set-Cookie', await startSession({ customerId: confirmed.customerId }));
  }
  // The label-only hint beside the session (signed-in-hint.ts): the public pages' header reads it.
  headers.append('Set-Cookie', signedInHintCookie(true));
  headers.append('Set-Cookie', await clearPendingCookie('client'));
  return { status: 'signed-in', headers, redirectTo };
}
