import { expect, type Page, type TestInfo } from '@playwright/test';
import http from 'node:http';

export const LOCALES = ['en', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];

export const at = (locale: Locale, path: string) => (locale === 'en' ? path : path === '/' ? '/ar' : `/ar${path}`);

/**
 * The phone project runs only the tests tagged @phone (playwright.config.ts); inside one, this
 * tells the phone's run from the desktop's.
 */
export const isMobile = (testInfo: TestInfo) => testInfo.project.name === 'mobile';

/** The page is hydrated (the newsletter form adds its JavaScript marker then): menus and dialogs answer. */
export async function hydrated(page: Page) {
  await expect(page.locator('input[name="_js"]').first()).toBeAttached();
  // The shell's deferred widgets (language menu, floating buttons, toasts) hydrate when their
  // code has arrived (app/lib/deferred.tsx).
  await expect(page.locator('html[data-deferred-loading]')).toHaveCount(0);
}

/**
 * Holds the page's hydration until `release()` is called: app/entry.client.tsx loads the page's
 * interface strings before it hydrates, and these are held, so the page is the server's HTML (its
 * forms post natively) until then.
 */
export async function holdHydration(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/locales/**', async (route) => {
    await released;
    await route.continue().catch(() => {});
  });
  return release;
}

/** No i18n key (like "nav.getStarted" or "common:footer.legal") may reach a page. */
export async function expectNoRawKeys(page: Page) {
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(/\b(?:common|chat|forms|marketing|insights|site):[a-z]/i);
  expect(text).not.toMatch(
    /\b(?:nav|footer|language|notFound|error|home|chat|forms|booking|faq|blog|pricing|site|legal|seo)\.[a-z][A-Za-z]+\b/,
  );
}

export async function expectLanguage(page: Page, locale: Locale) {
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
  await expect(page.locator('html')).toHaveAttribute('dir', locale === 'ar' ? 'rtl' : 'ltr');
}

/** One GET with the bytes as sent (fetch and Playwright's requests decode them): status, headers, body. */
export const rawGet = (url: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
