import type { BackendModule, ReadCallback } from 'i18next';

/**
 * The browser's i18next backend: one interface-strings file per language and namespace, from
 * `public/locales/{lng}/{ns}.json`, versioned by a hash of the key files (`?v=`) so that
 * browsers may keep them for good. Replaces i18next-http-backend (12 KB of the first scripts)
 * with what this site uses of it. i18next retries a read the callback marks as retryable
 * (`maxRetries`, `retryTimeout`): a network failure or a 408, 429 or 5xx answer; a 404 is final.
 */
export function keyFilesBackend(version: string): BackendModule {
  return {
    type: 'backend',
    init() {},
    read(lng: string, ns: string, callback: ReadCallback) {
      const url = `/locales/${encodeURIComponent(lng)}/${encodeURIComponent(ns)}.json?v=${encodeURIComponent(version)}`;
      fetch(url, { credentials: 'same-origin' })
        .then(async (response) => {
          if (!response.ok) {
            const retry = response.status >= 500 || response.status === 408 || response.status === 429;
            callback(new Error(`${url}: ${response.status}`), retry);
            return;
          }
          callback(null, await response.json());
        })
        // A network failure, or a body that is not JSON (a proxy's error page): worth a retry.
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), true));
    },
  };
}
