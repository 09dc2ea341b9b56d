import { createHash } from 'node:crypto';
import { keyed, verifyKeyed } from '~/portal/crypto.server';
import type { Editor } from './api.server';

/**
 * Who may use the local Content Lake: editors only (ADR 0025). The Studio sends
 * `Authorization: Bearer {token}` (its "token" login method, the token kept in the browser's
 * localStorage). A token names an editor and an expiry, signed with the site's secret for this
 * purpose only (`lake-editor`), so no other value the site signs (a client's session cookie, a
 * form token, a CSRF token) is ever accepted here, and no client can reach the lake.
 *
 * PARTIAL (see the report of the `lake` branch): tokens are issued by `issueEditorToken`, used by
 * the tests; the emailed-code sign-in page for editors, editor accounts in the database and the
 * revocation of a token before its expiry are not built yet.
 */
export const EDITOR_TOKEN_HOURS = 12;
const PURPOSE = 'lake-editor';

type Payload = { e: string; n: string; x: number };

export function issueEditorToken(email: string, name: string, hours = EDITOR_TOKEN_HOURS): string {
  const payload: Payload = { e: email.toLowerCase(), n: name, x: Date.now() + hours * 3_600_000 };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `ed1.${body}.${keyed(PURPOSE, body)}`;
}

export function verifyEditorToken(token: string): Editor | null {
  const m = /^ed1\.([A-Za-z0-9_-]{1,800})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m || !verifyKeyed(PURPOSE, m[1], m[2])) return null;
  let payload: Payload;
  try {
    payload = JSON.parse(Buffer.from(m[1], 'base64url').toString('utf8')) as Payload;
  } catch {
    return null;
  }
  if (typeof payload.e !== 'string' || typeof payload.x !== 'number' || payload.x < Date.now()) return null;
  return { id: editorId(payload.e), email: payload.e, name: typeof payload.n === 'string' ? payload.n : payload.e };
}

/** A stable, opaque user id for an editor (Sanity's ids look like `pXyZ…`). */
export const editorId = (email: string) =>
  `e${createHash('sha256').update(email.toLowerCase()).digest('base64url').slice(0, 12)}`;

/** The editor a request to the lake comes from, or null. */
export async function editorFromRequest(request: Request): Promise<Editor | null> {
  const auth = request.headers.get('authorization') ?? '';
  const m = /^Bearer\s+(\S+)$/i.exec(auth);
  return m ? verifyEditorToken(m[1]) : null;
}
