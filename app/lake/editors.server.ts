import { createHash } from 'node:crypto';
import { createCookie } from '@remix-run/node';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { db } from '~/db/client.server';
import { lakeEditorCodes, lakeEditors, lakeEditorSessions } from '~/db/schema.server';
import type { Locale } from '~/i18n';
import { fixedT } from '~/i18next.server';
import { parseEmailAddress } from '~/lib/email';
import { env, isLoopbackSite } from '~/lib/env.server';
import { clientIp, derivedCode, pseudonym, randomId, safeEqual } from '~/portal/crypto.server';
import { consume, consumeAll, LIMITS } from '~/portal/limits.server';
import { mailDeps } from '~/portal/mail-queue.server';
import { portalCookieName, portalCookiesSecure } from '~/portal/session.server';
import type { Editor } from './api.server';

/**
 * Who may use the local Content Lake: its editors only (ADR 0025), each with an account of their
 * own (`lake_editors`, added and removed by an operator: `npm run lake:editor`), signed in with a
 * code emailed to them, the client portal's mechanism (app/portal/signin.server.ts) applied to
 * tables of their own, so a client's account, code or session is never an editor's:
 * - asking for a code: the same answer and statements whether or not the address is an editor's
 *   (a code row is stored either way, naming the editor or none); the email goes out off the
 *   request path, and only to an editor. Limited per IP, per address and IP, per address (the
 *   portal's limits and counters, under the lake's own kinds).
 * - the code is derived from the row's id with the server's secret (never stored), bound to the
 *   browser that asked (a nonce in the short-lived `__lake_signin` cookie); each check spends a
 *   try on every live code of this browser and address in one statement; 5 tries, 10 minutes.
 * - the right code starts a session (`lake_editor_sessions`, the sha256 of a random id) in the
 *   statement that deletes the code; the id is the token the Studio keeps (`#token=`, then its
 *   localStorage) and sends as `Authorization: Bearer`. It ends at its expiry, when the editor
 *   signs out in the Studio (`/auth/logout`), or when the editor is removed (cascade).
 */
export const EDITOR_SESSION_HOURS = 12;
export const EDITOR_CODE_MINUTES = 10;
export const EDITOR_CODE_TRIES = 5;
const PENDING_MINUTES = 15;
/** The token's prefix: `lk1.` and 32 random bytes (the Studio takes a `#token=` of 32 characters or more). */
const TOKEN = /^lk1\.([A-Za-z0-9]{43})$/;

const codeSubject = (email: string) => pseudonym('lake-code-address', email);
const requesterOf = (nonce: string) => pseudonym('lake-code-requester', nonce);
/** An editor's code is derived under its own name: the same id never gives a client's code. */
const editorCode = (id: string) => derivedCode(`lake-editor:${id}`);
const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** A stable, opaque user id for an editor (Sanity's ids look like `pXyZ…`). */
export const editorId = (email: string) =>
  `e${createHash('sha256').update(email.toLowerCase()).digest('base64url').slice(0, 12)}`;

// -- accounts (the operator's command) -------------------------------------------------------

/** Makes the address an editor's (or renames the editor). */
export async function addEditor(address: string, name: string): Promise<string> {
  const email = parseEmailAddress(address);
  if (!email) throw new Error(`not an email address: ${address}`);
  const clean = name.trim().slice(0, 200) || email;
  await (
    await db()
  )
    .insert(lakeEditors)
    .values({ email, name: clean })
    .onConflictDoUpdate({ target: lakeEditors.email, set: { name: clean } });
  return email;
}

/** Removes an editor: their codes and sessions go with them (cascade), so their Studio is signed out at once. */
export async function removeEditor(address: string): Promise<boolean> {
  const email = parseEmailAddress(address);
  if (!email) return false;
  const rows = await (
    await db()
  )
    .delete(lakeEditors)
    .where(eq(lakeEditors.email, email))
    .returning({ email: lakeEditors.email });
  return rows.length > 0;
}

/** The demo editor of a fresh clone (README): `editor@example.com`, whose code lands in the outbox. */
export const DEMO_EDITOR = { email: 'editor@example.com', name: 'Demo Editor' } as const;

/**
 * At the lake's start. On a site only this machine can reach (a loopback SITE_URL), the demo
 * editor exists, so the Studio of a fresh clone has someone to sign in as with nothing to set up
 * (as the portal has its demo clients). On a public site it does not: an account no operator
 * added has no place there, so one left from a loopback run is removed (with its sessions).
 */
export async function prepareDemoEditor(loopback: boolean): Promise<'seeded' | 'kept' | 'removed' | 'none'> {
  const database = await db();
  if (!loopback)
    return (await database.delete(lakeEditors).where(eq(lakeEditors.email, DEMO_EDITOR.email)).returning()).length
      ? 'removed'
      : 'none';
  const added = await database.insert(lakeEditors).values(DEMO_EDITOR).onConflictDoNothing().returning();
  return added.length ? 'seeded' : 'kept';
}

export async function listEditors(): Promise<{ email: string; name: string }[]> {
  return (await db()).select({ email: lakeEditors.email, name: lakeEditors.name }).from(lakeEditors);
}

// -- the sign-in page ------------------------------------------------------------------------

let cookieOfSignIn: ReturnType<typeof createCookie> | undefined;
function signInCookie() {
  const secure = portalCookiesSecure();
  cookieOfSignIn ??= createCookie(portalCookieName('lake_signin', secure), {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: PENDING_MINUTES * 60,
    secrets: env().sessionSecrets,
  });
  return cookieOfSignIn;
}

type Pending = { email: string; nonce: string };

export async function pendingEditorSignIn(request: Request): Promise<Pending | null> {
  const value = (await signInCookie().parse(request.headers.get('Cookie'))) as {
    email?: unknown;
    exp?: unknown;
    nonce?: unknown;
  } | null;
  if (!value || typeof value.email !== 'string' || typeof value.exp !== 'number' || value.exp < Date.now()) return null;
  if (typeof value.nonce !== 'string' || !/^[A-Za-z0-9]{16,64}$/.test(value.nonce)) return null;
  return { email: value.email, nonce: value.nonce };
}

export type EditorCodeResult =
  { status: 'sent'; headers: Headers } | { status: 'invalid-email' } | { status: 'rate-limited' };

/** Sends an editor a code, if the address is an editor's; answers the same either way. */
export async function requestEditorCode(request: Request, form: FormData, locale: Locale): Promise<EditorCodeResult> {
  const email = parseEmailAddress(form.get('email'));
  if (!email) return { status: 'invalid-email' };
  const ip = clientIp(request);
  const allowed = await consumeAll([
    { kind: 'lake-signin-ip', subject: ip, limit: LIMITS.signInPerIp },
    { kind: 'lake-signin-address-ip', subject: `${email}\n${ip}`, limit: LIMITS.signInPerAddress },
    { kind: 'lake-signin-address', subject: email, limit: LIMITS.signInPerAddressAll },
  ]);
  if (!allowed) return { status: 'rate-limited' };
  const nonce = (await pendingEditorSignIn(request))?.nonce ?? randomId(24);
  const id = randomId();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + EDITOR_CODE_MINUTES * 60_000);
  const database = await db();
  // ONE statement for an editor's address and a stranger's alike (the editor, if any, a subquery).
  const inserted = await database.execute<{ email: string | null; name: string | null }>(sql`
    with code as (
      insert into ${lakeEditorCodes} (id, subject, requester, email, tries_left, expires_at)
      values (${id}, ${codeSubject(email)}, ${requesterOf(nonce)},
        (select ${lakeEditors.email} from ${lakeEditors} where ${lakeEditors.email} = ${email}),
        ${EDITOR_CODE_TRIES}, ${expiresAt.toISOString()}::timestamptz)
      returning email)
    select code.email, ${lakeEditors.name} as name from code left join ${lakeEditors} on ${lakeEditors.email} = code.email`);
  const editor = inserted.rows[0];
  // Off the request path: the answer never waits for (or reveals) the mail server, and expired
  // codes and sessions are swept after it.
  setImmediate(() => {
    if (editor?.email)
      sendEditorCode(editor.email, editor.name ?? editor.email, id, locale).catch((error) =>
        console.error(`[lake] editor sign-in email: ${String(error)}`),
      );
    Promise.all([
      database.delete(lakeEditorCodes).where(lt(lakeEditorCodes.expiresAt, now)),
      database.delete(lakeEditorSessions).where(lt(lakeEditorSessions.expiresAt, now)),
    ]).catch((error) => console.error(`[lake] sweeping expired editor codes and sessions: ${String(error)}`));
  });
  const cookie = await signInCookie().serialize({ email, exp: Date.now() + PENDING_MINUTES * 60_000, nonce });
  return { status: 'sent', headers: new Headers({ 'Set-Cookie': cookie }) };
}

async function sendEditorCode(email: string, name: string, id: string, locale: Locale): Promise<void> {
  const t = fixedT(locale, 'portal');
  const deps = mailDeps();
  const code = editorCode(id);
  const values = { name, code, minutes: EDITOR_CODE_MINUTES, site: env().siteUrl };
  await deps.mailer.send({
    to: email,
    from: deps.from,
    subject: t('studioSignIn.mail.subject', values),
    text: [
      t('studioSignIn.mail.greeting', values),
      '',
      t('studioSignIn.mail.code', values),
      '',
      code,
      '',
      t('studioSignIn.mail.notYou', values),
    ].join('\n'),
  });
}

export type EditorVerifyResult =
  | { status: 'signed-in'; token: string; headers: Headers }
  | { status: 'wrong-code'; triesLeft: number }
  | { status: 'expired' }
  | { status: 'rate-limited' };

/** Checks a typed code against the codes this browser asked for; the right one starts a session. */
export async function verifyEditorCode(request: Request, form: FormData): Promise<EditorVerifyResult> {
  const code = String(form.get('code') ?? '')
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/\s+/g, '');
  if (!(await consume('lake-verify-ip', clientIp(request), LIMITS.verifyPerIp))) return { status: 'rate-limited' };
  const pending = await pendingEditorSignIn(request);
  if (!pending) return { status: 'expired' };
  const database = await db();
  // One statement spends a try on every live code this browser asked for, for this address.
  const live = await database
    .update(lakeEditorCodes)
    .set({ triesLeft: sql`${lakeEditorCodes.triesLeft} - 1` })
    .where(
      and(
        eq(lakeEditorCodes.subject, codeSubject(pending.email)),
        eq(lakeEditorCodes.requester, requesterOf(pending.nonce)),
        gt(lakeEditorCodes.expiresAt, new Date()),
        gt(lakeEditorCodes.triesLeft, 0),
      ),
    )
    .returning({ id: lakeEditorCodes.id, triesLeft: lakeEditorCodes.triesLeft });
  if (!live.length) return { status: 'expired' };
  const match = /^\d{6}$/.test(code) ? live.find((row) => safeEqual(editorCode(row.id), code)) : undefined;
  if (!match) {
    const triesLeft = Math.max(...live.map((row) => row.triesLeft));
    return triesLeft > 0 ? { status: 'wrong-code', triesLeft } : { status: 'expired' };
  }
  // The code is deleted and the session started in ONE statement (only for a row naming an editor).
  const token = `lk1.${randomId(32).slice(0, 43)}`;
  const expiresAt = new Date(Date.now() + EDITOR_SESSION_HOURS * 3_600_000);
  const started = await database.execute<{ email: string }>(sql`
    with used as (
      delete from ${lakeEditorCodes} where id = ${match.id} and expires_at > ${new Date().toISOString()}::timestamptz
      returning email)
    insert into ${lakeEditorSessions} (id_hash, email, expires_at)
    select ${tokenHash(token)}, email, ${expiresAt.toISOString()}::timestamptz from used where email is not null
    returning email`);
  if (!started.rows.length) return { status: 'expired' };
  const headers = new Headers({ 'Set-Cookie': await signInCookie().serialize('', { maxAge: 0 }) });
  return { status: 'signed-in', token, headers };
}

/** `sanity dev` on this machine (npm run studio:dev): the only Studio besides the site's own /studio. */
export const DEV_STUDIO_ORIGINS = ['http://localhost:3333', 'http://127.0.0.1:3333'];

/**
 * Where the sign-in page's forms may lead besides the site (its CSP's form-action also governs
 * the redirect after a post): for a site only this machine reaches, the development Studio.
 */
export function studioSignInFormOrigins(pathname: string, siteUrl: string): string[] {
  return isLoopbackSite(siteUrl) && /^(\/ar)?\/studio\/sign-in$/.test(pathname) ? DEV_STUDIO_ORIGINS : [];
}

/**
 * Where a signed-in editor goes with their token: back to the Studio that sent them (Sanity adds
 * `?origin=` to a sign-in provider's address), when that is the site's own /studio or, for a site
 * only this machine reaches, `sanity dev` on it (`npm run studio:dev`, port 3333); else the site's
 * /studio. The token is never handed to any other origin.
 */
export function studioReturn(request: Request, siteUrl = env().siteUrl): string {
  const asked = new URL(request.url).searchParams.get('origin');
  let url: URL;
  try {
    url = new URL(asked ?? '');
  } catch {
    return '/studio';
  }
  if (url.username || url.password) return '/studio';
  if (url.origin === new URL(siteUrl).origin && /^\/studio(\/|$)/.test(url.pathname)) return url.pathname;
  if (isLoopbackSite(siteUrl) && DEV_STUDIO_ORIGINS.includes(url.origin)) return url.origin + url.pathname;
  return '/studio';
}

// -- the lake's side ---------------------------------------------------------------------------

const bearer = (request: Request) => /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1] ?? '';

/** The editor a token names: a live session of an editor who is still one, or null. */
export async function editorOfToken(token: string): Promise<Editor | null> {
  if (!TOKEN.test(token)) return null;
  const [row] = await (
    await db()
  )
    .select({ email: lakeEditors.email, name: lakeEditors.name })
    .from(lakeEditorSessions)
    .innerJoin(lakeEditors, eq(lakeEditors.email, lakeEditorSessions.email))
    .where(and(eq(lakeEditorSessions.idHash, tokenHash(token)), gt(lakeEditorSessions.expiresAt, new Date())));
  return row ? { id: editorId(row.email), email: row.email, name: row.name } : null;
}

/** The editor a request to the lake comes from (`Authorization: Bearer`), or null. */
export function editorFromRequest(request: Request): Promise<Editor | null> {
  return editorOfToken(bearer(request));
}

/** Signs the request's editor session out (the Studio's `/auth/logout`): the token is worth nothing after. */
export async function signOutEditor(request: Request): Promise<void> {
  const token = bearer(request);
  if (!TOKEN.test(token)) return;
  await (await db()).delete(lakeEditorSessions).where(eq(lakeEditorSessions.idHash, tokenHash(token)));
}
