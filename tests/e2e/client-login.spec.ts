// Issue 30, items 1 and 2: clients find the portal from every page (header, phone menu, footer),
// the entry says "My account" when this browser is signed in without the public pages becoming
// personal (same bytes and Cache-Control for everyone, still kept by the page cache), and on a
// phone the billing history shows each invoice whole, in both languages. Against the portal
// server (embedded billing, the demo client with four invoices).
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { portalDataDir, portalURL } from '../../playwright.config';
import { at, hydrated, isMobile, LOCALES, type Locale } from './helpers';
import { actAsIp, signIn, t as portalT } from './portal-helpers';

const common: Record<Locale, { nav: Record<string, string> }> = {
  en: JSON.parse(readFileSync('public/locales/en/common.json', 'utf8')),
  ar: JSON.parse(readFileSync('public/locales/ar/common.json', 'utf8')),
};
const loginLabel = (locale: Locale) => common[locale].nav.clientLogin!;
const accountLabel = (locale: Locale) => common[locale].nav.myAccount!;
const url = (locale: Locale, path: string) => `${portalURL}${at(locale, path)}`;
const DEMO_CLIENT = 'client@example.com';
/** The Cache-Control of a published page (app/lib/cache-policy.server.ts PUBLIC_CACHE). */
const PUBLIC_CACHE = 'public, max-age=0, s-maxage=60, stale-while-revalidate=600, stale-if-error=86400';

test.beforeEach(async ({ page }) => {
  await actAsIp(page);
});

/** The portal entries a visitor can reach at this width: the header's (desktop) or the phone menu's, and the footer's. */
async function entries(page: Page, mobile: boolean) {
  if (mobile) {
    await expect(page.getByTestId('client-login-desktop')).toBeHidden();
    await page.getByTestId('menu-toggle').click();
    await expect(page.getByTestId('mobile-menu')).toBeVisible();
  }
  return [
    page.getByTestId(mobile ? 'client-login-mobile' : 'client-login-desktop'),
    page.getByTestId('client-login-footer'),
  ];
}

/**
 * A page's HTML with the one thing a fresh render changes by design replaced: the forms' page token
 * (its render time). A signed-in visitor's request is rendered anew, never read from the page cache.
 */
function comparable(body: string): string {
  return body.replace(/\b\d{10,16}\.p\.[A-Za-z0-9_-]{20,100}\b/g, 'FORM-TOKEN');
}

for (const locale of LOCALES) {
  test.describe(`client login (${locale})`, () => {
    test('the header (or phone menu) and the footer link to the portal, labelled Client Login @phone', async ({
      page,
    }, testInfo) => {
      await page.goto(url(locale, '/about'));
      await hydrated(page);
      const links = await entries(page, isMobile(testInfo));
      for (const link of links) {
        await expect(link).toBeVisible();
        await expect(link).toHaveAttribute('href', at(locale, '/account'));
        await expect(link).toHaveAccessibleName(loginLabel(locale));
      }
      // A normal link: reached with the keyboard, it shows where the focus is.
      await links[1]!.focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      await expect(links[1]!).toBeFocused();
      const outline = await links[1]!.evaluate((el) => getComputedStyle(el).outlineStyle);
      expect(outline).not.toBe('none');
      await links[0]!.click();
      await expect(page).toHaveURL(url(locale, '/account'));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(portalT(locale, 'signIn.title'));
    });

    test('signed in, the entry says My account (after hydration only: the public page is the same for everyone), and Client Login again after sign-out @phone', async ({
      page,
      browser,
    }, testInfo) => {
      test.setTimeout(60_000);
      const mobile = isMobile(testInfo);
      // The anonymous page, twice: the second from the page cache.
      const anonymous = await fetch(url(locale, '/about'));
      const cached = await fetch(url(locale, '/about'));
      expect(cached.headers.get('x-page-cache')).toBe('hit');
      const anonymousBody = comparable(await anonymous.text());

      await signIn(page, portalURL, portalDataDir, locale, DEMO_CLIENT);
      const cookies = await page.context().cookies(portalURL);
      const session = cookies.find((c) => c.name === '__client')!;
      const hint = cookies.find((c) => c.name === 'signed_in')!;
      expect(session.httpOnly).toBe(true);
      // The hint: readable by scripts, no secret, the session's lifetime, path and SameSite.
      expect(hint).toMatchObject({ value: '1', httpOnly: false, path: session.path, sameSite: session.sameSite });
      expect(Math.abs(hint.expires - session.expires)).toBeLessThan(60);

      // The signed-in visitor gets the public page's bytes and Cache-Control, unchanged.
      const cookieHeader = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      const signedIn = await fetch(url(locale, '/about'), { headers: { Cookie: cookieHeader } });
      expect(signedIn.status).toBe(200);
      expect(signedIn.headers.get('cache-control')).toBe(PUBLIC_CACHE);
      expect(anonymous.headers.get('cache-control')).toBe(PUBLIC_CACHE);
      expect(signedIn.headers.get('set-cookie')).toBeNull();
      expect(comparable(await signedIn.text())).toBe(anonymousBody);
      // And anonymous visitors are still served from the page cache.
      expect((await fetch(url(locale, '/about'))).headers.get('x-page-cache')).toBe('hit');

      // In the browser, the label switches after hydration, and the link leads to the account.
      await page.goto(url(locale, '/about'));
      await hydrated(page);
      for (const link of await entries(page, mobile)) {
        await expect(link).toHaveAccessibleName(accountLabel(locale));
        await expect(link).toHaveAttribute('href', at(locale, '/account'));
      }
      await page.getByTestId('client-login-footer').click();
      await expect(page).toHaveURL(url(locale, '/account'));
      await expect(page.getByTestId('sign-out')).toBeVisible();

      // Without JavaScript the link reads Client Login and still takes the client to their account.
      const noJs = await browser.newContext({ javaScriptEnabled: false });
      await noJs.addCookies(cookies);
      const plain = await noJs.newPage();
      await plain.goto(url(locale, '/about'));
      await expect(plain.getByTestId('client-login-footer')).toHaveAccessibleName(loginLabel(locale));
      await plain.getByTestId('client-login-footer').click();
      await expect(plain).toHaveURL(url(locale, '/account'));
      await expect(plain.getByTestId('sign-out')).toBeVisible();
      await noJs.close();

      // Signing out clears the hint: Client Login again.
      await page.getByTestId('sign-out').click();
      await expect(page.getByLabel(portalT(locale, 'signIn.email'))).toBeVisible();
      expect((await page.context().cookies(portalURL)).map((c) => c.name)).not.toContain('signed_in');
      await page.goto(url(locale, '/about'));
      await hydrated(page);
      for (const link of await entries(page, mobile)) await expect(link).toHaveAccessibleName(loginLabel(locale));
    });

    test('a hint without a live session is cleared by the portal and the label goes back to Client Login', async ({
      page,
    }) => {
      await page.context().addCookies([{ name: 'signed_in', value: '1', url: portalURL }]);
      await page.goto(url(locale, '/about'));
      await hydrated(page);
      // Only a label: it opens nothing.
      await expect(page.getByTestId('client-login-footer')).toHaveAccessibleName(accountLabel(locale));
      await page.getByTestId('client-login-footer').click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(portalT(locale, 'signIn.title'));
      expect((await page.context().cookies(portalURL)).map((c) => c.name)).not.toContain('signed_in');
      await expect(page.getByTestId('client-login-footer')).toHaveAccessibleName(loginLabel(locale));
      // A page that needs the session sends the visitor to sign in, clearing the hint as well.
      const account = await fetch(url(locale, '/account/subscription'), {
        headers: { Cookie: 'signed_in=1' },
        redirect: 'manual',
      });
      expect(account.status).toBe(302);
      expect(account.headers.getSetCookie().join('\n')).toMatch(/^signed_in=; Max-Age=0;/m);
    });

    test('billing history: a table at desktop width; at 390 px each invoice whole on screen (number, date, amount, status, View and PDF)', async ({
      page,
    }) => {
      test.setTimeout(60_000);
      await signIn(page, portalURL, portalDataDir, locale, DEMO_CLIENT);
      await page.goto(url(locale, '/account/subscription'));
      const table = page.getByRole('table');
      for (const column of ['invoice', 'date', 'amount', 'status', 'actions']) {
        const header = table.getByRole('columnheader', { name: portalT(locale, `invoices.columns.${column}`) });
        expect((await header.boundingBox())!.height).toBeGreaterThan(20);
      }
      const rows = table.locator('tbody tr');
      expect(await rows.count()).toBeGreaterThanOrEqual(4);
      expect(await rows.first().evaluate((el) => getComputedStyle(el).display)).toBe('table-row');

      // 390 px: a common phone; 320 px: the narrowest (there only the list is checked: the header's
      // logo, language menu and menu button are wider than 320 px already on main).
      for (const width of [390, 320]) {
        await page.setViewportSize({ width, height: 844 });
        if (width === 390)
          expect(await page.evaluate(() => document.documentElement.scrollWidth), 'page at 390px').toBeLessThanOrEqual(
            width,
          );
        const list = page.getByTestId('invoices-scroll');
        expect(await list.evaluate((el) => el.scrollWidth - el.clientWidth), `list at ${width}px`).toBeLessThanOrEqual(
          0,
        );
        const box = (await list.boundingBox())!;
        const count = await rows.count();
        for (let i = 0; i < count; i++) {
          const row = rows.nth(i);
          await row.scrollIntoViewIfNeeded();
          const parts = [
            row.getByRole('rowheader'),
            row.getByRole('cell').nth(0),
            row.getByRole('cell').nth(1),
            row.getByTestId('invoice-status'),
            row.getByRole('link', { name: new RegExp(portalT(locale, 'invoices.view')) }),
            row.getByRole('link', { name: new RegExp(portalT(locale, 'invoices.download')) }),
          ];
          await expect(parts[0]!).toContainText(/BWB-\d{4}-\d{4}/);
          for (const [j, part] of parts.entries()) {
            await expect(part).toBeInViewport({ ratio: 1 });
            const b = (await part.boundingBox())!;
            expect(b.x, `row ${i + 1} part ${j + 1} at ${width}px`).toBeGreaterThanOrEqual(box.x - 0.5);
            expect(b.x + b.width, `row ${i + 1} part ${j + 1} at ${width}px`).toBeLessThanOrEqual(
              box.x + box.width + 0.5,
            );
          }
          // Each value is named by its column, visibly on the phone as well.
          await expect(
            row.getByRole('cell').nth(1).getByText(portalT(locale, 'invoices.columns.amount')),
          ).toBeVisible();
        }
      }
    });
  });
}

// The header's row (logo, navigation, language menu, portal link, Get Started from lg) fits every
// width from the phone's to the desktop's: no sideways scroll, the portal link and language menu
// on screen. Before, from 768 to about 918 px the row was wider than the window and pushed the
// page sideways (in Arabic, the whole page shifted).
test('the header fits from 320 to 1280 px in both languages, its controls on screen', async ({ page }) => {
  for (const locale of LOCALES) {
    for (const width of [320, 390, 768, 820, 900, 1024, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(url(locale, '/'));
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth, `${locale} at ${width} px`).toBeLessThanOrEqual(width);
      const controls = [page.getByTestId('language-switcher')];
      controls.push(page.getByTestId(width >= 768 ? 'client-login-desktop' : 'menu-toggle'));
      for (const control of controls) {
        const box = (await control.boundingBox())!;
        expect(box.x, `${locale} at ${width} px`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `${locale} at ${width} px`).toBeLessThanOrEqual(width);
      }
    }
  }
});
