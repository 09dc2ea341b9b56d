/**
 * Language configuration and the URL rules, shared by server and browser.
 * English lives at the bare paths (/about); Arabic at the same paths under /ar.
 */
export const locales = ['en', 'ar'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'en';

/** Every i18next namespace; all are loaded for the page's language before it renders. */
export const namespaces = ['common', 'chat', 'forms', 'marketing', 'insights', 'site', 'portal'] as const;
export const defaultNS = 'common';

/**
 * The i18next settings shared by the server's instances (app/i18next.server.ts) and the
 * browser's (entry.client.tsx, which adds how it loads the files).
 */
export function i18nextOptions(locale: Locale) {
  return {
    lng: locale,
    supportedLngs: [...locales],
    fallbackLng: defaultLocale,
    ns: [...namespaces],
    defaultNS,
    // React escapes what it renders.
    interpolation: { escapeValue: false },
  };
}

export const LOCALE_COOKIE = 'lng';
export const LOCALE_COOKIE_MAX_AGE = 60 * 60 * 24 * 365;

/**
 * The language cookie's value as Remix's createCookie encodes it (JSON, base64, URI-encoded),
 * so the browser can write what the server's localeCookie (app/lib/locale-cookie.server.ts) reads.
 */
export function localeCookieValue(locale: Locale): string {
  return encodeURIComponent(btoa(JSON.stringify(locale)));
}

export const localeNames: Record<Locale, string> = { en: 'English', ar: 'العربية' };
export const intlLocale: Record<Locale, string> = { en: 'en-GB', ar: 'ar-AE' };

export function dir(locale: Locale): 'ltr' | 'rtl' {
  return locale === 'ar' ? 'rtl' : 'ltr';
}

/** The comma between the parts of a place ("Dubai, UAE" / "دبي، الإمارات"): Arabic writes its own. */
export function placeComma(locale: Locale): string {
  return locale === 'ar' ? '، ' : ', ';
}

/** An office's city and country as one line, the country left out when it is the city (Singapore). */
export function placeName(city: string, country: string | null | undefined, locale: Locale): string {
  return country && country !== city ? `${city}${placeComma(locale)}${country}` : city;
}

/** The page language a pathname belongs to: /ar and /ar/... are Arabic, all else English. */
export function localeFromPath(pathname: string): Locale {
  return pathname === '/ar' || pathname.startsWith('/ar/') ? 'ar' : 'en';
}

/** The language of the page a request asks for (its URL's). */
export function requestLocale(request: Request): Locale {
  return localeFromPath(new URL(request.url).pathname);
}

/** The pathname without its language prefix: /ar/about -> /about, /ar -> /. */
export function stripLocale(pathname: string): string {
  if (pathname === '/ar') return '/';
  if (pathname.startsWith('/ar/')) return pathname.slice(3);
  return pathname || '/';
}

/**
 * A site path in the given language. Leaves absolute URLs, mailto:, tel: and pure
 * hash links alone; keeps the query and hash.
 */
export function localizePath(href: string, locale: Locale): string {
  if (!href.startsWith('/') || href.startsWith('//')) return href;
  const match = /^([^?#]*)(.*)$/.exec(href)!;
  const bare = stripLocale(match[1]);
  if (locale === 'en') return bare + match[2];
  return (bare === '/' ? '/ar' : `/ar${bare}`) + match[2];
}

/** The same page in the other language (keeps query and hash). */
export function twinPath(pathname: string, search: string, hash: string, target: Locale): string {
  return localizePath(stripLocale(pathname), target) + search + hash;
}
