import { expect, test, type Page } from '@playwright/test';
import { at, hydrated, isMobile, LOCALES } from './helpers';

/**
 * The header's menus answer a tap before the page's scripts have run (app/lib/early-taps.ts):
 * the page's scripts are held back, as a slow phone's network does, until the test lets them through.
 */
async function holdScripts(page: Page) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/build[^/]*\/.*\.js$/, async (route) => {
    await held;
    await route.continue().catch(() => {});
  });
  return release;
}

for (const locale of LOCALES) {
  test(`the phone menu opens on a tap before the scripts, and stays open once they run (${locale}) @phone`, async ({
    page,
  }, testInfo) => {
    test.skip(!isMobile(testInfo), 'the menu button is on phones');
    const release = await holdScripts(page);
    await page.goto(at(locale, '/pricing'), { waitUntil: 'commit' });
    const toggle = page.getByTestId('menu-toggle');
    await expect(toggle).toBeVisible();
    await expect(page.locator('input[name="_js"]')).toHaveCount(0); // not hydrated
    await toggle.tap();
    await expect(page.getByTestId('mobile-menu')).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    release();
    await hydrated(page);
    // The header took the open menu over: still open, and now named for closing.
    await expect(page.getByTestId('mobile-menu')).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(toggle).not.toHaveAttribute('data-early');
    await toggle.tap();
    await expect(page.getByTestId('mobile-menu')).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  test(`the language button goes to the other language on a tap before its menu's code (${locale})`, async ({
    page,
  }) => {
    const release = await holdScripts(page);
    await page.goto(at(locale, '/pricing?ref=x'), { waitUntil: 'commit' });
    const button = page.getByTestId('language-switcher');
    await expect(button).toBeVisible();
    await button.click();
    const other = locale === 'en' ? 'ar' : 'en';
    await expect(page).toHaveURL(new RegExp(`^[^?]+//[^/]+${at(other, '/pricing')}\\?ref=x$`));
    release();
    await hydrated(page);
    // Hydrated, the button opens its menu again.
    await page.getByTestId('language-switcher').click();
    await expect(page.getByRole('menu')).toBeVisible();
  });
}
