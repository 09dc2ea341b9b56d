import { and, eq, gt, sql } from 'drizzle-orm';
import { db } from '~/db/client.server';
import { accounts, lakeEditors, signinCodes } from '~/db/schema.server';
import { localizePath, type Locale } from '~/i18n';
import { env } from '~/lib/env.server';
import { derivedCode } from './crypto.server';

/** Who signs in (app/portal/signin.server.ts): a client of the portal, or an editor of the local Content Lake's Studio. */
export type Audience = 'client' | 'editor';

/**
 * A row's code, derived from its id with the server's secret under the audience's name (an id
 * never gives the other door's code; the editors' name is the one their codes always had).
 */
export const codeOf = (id: string, audience: Audience = 'client') =>
  derivedCode(audience === 'editor' ? `lake-editor:${id}` : id);

/** The emails that carry a code (app/portal/mail-queue.server.ts). */
export type CodeMailKind = 'sign-in' | 'editor-sign-in' | 'checkout-confirm';

/**
 * What the mail sender needs of a sign-in code's row (app/portal/signin.server.ts owns the
 * rows): whether it is still live, its client's name, and the code and link derived from its
 * id when the email is rendered. Neither is ever stored.
 */

/**
 * The code and link of a code row, for its email (rendered at send time). A client's link opens
 * /account/verify, an editor's /studio/sign-in: each page only shows a button that posts them.
 */
export function codeOfRow(id: string, locale: Locale, kind: CodeMailKind): { code: string; link: string } {
  const editor = kind === 'editor-sign-in';
  const code = codeOf(id, editor ? 'editor' : 'client');
  const page = localizePath(editor ? '/studio/sign-in' : '/account/verify', locale);
  const link =
    `${env().siteUrl}${page}?c=${encodeURIComponent(id)}&code=${code}` +
    (kind === 'checkout-confirm' ? '&p=checkout' : '');
  return { code, link };
}

/** A live code row and the name of its client or editor (for the email), or null when it is used or expired. */
export async function liveCodeRow(id: string): Promise<{
  customerId: string | null;
  editorEmail: string | null;
  name: string | null;
  checkout: boolean;
} | null> {
  const [row] = await (
    await db()
  )
    .select({
      customerId: signinCodes.customerId,
      editorEmail: signinCodes.editorEmail,
      name: sql<string | null>`coalesce(${accounts.name}, ${lakeEditors.name})`,
      checkout: signinCodes.checkout,
    })
    .from(signinCodes)
    .leftJoin(accounts, eq(accounts.customerId, signinCodes.customerId))
    .leftJoin(lakeEditors, eq(lakeEditors.email, signinCodes.editorEmail))
    .where(and(eq(signinCodes.id, id), gt(signinCodes.expiresAt, new Date())));
  return row ? { ...row, checkout: row.checkout !== null } : null;
}

export const codeMail = { live: liveCodeRow, codeOf: codeOfRow };
