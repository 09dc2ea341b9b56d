import { and, eq, gt } from 'drizzle-orm';
import { db } from '~/db/client.server';
import { accounts, signinCodes } from '~/db/schema.server';
import { localizePath, type Locale } from '~/i18n';
import { env } from '~/lib/env.server';
import { derivedCode } from './crypto.server';

/**
 * What the mail sender needs of a sign-in code's row (app/portal/signin.server.ts owns the
 * rows): whether it is still live, its client's name, and the code and link derived from its
 * id when the email is rendered. Neither is ever stored.
 */

/** The code and link of a code row, for its email (rendered at send time). */
export function codeOfRow(id: string, locale: Locale, checkout: boolean): { code: string; link: string } {
  const code = derivedCode(id);
  const link =
    `${env().siteUrl}${localizePath('/account/verify', locale)}?c=${encodeURIComponent(id)}&code=${code}` +
    (checkout ? '&p=checkout' : '');
  return { code, link };
}

/** A live code row and the name of its client (for the email), or null when it is used or expired. */
export async function liveCodeRow(
  id: string,
): Promise<{ customerId: string | null; name: string | null; checkout: boolean } | null> {
  const [row] = await (
    await db()
  )
    .select({ customerId: signinCodes.customerId, name: accounts.name, checkout: signinCodes.checkout })
    .from(signinCodes)
    .leftJoin(accounts, eq(accounts.customerId, signinCodes.customerId))
    .where(and(eq(signinCodes.id, id), gt(signinCodes.expiresAt, new Date())));
  return row ? { customerId: row.customerId, name: row.name, checkout: row.checkout !== null } : null;
}

export const codeMail = { live: liveCodeRow, codeOf: codeOfRow };
