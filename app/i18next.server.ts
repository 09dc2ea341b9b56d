import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInstance, type i18n, type TFunction } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { defaultNS, i18nextOptions, locales, namespaces, type Locale } from './i18n';

type Namespace = (typeof namespaces)[number];

/**
 * Interface strings for server rendering, read once from public/locales (the same
 * files the browser loads), plus a content hash that versions the browser's requests.
 */
type Resources = Record<Locale, Record<string, Record<string, unknown>>>;

function loadResources(): { resources: Resources; version: string } {
  const root = path.resolve('public/locales');
  const hash = createHash('sha1');
  const resources = {} as Resources;
  for (const locale of locales) {
    resources[locale] = {};
    for (const file of readdirSync(path.join(root, locale))
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      const text = readFileSync(path.join(root, locale, file), 'utf8');
      hash.update(`${locale}/${file}\n${text}`);
      resources[locale][file.replace(/\.json$/, '')] = JSON.parse(text);
    }
  }
  return { resources, version: hash.digest('hex').slice(0, 10) };
}

const { resources, version } = loadResources();
export const i18nVersion = version;

/**
 * One i18next instance per language, created and initialised once, at start, and shared by
 * every request of that language: rendering (entry.server.tsx) and loaders (fixedT). Each
 * instance's language is fixed and never changed, so concurrent requests in the two languages
 * cannot see each other's strings. Creating an instance per request cost about a tenth of a
 * page's rendering time.
 */
const instances = Object.fromEntries(
  locales.map((locale) => {
    const instance = createInstance();
    // Resources are given inline, so init completes synchronously (initImmediate: false).
    void instance.use(initReactI18next).init({ ...i18nextOptions(locale), resources, initImmediate: false });
    return [locale, instance];
  }),
) as Record<Locale, i18n>;

/** The shared instance of a language (never call changeLanguage on it). */
export function i18nFor(locale: Locale): i18n {
  return instances[locale];
}

/** A translator of one language and namespace, for loaders, actions and meta text. */
export function fixedT(locale: Locale, ns: Namespace = defaultNS): TFunction {
  return instances[locale].getFixedT(locale, ns);
}

export function serverResources() {
  return resources;
}

/**
 * The browser's key file of a language: every namespace the browser uses (`namespaces`; the
 * emails' strings stay on the server), in one JSON object keyed by namespace, so a page asks for
 * its strings in one request rather than one per namespace (app/resources/key-file.ts).
 * Serialised once, at start.
 */
const browserKeyFiles = Object.fromEntries(
  locales.map((locale) => [
    locale,
    JSON.stringify(Object.fromEntries(namespaces.map((ns) => [ns, resources[locale][ns] ?? {}]))),
  ]),
) as Record<Locale, string>;

export function browserKeyFile(locale: Locale): string {
  return browserKeyFiles[locale];
}
