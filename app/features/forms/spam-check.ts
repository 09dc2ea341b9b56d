/**
 * The forms' spam checks (no captcha service; every verdict has a message, nothing is
 * dropped silently), pure so they run in Node and browsers (HMAC-SHA-256 over Web Crypto):
 * - a honeypot field (HONEYPOT_FIELD) that people never see must stay empty;
 * - the form carries a signed issue time (a form token) of one of two kinds (ADR 0021):
 *   a page token (`{ms}.p.{signature}`), rendered by the server into every page's forms, so a
 *   post without JavaScript is accepted the first time; it is shared by everyone who gets that
 *   cached page, so it is accepted for PAGE_TOKEN_MAX_AGE_MS and carries any number of
 *   different submissions (each once). And a visitor token (`{ms}.{signature}`, GET
 *   /api/form-token), asked for by JavaScript when a field is first used: the visitor's own
 *   start time, accepted for TOKEN_MAX_AGE_MS, one stored submission only
 *   (submissions.server.ts);
 * - a submission without a token (a page from before page tokens) is answered 'confirm' (with
 *   a token); one less than MIN_FILL_MS (3 s) after its token's time is 'too fast'; a forged or
 *   future token, or one older than its kind's age, is 'expired'.
 */
import { FORM_KEYS, FORM_TOKEN_FIELD, HONEYPOT_FIELD } from './fields';
import { fieldsOf, type FormInput, type FormMessageKey } from './validation';

/** A submission sooner than this after its token was issued is 'too fast'. */
export const MIN_FILL_MS = 3000;
/** A visitor token is accepted for two hours after it was issued. */
export const TOKEN_MAX_AGE_MS = 2 * 60 * 60 * 1000;
/**
 * A page token is accepted this long after the page was rendered: the page cache keeps a page
 * up to CONTENT_CACHE_SECONDS (24 h by default in the embedded world, 5 min hosted), a CDN
 * 60 s more, and the visitor may then take the visitor token's two hours to fill the form.
 */
export const PAGE_TOKEN_MAX_AGE_MS = 26 * 60 * 60 * 1000;

/** 'page': rendered into the cached HTML, shared; 'visitor': one visitor's own, from /api/form-token. */
export type FormTokenKind = 'page' | 'visitor';

/** How long a token of this kind is accepted. */
export const maxAgeOf = (kind: FormTokenKind) => (kind === 'page' ? PAGE_TOKEN_MAX_AGE_MS : TOKEN_MAX_AGE_MS);

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

/**
 * The hidden field's value: `{issuedAt ms}.{HMAC-SHA-256 signature, base64url}` for a visitor
 * token, `{issuedAt ms}.p.{signature}` for a page token. The kind is signed with the time
 * (`{ms}` or `{ms}.p`), so a visitor token cannot be relabelled as a page token.
 */
export async function createFormToken(
  issuedAt: number,
  secret: string,
  kind: FormTokenKind = 'visitor',
): Promise<string> {
  const signed = `${Math.floor(issuedAt)}${kind === 'page' ? '.p' : ''}`;
  const signature = await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(signed));
  return `${signed}.${toBase64Url(signature)}`;
}

/**
 * The signed start time, or null when the token is missing, malformed or forged. `secret` may
 * list several secrets (the current one, then previous ones during a rotation): any may verify.
 */
export async function readFormToken(token: unknown, secret: string | readonly string[]): Promise<number | null> {
  return (await readFormTokenOf(token, secret))?.issuedAt ?? null;
}

/** The signed issue time and kind, or null when the token is missing, malformed or forged. */
export async function readFormTokenOf(
  token: unknown,
  secret: string | readonly string[],
): Promise<{ issuedAt: number; kind: FormTokenKind } | null> {
  if (typeof token !== 'string') return null;
  const match = /^(\d{1,16}(\.p)?)\.([A-Za-z0-9_-]{20,100})$/.exec(token);
  if (!match) return null;
  const [, signed = '', page, sig = ''] = match;
  const signature = fromBase64Url(sig);
  if (!signature) return null;
  for (const candidate of typeof secret === 'string' ? [secret] : secret) {
    if (await crypto.subtle.verify('HMAC', await hmacKey(candidate), signature, encoder.encode(signed)))
      return { issuedAt: Number.parseInt(signed, 10), kind: page ? 'page' : 'visitor' };
  }
  return null;
}

/** A genuine token still within its kind's age at `now` (not issued in the future). */
export async function liveFormToken(
  token: unknown,
  secret: string | readonly string[],
  now: number,
): Promise<{ issuedAt: number; kind: FormTokenKind } | null> {
  const read = await readFormTokenOf(token, secret);
  if (!read || read.issuedAt > now || now - read.issuedAt > maxAgeOf(read.kind)) return null;
  return read;
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
  // No token (a page rendered before page tokens, or a hand-made post): the answer carries one.
  if (token.trim() === '') return spam('missing', FORM_KEYS.confirmSend, FORM_KEYS.confirmTitle);
  const live = await liveFormToken(token, options.secret, options.now);
  if (!live) return spam('expired', FORM_KEYS.spamExpired);
  if (options.now - live.issuedAt < (options.minFillMs ?? MIN_FILL_MS)) {
    return spam('tooFast', FORM_KEYS.spamTooFast);
  }
  return { ok: true };
}
