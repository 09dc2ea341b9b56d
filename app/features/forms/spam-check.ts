/**
 * The forms' spam checks (no captcha service; every verdict has a message, nothing is
 * dropped silently), pure so they run in Node and browsers (HMAC-SHA-256 over Web Crypto):
 * - a honeypot field (HONEYPOT_FIELD) that people never see must stay empty;
 * - the form carries a signed start time (createFormToken), issued when the form is first
 *   used: with JavaScript when a field is first focused or touched (GET /api/form-token),
 *   without it by the answer to the first post, which asks to send again (ADR 0010). Pages
 *   themselves carry no token, so they are the same for every visitor and can be cached;
 * - a submission without a token is answered 'confirm' (with a token); one less than
 *   MIN_FILL_MS (3 s) after its token is 'too fast'; a forged or future token, or one older
 *   than TOKEN_MAX_AGE_MS (2 h), is 'expired'; a token carries one stored submission only
 *   (see submissions.server.ts).
 */
import { FORM_KEYS, FORM_TOKEN_FIELD, HONEYPOT_FIELD } from './fields';
import { fieldsOf, type FormInput, type FormMessageKey } from './validation';

/** A submission sooner than this after its token was issued is 'too fast'. */
export const MIN_FILL_MS = 3000;
/** A form token is accepted for two hours after it was issued. */
export const TOKEN_MAX_AGE_MS = 2 * 60 * 60 * 1000;

const encoder = new TextEncoder();

function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
}

function toBase64Url(bytes: ArrayBuffer): string {
  let binary = '';
  for (const b of new Uint8Array(bytes)) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(s: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]+$/.test(s)) return null;
  try {
    const binary = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

/** The hidden field's value: `{issuedAt ms}.{HMAC-SHA-256 signature, base64url}`. */
export async function createFormToken(issuedAt: number, secret: string): Promise<string> {
  const stamp = String(Math.floor(issuedAt));
  const signature = await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(stamp));
  return `${stamp}.${toBase64Url(signature)}`;
}

/**
 * The signed start time, or null when the token is missing, malformed or forged. `secret` may
 * list several secrets (the current one, then previous ones during a rotation): any may verify.
 */
export async function readFormToken(token: unknown, secret: string | readonly string[]): Promise<number | null> {
  if (typeof token !== 'string') return null;
  const match = /^(\d{1,16})\.([A-Za-z0-9_-]{20,100})$/.exec(token);
  if (!match) return null;
  const [, stamp = '', sig = ''] = match;
  const signature = fromBase64Url(sig);
  if (!signature) return null;
  for (const candidate of typeof secret === 'string' ? [secret] : secret) {
    if (await crypto.subtle.verify('HMAC', await hmacKey(candidate), signature, encoder.encode(stamp)))
      return Number(stamp);
  }
  return null;
}

export type SpamVerdict =
  | { ok: true }
  | {
      ok: false;
      reason: SpamReason;
      titleKey: FormMessageKey;
      messageKey: FormMessageKey;
    };

export type SpamReason = 'honeypot' | 'missing' | 'tooFast' | 'expired';

const spam = (
  reason: SpamReason,
  messageKey: FormMessageKey,
  titleKey: FormMessageKey = FORM_KEYS.spamTitle,
): SpamVerdict => ({
  ok: false,
  reason,
  titleKey,
  messageKey,
});

/** Honeypot and minimum fill time, from the submitted form. */
export async function checkSpam(
  input: FormInput,
  options: { secret: string | readonly string[]; now: number; minFillMs?: number },
): Promise<SpamVerdict> {
  const { [HONEYPOT_FIELD]: honeypot, [FORM_TOKEN_FIELD]: token } = fieldsOf(input, [HONEYPOT_FIELD, FORM_TOKEN_FIELD]);
  if (honeypot.trim() !== '') return spam('honeypot', FORM_KEYS.spamHoneypot);
  // No token yet (a form posted without JavaScript): the answer carries one; send again.
  if (token.trim() === '') return spam('missing', FORM_KEYS.confirmSend, FORM_KEYS.confirmTitle);
  const startedAt = await readFormToken(token, options.secret);
  if (startedAt === null || startedAt > options.now || options.now - startedAt > TOKEN_MAX_AGE_MS)
    return spam('expired', FORM_KEYS.spamExpired);
  if (options.now - startedAt < (options.minFillMs ?? MIN_FILL_MS)) {
    return spam('tooFast', FORM_KEYS.spamTooFast);
  }
  return { ok: true };
}
