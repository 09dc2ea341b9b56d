import { localizePath, type Locale } from '~/i18n';
import { keyed, verifyKeyed } from '~/portal/crypto.server';
import { CONFIRM_LINK_DAYS } from './wording';

/**
 * The newsletter's emailed links, signed with the server's secret (HMAC, each purpose named, so a
 * confirmation signature never unsubscribes and the reverse; previous secrets still verify during a
 * rotation) and derived when the email is rendered: neither the database nor the mail queue holds
 * one.
 * - Confirm: `/newsletter/confirm?s={sign-up id}&at={issued, ms}&t={signature}` (and /ar/…). It works
 *   for CONFIRM_LINK_DAYS from `at`; what it does is decided by the sign-up's row (newsletter.server.ts):
 *   once confirmed, the same link only says so.
 * - Unsubscribe: `/newsletter/unsubscribe?s={sign-up id}&t={signature}`: no expiry (every email
 *   carries one, and it must work as long as the person may read the email).
 */
export const CONFIRM_PATH = '/newsletter/confirm';
export const UNSUBSCRIBE_PATH = '/newsletter/unsubscribe';
export const CONFIRM_LINK_MS = CONFIRM_LINK_DAYS * 24 * 60 * 60 * 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const base = (siteUrl: string) => siteUrl.replace(/\/+$/, '');

const confirmSignature = (id: string, issuedAt: number, secret?: string) =>
  keyed('newsletter-confirm', `${id}.${issuedAt}`, secret);
const unsubscribeSignature = (id: string, secret?: string) => keyed('newsletter-unsubscribe', id, secret);

export function confirmUrl(siteUrl: string, locale: Locale, id: string, issuedAt: number): string {
  const query = new URLSearchParams({ s: id, at: String(issuedAt), t: confirmSignature(id, issuedAt) });
  return `${base(siteUrl)}${localizePath(CONFIRM_PATH, locale)}?${query}`;
}

export function unsubscribeUrl(siteUrl: string, locale: Locale, id: string): string {
  const query = new URLSearchParams({ s: id, t: unsubscribeSignature(id) });
  return `${base(siteUrl)}${localizePath(UNSUBSCRIBE_PATH, locale)}?${query}`;
}

export type ConfirmLink = { ok: true; id: string; issuedAt: number } | { ok: false; reason: 'invalid' | 'expired' };

/** A confirmation link's parameters, checked: genuine (else 'invalid'), and issued within 7 days (else 'expired'). */
export function readConfirmLink(params: URLSearchParams, now: number): ConfirmLink {
  const id = params.get('s') ?? '';
  const at = params.get('at') ?? '';
  const signature = params.get('t') ?? '';
  if (!UUID.test(id) || !/^\d{1,15}$/.test(at) || !/^[A-Za-z0-9_-]{43}$/.test(signature))
    return { ok: false, reason: 'invalid' };
  const issuedAt = Number(at);
  if (!verifyKeyed('newsletter-confirm', `${id}.${issuedAt}`, signature)) return { ok: false, reason: 'invalid' };
  if (issuedAt > now + 60_000 || now - issuedAt > CONFIRM_LINK_MS) return { ok: false, reason: 'expired' };
  return { ok: true, id, issuedAt };
}

/** An unsubscribe link's sign-up id, or null when the link is not genuine. */
export function readUnsubscribeLink(params: URLSearchParams): string | null {
  const id = params.get('s') ?? '';
  const signature = params.get('t') ?? '';
  if (!UUID.test(id) || !/^[A-Za-z0-9_-]{43}$/.test(signature)) return null;
  return verifyKeyed('newsletter-unsubscribe', id, signature) ? id : null;
}
