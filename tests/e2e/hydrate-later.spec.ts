// The page sections that hydrate apart from the page (HydrateLater, app/lib/deferred.tsx; issue 43):
// the server HTML holds them inline, the browser hydrates them without a mismatch or a change of
// structure, and the header's menu answers a tap while part of the page is still hydrating. On
// both projects and in both languages.
import { expect, test } from '@playwright/test';
import { at, hydrated, isMobile, LOCALES } from './helpers';

const PAGES = [
  '/',
  '/pricing',
  '/services',
  '/faq',
  '/about',
  '/privacy-policy',
  '/blog/uae-corporate-tax-explained',
  '/case-studies/fintech-launch-uae',
];

for (const locale of LOCALES) {
  test.describe(`sections hydrated apart (${locale})`, () => {
    for (const path of PAGES) {
      test(`${path}: hydrates with the server's structure and no error`, async ({ page }) => {
        const errors: string[] = [];
        page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
        page.on('pageerror', (error) => errors.push(error.message));
        const html = await (await page.request.get(at(locale, path))).text();
        // A completed Suspense boundary in the page's main content or footer: HydrateLater is used here.
        expect(html.slice(html.indexOf('<main'))).toContain('<!--$-->');
        await page.goto(at(locale, path));
        await hydrated(page);
        // Every element the server sent is still there after hydration, none added (but the forms'
        // JavaScript markers, added once hydrated): the sections were hydrated, not rendered again.
        const counts = await page.evaluate((serverHtml) => {
          const server = new DOMParser().parseFromString(serverHtml, 'text/html');
          const count = (doc: Document, selector: string) =>
            doc.querySelector(selector)?.querySelectorAll(':not(input[name="_js"])').length;
          return {
            main: [count(server, 'main'), count(document, 'main')],
            footer: [count(server, 'footer'), count(document, 'footer')],
          };
        }, html);
        expect(counts.main[1]).toBe(counts.main[0]);
        expect(counts.footer[1]).toBe(counts.footer[0]);
        expect(errors).toEqual([]);
      });
    }

    test('the phone menu answers a tap while part of the page is still hydrating @phone', async ({
      page,
    }, testInfo) => {
      test.skip(!isMobile(testInfo), 'the menu button is on phones');
      // The language menu's code is held back: its part of the header stays unhydrated (ADR 0012)
      // until the test lets it through, so the page is mid-hydration when the menu is tapped.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/build\/.*LanguageSwitcher-[^/]*\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(at(locale, '/pricing'));
      await expect(page.locator('input[name="_js"]').first()).toBeAttached();
      await expect(page.locator('html')).toHaveAttribute('data-deferred-loading', /language/);
      await page.getByTestId('menu-toggle').tap();
      await expect(page.getByTestId('mobile-menu')).toBeVisible();
      await expect(page.getByTestId('menu-toggle')).toHaveAttribute('aria-expanded', 'true');
      release();
      await hydrated(page);
      await page.getByTestId('menu-toggle').tap();
      await expect(page.getByTestId('mobile-menu')).toBeHidden();
    });
  });
}
