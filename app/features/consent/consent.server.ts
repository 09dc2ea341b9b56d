import { randomUUID } from 'node:crypto';
import { consentRecords } from '~/db/schema.server';
import type { Db } from '~/db/types.server';
import type { Locale } from '~/i18n';
import { randomId } from '~/portal/crypto.server';
import { portalCookiesSecure } from '~/portal/session.server';
import {
  CONSENT_COOKIE,
  CONSENT_MAX_AGE_DAYS,
  CONSENT_VERSION,
  consentValue,
  parseConsentValue,
  consentCookieOf,
  withPrivacySignal,
  type ConsentAction,
  type ConsentChoice,
  type StoredConsent,
} from './consent';

const ACTION_RECORDED: Record<ConsentAction, 'accept_all' | 'reject_all' | 'choose'> = {
  all: 'accept_all',
  none: 'reject_all',
  choose: 'choose',
};

/** The Sec-GPC request header (Global Privacy Control), sent by browsers with the signal on. */
export const privacySignalOf = (request: Request) => request.headers.get('Sec-GPC')?.trim() === '1';

/**
 * Records a choice and answers the Set-Cookie that keeps it. The browser's id is kept from its
 * cookie (any version), or made new; a category granted before and refused now is a withdrawal.
 */
export async function recordConsent(
  db: Db,
  input: {
    cookies: string | null;
    action: ConsentAction;
    choice: ConsentChoice;
    gpc: boolean;
    via: 'script' | 'form';
    locale: Locale;
    now?: Date;
  },
): Promise<{ stored: StoredConsent; setCookie: string }> {
  const before = parseConsentValue(consentCookieOf(input.cookies));
  const choice = withPrivacySignal(input.choice, input.gpc);
  const stored: StoredConsent = { version: CONSENT_VERSION, ...choice, id: before?.id ?? randomId(18) };
  const withdrawal = Boolean(
    before && ((before.analytics && !choice.analytics) || (before.marketing && !choice.marketing)),
  );
  await db.insert(consentRecords).values({
    id: randomUUID(),
    subject: stored.id,
    version: stored.version,
    analytics: stored.analytics,
    marketing: stored.marketing,
    action: ACTION_RECORDED[input.action],
    withdrawal,
    gpc: input.gpc,
    via: input.via,
    locale: input.locale,
    recordedAt: input.now ?? new Date(),
  });
  return { stored, setCookie: consentCookie(stored) };
}

/** The consent cookie: first party, readable by the page's boot script, SameSite=Lax, Secure over HTTPS. */
export function consentCookie(stored: StoredConsent): string {
  const maxAge = CONSENT_MAX_AGE_DAYS * 24 * 60 * 60;
  return `${CONSENT_COOKIE}=${consentValue(stored)}; Max-Age=${maxAge}; Path=/; SameSite=Lax${portalCookiesSecure() ? '; Secure' : ''}`;
}
