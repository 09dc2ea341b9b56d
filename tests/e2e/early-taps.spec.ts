import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { localeCookieValue } from '../../app/i18n';
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

  const other = locale === 'en' ? 'ar' : 'en';
  const names = { en: 'English', ar: 'العربية' };
  /** A finger's tap on the phone, a mouse click on the desktop. */
  const press = (locator: Locator) => (isMobile(test.info()) ? locator.tap() : locator.click());
  const box = async (locator: Locator) => {
    const b = (await locator.boundingBox())!;
    return { left: Math.round(b.x), right: Math.round(b.x + b.width), top: Math.round(b.y) };
  };

  test(`the language button opens a static menu of both languages before its code, and the menu takes its place once hydrated (${locale}) @phone`, async ({
    page,
  }) => {
    const release = await holdScripts(page);
    await page.goto(at(locale, '/pricing?ref=x'), { waitUntil: 'commit' });
    const button = page.getByTestId('language-switcher');
    const early = page.getByTestId('language-menu-early');
    await expect(button).toBeVisible();
    await expect(early).toBeHidden();
    await press(button);
    await expect(early).toBeVisible();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    await expect(page).toHaveURL(new RegExp(`${at(locale, '/pricing')}\\?ref=x$`));
    // A list named "Language" of both languages, each a link to this page in it, the current one marked.
    const list = early.getByRole('list', { name: locale === 'en' ? 'Language' : 'اللغة' });
    await expect(list.getByRole('link')).toHaveCount(2);
    const current = list.getByRole('link', { name: names[locale] });
    const twin = list.getByRole('link', { name: names[other] });
    await expect(current).toHaveAttribute('aria-current', 'page');
    await expect(current).toHaveAttribute('href', `${at(locale, '/pricing')}?ref=x`);
    await expect(twin).toHaveAttribute('href', `${at(other, '/pricing')}?ref=x`);
    await expect(twin).toHaveAttribute('hreflang', other);
    await expect(twin).toHaveAttribute('lang', other);
    await expect(twin).not.toHaveAttribute('aria-current');
    // End-aligned under the button (its right edge in English, its left edge in Arabic).
    const [menuBox, buttonBox] = [await box(early), await box(button)];
    expect(locale === 'en' ? menuBox.right : menuBox.left).toBe(locale === 'en' ? buttonBox.right : buttonBox.left);
    expect(menuBox.top).toBeGreaterThan((await button.boundingBox())!.y);
    const axe = await new AxeBuilder({ page })
      .include('[data-testid="site-header"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

    release();
    await hydrated(page);
    // Hydrated while open: the switcher's own menu is open where the static one was, which is gone.
    const menu = page.getByRole('menu');
    await expect(menu).toBeVisible();
    await expect(early).toHaveCount(0);
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    await expect(button).not.toHaveAttribute('data-early');
    expect(await box(menu)).toEqual(menuBox);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  test(`before its code, the static language menu closes on a second tap, a tap outside or Escape, and the hydrated button opens its own (${locale}) @phone`, async ({
    page,
  }) => {
    const release = await holdScripts(page);
    await page.goto(at(locale, '/pricing'), { waitUntil: 'commit' });
    const button = page.getByTestId('language-switcher');
    const early = page.getByTestId('language-menu-early');
    await press(button);
    await expect(early).toBeVisible();
    await press(button);
    await expect(early).toBeHidden();
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await press(button);
    // Outside it: the page's text below the menu.
    const menuBox = (await early.boundingBox())!;
    const outside = { x: page.viewportSize()!.width / 2, y: menuBox.y + menuBox.height + 40 };
    await (isMobile(test.info()) ? page.touchscreen.tap(outside.x, outside.y) : page.mouse.click(outside.x, outside.y));
    await expect(early).toBeHidden();
    await press(button);
    await page.keyboard.press('Escape');
    await expect(early).toBeHidden();
    await expect(button).toHaveAttribute('aria-expanded', 'false');

    release();
    await hydrated(page);
    // Closed when the switcher hydrated: the static menu is gone and nothing is open.
    await expect(early).toHaveCount(0);
    await expect(page.getByRole('menu')).toHaveCount(0);
    await press(button);
    await expect(page.getByRole('menu')).toBeVisible();
  });

  test(`a tap pressed on the static language menu's button and released once the menu has hydrated is answered (${locale})`, async ({
    page,
  }) => {
    const release = await holdScripts(page);
    await page.goto(at(locale, '/pricing'), { waitUntil: 'commit' });
    const button = page.getByTestId('language-switcher');
    await button.click();
    await expect(page.getByTestId('language-menu-early')).toBeVisible();
    // The finger goes down while the button is still the early script's...
    await button.dispatchEvent('pointerdown', { button: 0, isPrimary: true, pointerType: 'touch' });
    release();
    await hydrated(page);
    await expect(page.getByRole('menu')).toBeVisible();
    // ...and comes up once the switcher has taken over: the tap closes the menu, as it meant to.
    await button.dispatchEvent('click', { detail: 1 });
    await expect(page.getByRole('menu')).toHaveCount(0);
    await expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  test(`from the keyboard, the static language menu takes focus to its first link and gives it back on Escape (${locale})`, async ({
    page,
  }) => {
    const release = await holdScripts(page);
    await page.goto(at(locale, '/pricing'), { waitUntil: 'commit' });
    const button = page.getByTestId('language-switcher');
    const early = page.getByTestId('language-menu-early');
    await expect(button).toBeVisible();
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(early).toBeVisible();
    await expect(early.getByRole('link').first()).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(early.getByRole('link').last()).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(early).toBeHidden();
    await expect(button).toBeFocused();
    // Tab past its last link closes it.
    await page.keyboard.press('Space');
    await expect(early).toBeVisible();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(early).toBeHidden();
    release();
  });

  test(`a link in the static language menu goes to the twin page and remembers the language, as the menu does (${locale})`, async ({
    page,
    context,
  }) => {
    await holdScripts(page);
    await page.goto(at(locale, '/pricing?ref=x'), { waitUntil: 'commit' });
    await page.getByTestId('language-switcher').click();
    await page.getByTestId('language-menu-early').getByRole('link', { name: names[other] }).click();
    await expect(page).toHaveURL(new RegExp(`^[^?]+//[^/]+${at(other, '/pricing')}\\?ref=x$`));
    const cookie = (await context.cookies()).find((c) => c.name === 'lng');
    expect(cookie?.value).toBe(localeCookieValue(other));
    expect(cookie?.path).toBe('/');
    expect(cookie?.sameSite).toBe('Lax');
    expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(364 * 24 * 3600 * 1000);
  });
}

test('without JavaScript the static language menu stays hidden and the link to the other language shows', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(at('ar', '/pricing'));
  await expect(page.getByTestId('language-menu-early')).toBeHidden();
  const link = page.getByTestId('site-header').getByRole('link', { name: 'English', exact: true });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('href', '/pricing');
  await context.close();
});
