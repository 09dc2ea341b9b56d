import { createCookie } from '@remix-run/node';
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE, locales, type Locale } from '~/i18n';

/**
 * The visitor's chosen language, remembered by the language menu (written in the browser by
 * rememberLocale with localeCookieValue, Remix's cookie encoding) and read here.
 */
export const localeCookie = createCookie(LOCALE_COOKIE, { path: '/', maxAge: LOCALE_COOKIE_MAX_AGE, sameSite: 'lax' });

/** The language a visitor chose before, or null (no cookie, or a value that is not a language). */
export async function chosenLocale(request: Request): Promise<Locale | null> {
  const value: unknown = await localeCookie.parse(request.headers.get('Cookie'));
  return locales.find((locale) => locale === value) ?? null;
}
