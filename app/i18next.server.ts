import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { RemixI18Next } from 'remix-i18next/server';
import { defaultLocale, defaultNS, localeFromPath, locales, namespaces, type Locale } from './i18n';

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
    for (const file of readdirSync(path.join(root, locale)).filter((f) => f.endsWith('.json')).sort()) {
      const text = readFileSync(path.join(root, locale, file), 'utf8');
      hash.update(`${locale}/${file}\n${text}`);
      resources[locale][file.replace(/\.json$/, '')] = JSON.parse(text);
    }
  }
  return { resources, version: hash.digest('hex').slice(0, 10) };
}

const { resources, version } = loadResources();
export const i18nVersion = version;

export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: [...locales],
    fallbackLanguage: defaultLocale,
    // The language is the URL's, never guessed from headers: every URL has one language.
    findLocale: async (request) => localeFromPath(new URL(request.url).pathname),
    order: ['custom'],
  },
  i18next: {
    resources,
    ns: [...namespaces],
    defaultNS,
    fallbackLng: defaultLocale,
    supportedLngs: [...locales],
    interpolation: { escapeValue: false },
  },
});

export function serverResources() {
  return resources;
}
