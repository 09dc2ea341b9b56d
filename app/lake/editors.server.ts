import { createHash } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import { db } from '~/db/client.server';
import { lakeEditors, lakeEditorSessions } from '~/db/schema.server';
import type { Locale } from '~/i18n';
import { parseEmailAddress } from '~/lib/email';
import { env, isLoopbackSite } from '~/lib/env.server';
import { randomId } from '~/portal/crypto.server';
import {
  pendingEmail,
  requestCode,
  verifyEditorSignIn,
  type EditorSignInResult,
  type RequestCodeResult,
} from '~/portal/signin.server';
import type { Editor } from './api.server';
import { log as logger } from '~/lib/log.server';

/**
 * Who may use the local Content Lake: its editors only (ADR 0025), each with an account of their
 * own (`lake_editors`, added and removed by an operator: `npm run lake:editor`). They sign in by
 * the client portal's sign-in, the same module with the audience `editor` (app/portal/signin.server.ts,
 * issue 40): a code and a one-click link emailed to them, the same per-IP and per-address limits, the
 * same rolling budget of typed codes per address, the same code rows (`signin_codes`, naming the
 * editor in `editor_email`), a used code spending the address's others. A client's account, code or
 * session is never an editor's: the rows name one or the other, and codes are derived per audience.
 * - the right code (or link) starts a session (`lake_editor_sessions`, the sha256 of a random id) in
 *   the statement that deletes the code; the id is the token the Studio keeps (`#token=`, then its
 *   localStorage) and sends as `Authorization: Bearer`. It ends at its expiry, when the editor
 *   signs out in the Studio (`/auth/logout`), or when the editor is removed (cascade).
 */
export const EDITOR_SESSION_HOURS = 12;
/** The token's prefix: `lk1.` and 32 random bytes (the Studio takes a `#token=` of 32 characters or more). */
const TOKEN = /^lk1\.([A-Za-z0-9]{43})$/;

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
// The editors' sign-in is the portal's (app/portal/signin.server.ts) with the audience `editor`:
// the same limits and rolling budget, the same code rows, the same one-click link, the same
// statements. Only the session differs: a bearer token the Studio keeps, not a cookie.

/** The address an editor's code was sent to (from the short-lived `__lake_signin` cookie), or null. */
export async function pendingEditorSignIn(request: Request): Promise<{ email: string } | null> {
  const email = await pendingEmail(request, 'editor');
  return email ? { email } : null;
}

export type EditorCodeResult = RequestCodeResult;

/** Sends an editor a code and a one-click link, if the address is an editor's; answers the same either way. */
export function requestEditorCode(request: Request, form: FormData, locale: Locale): Promise<EditorCodeResult> {
  // The Studio to go back to is checked now and kept with the code, so the emailed link leads there too.
  return requestCode(request, form, locale, 'editor', studioReturn(request));
}

export type EditorVerifyResult =
  | { status: 'signed-in'; token: string; next: string; headers: Headers }
  | Exclude<EditorSignInResult, { status: 'signed-in' }>;

/**
 * Checks an editor's typed code, or the emailed link's (`c` and `code`); the right one starts a
 * session whose token the Studio receives. `next`: the Studio the code was asked for (checked again).
 */
export async function verifyEditorCode(request: Request, form: FormData): Promise<EditorVerifyResult> {
  const token = `lk1.${randomId(32).slice(0, 43)}`;
  const expiresAt = new Date(Date.now() + EDITOR_SESSION_HOURS * 3_600_000);
  const result = await verifyEditorSignIn(request, form, { idHash: tokenHash(token), expiresAt });
  if (result.status !== 'signed-in') return result;
  const next = studioReturnTo(result.next);
  // Expired sessions are swept off the request path (expired codes go with the portal's retention job).
  setImmediate(() => {
    void db()
      .then((database) => database.delete(lakeEditorSessions).where(lt(lakeEditorSessions.expiresAt, new Date())))
      .catch((error) => logger.error(`[lake] sweeping expired editor sessions: ${String(error)}`));
  });
  return { status: 'signed-in', token, next, headers: result.headers };
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
  return studioReturnTo(new URL(request.url).searchParams.get('origin'), siteUrl);
}

/** The Studio address `asked` for, by studioReturn's rules, or the site's /studio. */
export function studioReturnTo(asked: string | null, siteUrl = env().siteUrl): string {
  // A path kept with a code (studioReturn's answer for the site's own Studio).
  if (asked && /^\/studio(\/[A-Za-z0-9_-]+)*\/?$/.test(asked)) return asked;
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
