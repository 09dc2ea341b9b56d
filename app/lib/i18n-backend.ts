import type { Translation } from './locale';
import { translator, type KeyFile } from './translate';
import type { Locale } from '~/i18n';

/** The URL of a language's key file (app/resources/key-file.ts), versioned by a hash of the key files. */
export function keyFileUrl(lng: string, version: string): string {
  return `/locales/${encodeURIComponent(lng)}/all.json?v=${encodeURIComponent(version)}`;
}

/** A failed read, and whether it is worth another try. */
class KeyFileError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The browser's interface strings: all of a language's namespaces come in one versioned file
 * (`keyFileUrl`), fetched once per language, so a page asks for its strings in one request.
 * A network failure or a 408, 429 or 5xx answer is tried again (`retries` times, waiting
 * `retryMs`, then twice as long each time); a 404 is final. A failed language is forgotten, so
 * the next `load` fetches again, and it renders its keys (as i18next did) with a warning.
 */
export function keyFiles(version: string, { retries = 5, retryMs = 350 } = {}) {
  const files = new Map<string, KeyFile>();
  const translations = new Map<string, Translation>();
  const loading = new Map<string, Promise<void>>();
  const fetchOnce = async (url: string): Promise<KeyFile> => {
    let response: Response;
    try {
      response = await fetch(url, { credentials: 'same-origin' });
      if (response.ok) return (await response.json()) as KeyFile;
    } catch (error) {
      // A network failure, or a body that is not JSON (a proxy's error page): worth a retry.
      throw new KeyFileError(`${url}: ${error instanceof Error ? error.message : String(error)}`, true);
    }
    const retry = response.status >= 500 || response.status === 408 || response.status === 429;
    throw new KeyFileError(`${url}: ${response.status}`, retry);
  };
  const read = async (lng: string) => {
    const url = keyFileUrl(lng, version);
    for (let tried = 0, pause = retryMs; ; tried++, pause *= 2) {
      try {
        files.set(lng, await fetchOnce(url));
        translations.clear();
        return;
      } catch (error) {
        if (!(error instanceof KeyFileError && error.retry && tried < retries)) {
          console.warn(`Could not load translations ${lng}: ${(error as Error).message}`);
          return;
        }
      }
      await wait(pause);
    }
  };
  return {
    /** Loads a language's strings (once; again after a failure). */
    load(lng: Locale): Promise<void> {
      if (files.has(lng)) return Promise.resolve();
      let pending = loading.get(lng);
      if (!pending) {
        pending = read(lng).finally(() => loading.delete(lng));
        loading.set(lng, pending);
      }
      return pending;
    },
    /** useT's answer for a language and namespace, from what has been loaded (keys until then); kept. */
    translation(lng: Locale, ns: string): Translation {
      const id = `${lng}:${ns}`;
      let translation = translations.get(id);
      if (!translation) translations.set(id, (translation = { t: translator(files.get(lng) ?? {}, lng, ns) }));
      return translation;
    },
  };
}

let pageKeyFiles: ReturnType<typeof keyFiles> | undefined;

/** The page's key files, made once by the client entry with the version the page names. */
export function startKeyFiles(version: string) {
  pageKeyFiles ??= keyFiles(version);
  return pageKeyFiles;
}

/** Loads a language's strings before a page in it renders (the locale layout's clientLoader). */
export async function loadLanguage(lng: Locale): Promise<void> {
  await pageKeyFiles?.load(lng);
}
