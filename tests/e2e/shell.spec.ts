import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { localeCookieValue } from '../../app/i18n';
import { at, expectLanguage, expectNoRawKeys, hydrated, isMobile, LOCALES } from './helpers';

const NAV = {
  en: ['Home', 'About', 'Services', 'Case Studies', 'Blog', 'FAQ'],
  ar: ['الرئيسية', 'من نحن', 'خدماتنا', 'دراسات الحالة', 'المدونة', 'الأسئلة الشائعة'],
};
const PATHS = ['/', '/about', '/services', '/case-studies', '/blog', '/faq'];
const GET_STARTED = { en: 'Get Started', ar: 'ابدأ الآن' };
const BRAND = { en: 'Bawaba Advisory', ar: 'بوابة للاستشارات' };
const OFFICES = { en: ['Dubai', 'Singapore'], ar: ['دبي', 'سنغافورة'] };

for (const locale of LOCALES) {
  test.describe(`shell in ${locale}`, () => {
    test('language, header links, get-started button and header height @phone', async ({ page }, testInfo) => {
      await page.goto(at(locale, '/'));
      await expectLanguage(page, locale);
      const header = page.getByTestId('site-header');
      const box = await header.boundingBox();
      expect(box?.height).toBe(isMobile(testInfo) ? 96 : 160);

      if (isMobile(testInfo)) {
        await expect(header.getByRole('navigation')).toBeHidden();
        await hydrated(page);
        await page.getByTestId('menu-toggle').click();
      }
      const nav = isMobile(testInfo)
        ? page.getByTestId('mobile-menu').getByRole('navigation')
        : header.getByRole('navigation');
      const links = nav.getByRole('link');
      await expect(links.filter({ hasNotText: GET_STARTED[locale] })).toHaveText(NAV[locale]);
      for (const [i, path] of PATHS.entries()) {
        await expect(links.nth(i)).toHaveAttribute('href', at(locale, path));
      }
      const getStarted = page.getByRole('link', { name: GET_STARTED[locale] });
      await expect(getStarted).toBeVisible();
      await expect(getStarted).toHaveAttribute('href', at(locale, '/services'));
      await expect(page.getByTestId('logo-link')).toHaveAttribute('href', at(locale, '/'));
      await expectNoRawKeys(page);
    });

    test('footer: links, service links, legal links, both offices', async ({ page }) => {
      await page.goto(at(locale, '/'));
      const footer = page.getByTestId('site-footer');
      for (const path of [
        '/services',
        '/about',
        '/case-studies',
        '/blog',
        '/faq',
        '/privacy-policy',
        '/terms-of-service',
        '/cookies-policy',
      ]) {
        await expect(footer.locator(`a[href="${at(locale, path)}"]`).first()).toBeVisible();
      }
      await expect(footer.locator(`a[href^="${at(locale, '/services#')}"]`)).toHaveCount(6);
      await expect(footer.getByTestId('office-dubai')).toContainText(OFFICES[locale][0]);
      await expect(footer.getByTestId('office-singapore')).toContainText(OFFICES[locale][1]);
      await expect(footer).toContainText(BRAND[locale]);
    });

    test('a footer link scrolls to the top of the next page', async ({ page }) => {
      await page.goto(at(locale, '/'));
      await page
        .getByTestId('site-footer')
        .locator(`a[href="${at(locale, '/faq')}"]`)
        .click();
      await expect(page).toHaveURL(new RegExp(`${at(locale, '/faq')}$`));
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    });

    test('the logo falls back to the brand name when its image fails', async ({ page }) => {
      const messages: string[] = [];
      page.on('console', (m) => messages.push(m.text()));
      await page.route('**/images/embedded/**', (route) => route.abort());
      await page.goto(at(locale, '/'));
      await expect(page.getByTestId('header-logo-fallback')).toHaveText(BRAND[locale]);
      // The footer logo loads lazily: it is only requested (and fails) once scrolled near.
      await page.getByTestId('site-footer').scrollIntoViewIfNeeded();
      await expect(page.getByTestId('footer-logo-fallback')).toHaveText(BRAND[locale]);
      await expect.poll(() => messages).toContain('Navbar logo failed to load');
    });

    test('unknown paths are a localized 404', async ({ page }) => {
      const response = await page.goto(at(locale, '/no-such-page'));
      expect(response?.status()).toBe(404);
      await expectLanguage(page, locale);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        locale === 'en' ? 'Page not found' : 'الصفحة غير موجودة',
      );
      await expect(page.getByTestId('site-header')).toBeVisible();
      await expectNoRawKeys(page);
    });

    test('no accessibility violations in the shell @phone', async ({ page }) => {
      await page.goto(at(locale, '/'));
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
        [],
      );
    });
  });
}

const QUICK_CONTACT = { en: 'Quick contact', ar: 'تواصل سريع' };

for (const locale of LOCALES) {
  test.describe(`accessibility of the shell in ${locale}`, () => {
    test('following a header link by keyboard announces the new page and puts focus on the main content @phone', async ({
      page,
    }, testInfo) => {
      await page.goto(at(locale, '/'));
      await hydrated(page);
      const announcer = page.getByTestId('route-announcer');
      // The first load is announced by the browser itself: the region is there, empty, and focus untouched.
      await expect(announcer).toHaveAttribute('aria-live', 'polite');
      await expect(announcer).toHaveText('');
      await expect(page.locator('#main')).not.toBeFocused();
      const homeTitle = await page.title();

      let link;
      if (isMobile(testInfo)) {
        const toggle = page.getByTestId('menu-toggle');
        await toggle.focus();
        await page.keyboard.press('Enter');
        link = page.getByTestId('mobile-menu').getByRole('link', { name: NAV[locale][5] });
      } else {
        link = page.getByTestId('site-header').getByRole('navigation').getByRole('link', { name: NAV[locale][5] });
      }
      await link.focus();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(new RegExp(`${at(locale, '/faq')}$`));
      // The new page's title, once it is there (not the home page's).
      await expect(page).not.toHaveTitle(homeTitle);
      await expect(announcer).toHaveText(await page.title());
      expect(await page.title()).not.toBe('');
      // Focus is on the new page's main landmark (from the phone menu too, which is gone), not on <body>.
      await expect(page.locator('#main')).toBeFocused();
      if (isMobile(testInfo)) await expect(page.getByTestId('mobile-menu')).toBeHidden();
      // The next Tab continues in the page's content.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('#main'))).toBe(true);
    });

    test('a link to a part of the same page is not announced and leaves focus alone', async ({ page }) => {
      await page.goto(at(locale, '/services'));
      await hydrated(page);
      const link = page
        .getByTestId('site-footer')
        .locator(`a[href^="${at(locale, '/services#')}"]`)
        .first();
      await link.focus();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/#/);
      // Give a (wrong) announcement time to appear.
      await page.waitForTimeout(300);
      await expect(page.getByTestId('route-announcer')).toHaveText('');
      await expect(page.locator('#main')).not.toBeFocused();
    });

    test('the floating buttons sit in a named landmark: no content outside a region', async ({ page }) => {
      await page.goto(at(locale, '/'));
      await hydrated(page);
      await expect(page.getByRole('complementary', { name: QUICK_CONTACT[locale] })).toBeVisible();
      await expect(page.getByTestId('floating-buttons')).toHaveAccessibleName(QUICK_CONTACT[locale]);
      const results = await new AxeBuilder({ page }).withRules(['region']).analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
        [],
      );
    });

    test('on a phone, the end of the page is not covered by the floating buttons @phone', async ({
      page,
    }, testInfo) => {
      test.skip(!isMobile(testInfo), 'phones only');
      await page.goto(at(locale, '/'));
      await hydrated(page);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const buttons = page.getByTestId('floating-buttons');
      // At the page's end the buttons come back (they slide away while scrolling down).
      await expect(buttons).not.toHaveAttribute('data-tucked');
      await expect(page.getByTestId('floating-booking')).toBeInViewport();
      const last = page.getByTestId('site-footer').locator('p').last();
      await expect(last).toBeInViewport();
      await expect
        .poll(async () => {
          const [text, group] = [await last.boundingBox(), await buttons.boundingBox()];
          return text!.y + text!.height <= group!.y;
        })
        .toBe(true);
    });

    test('phone menu: Escape returns focus to the menu button; Tab past the last item closes it @phone', async ({
      page,
    }, testInfo) => {
      test.skip(!isMobile(testInfo), 'phones only');
      await page.goto(at(locale, '/'));
      await hydrated(page);
      const toggle = page.getByTestId('menu-toggle');
      const menu = page.getByTestId('mobile-menu');
      await toggle.focus();
      await page.keyboard.press('Enter');
      await expect(menu).toBeVisible();
      await page.keyboard.press('Tab');
      await expect(menu.getByRole('link').first()).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
      await expect(toggle).toBeFocused();
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');

      // Back to the button with Shift+Tab keeps the menu open.
      await page.keyboard.press('Enter');
      await expect(menu).toBeVisible();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Shift+Tab');
      await expect(toggle).toBeFocused();
      await expect(menu).toBeVisible();

      // Tab past the last item (the portal link) closes it; focus goes on into the page.
      const last = page.getByTestId('client-login-mobile');
      await last.focus();
      await page.keyboard.press('Tab');
      await expect(menu).toBeHidden();
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);
    });
  });
}

test('the mobile menu opens, stays within 80% of the screen, and closes on navigation @phone', async ({
  page,
}, testInfo) => {
  test.skip(!isMobile(testInfo), 'phones only');
  await page.goto('/');
  await hydrated(page);
  const menu = page.getByTestId('mobile-menu');
  const toggle = page.getByTestId('menu-toggle');
  await expect(menu).toBeHidden();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(menu).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const box = await menu.boundingBox();
  expect(box!.width).toBe(375);
  expect(box!.height).toBeLessThanOrEqual(812 * 0.8);
  await menu.getByRole('link', { name: 'FAQ' }).click();
  await expect(page).toHaveURL(/\/faq$/);
  await expect(menu).toBeHidden();
  // Escape closes it too.
  await toggle.click();
  await expect(menu).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
});

test('switching language moves to the twin page without a reload, remembers it, and switches back @phone', async ({
  page,
  context,
}) => {
  await page.goto('/faq');
  await hydrated(page);
  await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 42));
  const switcher = page.getByRole('button', { name: /Language/ });
  await switcher.click();
  await page.getByRole('menuitemradio', { name: 'العربية' }).click();
  await expect(page).toHaveURL(/\/ar\/faq$/);
  await expectLanguage(page, 'ar');
  await expect(page.getByTestId('site-header').locator('a[href="/ar/faq"]').first()).toHaveText('الأسئلة الشائعة');
  expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(42);
  await expectNoRawKeys(page);
  // Focus stays on the language control for keyboard users.
  await expect(page.getByRole('button', { name: /اللغة/ })).toBeFocused();
  expect((await context.cookies()).find((c) => c.name === 'lng')?.value).toBe(localeCookieValue('ar'));

  // The remembered choice: the home page sends this visitor to /ar.
  await page.goto('/');
  await expect(page).toHaveURL(/\/ar$/);
  await hydrated(page);

  await page.getByRole('button', { name: /اللغة/ }).click();
  await page.getByRole('menuitemradio', { name: 'English' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expectLanguage(page, 'en');
  expect((await context.cookies()).find((c) => c.name === 'lng')?.value).toBe(localeCookieValue('en'));
  await page.goto('/');
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
});

test('a page downloads the interface strings of its own language only, in one request, and switching loads the other', async ({
  page,
}) => {
  const fetched: string[] = [];
  page.on('request', (request) => {
    const file = new URL(request.url()).pathname.match(/^\/locales\/(\w+)\/(\w+)\.json$/);
    if (file) fetched.push(`${file[1]}/${file[2]}`);
  });
  await page.goto('/ar/faq');
  await hydrated(page);
  await expectLanguage(page, 'ar');
  // One key file for the page's language (the preload and the backend's read are one request).
  expect(fetched, 'key files before the switch').toEqual(['ar/all']);
  await expectNoRawKeys(page);
  // The other language arrives when the visitor switches, and the page is whole in it.
  await page.getByRole('button', { name: /اللغة/ }).click();
  await page.getByRole('menuitemradio', { name: 'English' }).click();
  await expect(page).toHaveURL(/\/faq$/);
  await expectLanguage(page, 'en');
  await expect(page.getByTestId('site-header').locator('a[href="/faq"]').first()).toHaveText('FAQ');
  expect(fetched).toEqual(['ar/all', 'en/all']);
  await expectNoRawKeys(page);
});

test('the language dropdown works from the keyboard', async ({ page }) => {
  await page.goto('/');
  await hydrated(page);
  await page.getByRole('button', { name: /Language/ }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu')).toBeVisible();
  // Opening from the keyboard puts focus on the first choice; wait for it before moving,
  // or the arrow key can arrive while focus is still on the trigger.
  await expect(page.getByRole('menuitemradio', { name: 'English' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitemradio', { name: 'العربية' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/ar$/);
  await expectLanguage(page, 'ar');
});

test('crawlers are never redirected by the language cookie', async ({ request }) => {
  const res = await request.get('/', {
    headers: { Cookie: `lng=${localeCookieValue('ar')}`, 'User-Agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(200);
  const person = await request.get('/', {
    headers: { Cookie: `lng=${localeCookieValue('ar')}`, 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120' },
    maxRedirects: 0,
  });
  expect(person.status()).toBe(302);
  expect(person.headers()['location']).toBe('/ar');
  expect(person.headers()['vary']).toMatch(/Cookie/);
});

test('/en paths redirect to the unprefixed English path; other prefixes are 404', async ({ request }) => {
  for (const [from, to] of [
    ['/en', '/'],
    ['/en/about', '/about'],
    ['/en/blog/x?y=1', '/blog/x?y=1'],
  ]) {
    const res = await request.get(from, { maxRedirects: 0 });
    expect(res.status(), from).toBe(301);
    expect(res.headers()['location']).toBe(to);
  }
  for (const path of ['/fr/about', '/xx', '/ar/ar', '/english/faq']) {
    expect((await request.get(path)).status(), path).toBe(404);
  }
});

test('a slow navigation shows the pulsing-dot placeholder', async ({ page }) => {
  await page.goto('/');
  await hydrated(page);
  await page.route('**/*.data*', async (route) => {
    await new Promise((r) => setTimeout(r, 1200));
    await route.continue();
  });
  await page.getByTestId('site-footer').locator('a[href="/faq"]').click();
  await expect(page.getByTestId('page-loading')).toBeVisible();
  await expect(page).toHaveURL(/\/faq$/);
  await expect(page.getByTestId('page-loading')).toBeHidden();
});

test('the skip link moves keyboard focus to the main content', async ({ page }) => {
  await page.goto('/');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main')).toBeFocused();
});

// What the server sends is what a visitor without JavaScript, a crawler and the page cache get;
// hydration would hide a raw key in it (the browser's strings replace the server's), so this
// reads pages with scripts off.
test.describe('server-rendered pages, scripts off', () => {
  test.use({ javaScriptEnabled: false });
  const pages = [
    '/',
    '/about',
    '/services',
    '/pricing',
    '/faq',
    '/case-studies',
    '/case-studies/fintech-launch-uae',
    '/blog',
    '/blog/uae-corporate-tax-explained',
    '/blog/category/business',
    '/blog/tag/uae',
    '/privacy-policy',
    '/booking-confirmation',
    '/account',
  ];
  for (const locale of LOCALES)
    test(`carry no raw interface key (${locale})`, async ({ page }) => {
      test.slow();
      for (const path of pages) {
        const response = await page.goto(at(locale, path));
        expect(response?.status(), path).toBe(200);
        await expectLanguage(page, locale);
        await expectNoRawKeys(page);
      }
    });
});
