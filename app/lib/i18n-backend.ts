import type { BackendModule, ReadCallback } from 'i18next';

/** The URL of a language's key file (app/resources/key-file.ts), versioned by a hash of the key files. */
export function keyFileUrl(lng: string, version: string): string {
  return `/locales/${encodeURIComponent(lng)}/all.json?v=${encodeURIComponent(version)}`;
}

type KeyFile = Record<string, Record<string, unknown>>;

/** A failed read, and whether i18next should try it again. */
class KeyFileError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
  }
}

/**
 * The browser's i18next backend: all of a language's namespaces come in one versioned file
 * (`keyFileUrl`), fetched once per language however many namespaces i18next reads from it, so a
 * page asks for its strings in one request. Replaces i18next-http-backend (12 KB of the first
 * scripts) with what this site uses of it. i18next retries a read the callback marks as
 * retryable (`maxRetries`, `retryTimeout`): a network failure or a 408, 429 or 5xx answer; a
 * 404 is final. A failed fetch is forgotten, so that a retry fetches again.
 */
export function keyFilesBackend(version: string): BackendModule {
  const files = new Map<string, Promise<KeyFile>>();
  const load = (lng: string) => {
    let file = files.get(lng);
    if (!file) {
      const url = keyFileUrl(lng, version);
      file = fetch(url, { credentials: 'same-origin' })
        .then(async (response) => {
          if (!response.ok) {
            const retry = response.status >= 500 || response.status === 408 || response.status === 429;
            throw new KeyFileError(`${url}: ${response.status}`, retry);
          }
          return (await response.json()) as KeyFile;
        })
        .catch((error: unknown) => {
          files.delete(lng);
          if (error instanceof KeyFileError) throw error;
          // A network failure, or a body that is not JSON (a proxy's error page): worth a retry.
          throw new KeyFileError(`${url}: ${error instanceof Error ? error.message : String(error)}`, true);
        });
      files.set(lng, file);
    }
    return file;
  };
  return {
    type: 'backend',
    init() {},
    read(lng: string, ns: string, callback: ReadCallback) {
      load(lng).then(
        (file) => {
          const strings = file[ns];
          if (strings && typeof strings === 'object') callback(null, strings);
          else callback(new Error(`${keyFileUrl(lng, version)}: no namespace ${ns}`), false);
        },
        (error: KeyFileError) => callback(error, error.retry),
      );
    },
  };
}
