import { rmSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { CONSENT_VERSION } from '../../app/features/consent/consent';
import { freshDatabase, rows } from './db.mjs';
import { at, hydrated, LOCALES, type Locale } from './helpers';
import { kill, startOwnServer, type OwnServer } from './own-server';

/**
 * Cookie consent (issue 42, items 1 and 5), on servers of this spec's own with GTM_ID set: basic
 * mode (the default) on PostgreSQL, so the recorded choices can be read, and advanced mode.
 * Google's hosts are answered by the test (a stand-in gtm.js), never the network; every request
 * to them is counted.
 */
const PORT = Number(process.env.E2E_PORT ?? 3210);
const GTM_URL = 'https://www.googletagmanager.com/gtm.js?id=GTM-TEST123';

const T: Record<Locale, Record<string, string>> = {
  en: {
    accept: 'Accept all',
    reject: 'Reject all',
    choose: 'Choose',
    save: 'Save my choices',
    settings: 'Cookie settings',
    analytics: 'Analytics',
    marketing: 'Marketing',
    book: 'Book a Consultation',
    policy: 'Cookies policy',
  },
  ar: {
    accept: 'قبول الكل',
    reject: 'رفض الكل',
    choose: 'اختيار',
    save: 'حفظ اختياراتي',
    settings: 'إعدادات ملفات تعريف الارتباط',
    analytics: 'التحليل',
    marketing: 'التسويق',
    book: 'احجز استشارة',
    policy: 'سياسة ملفات تعريف الارتباط',
  },
};

const granted = (analytics: boolean, marketing: boolean) => ({
  ad_storage: marketing ? 'granted' : 'denied',
  analytics_storage: analytics ? 'granted' : 'denied',
  ad_user_data: marketing ? 'granted' : 'denied',
  ad_personalization: marketing ? 'granted' : 'denied',
});

/** Answers Google's hosts with a stand-in and lists what was asked. */
async function interceptGoogle(context: BrowserContext) {
  const requests: string[] = [];
  await context.route(/^https:\/\/([a-z0-9-]+\.)*(googletagmanager|google-analytics)\.com\//, (route) => {
    requests.push(route.request().url());
    return route.fulfill({
      contentType: 'text/javascript',
      body: 'window.dataLayer.push({ event: "gtm_stub_loaded" });',
    });
  });
  return requests;
}

/** The data layer, with Consent Mode's `arguments` entries as arrays. */
const dataLayer = (page: Page) =>
  page.evaluate(() =>
    ((window as unknown as { dataLayer?: unknown[] }).dataLayer ?? []).map((entry) =>
      entry && typeof entry === 'object' && !Array.isArray(entry) && 'length' in entry
        ? Array.from(entry as ArrayLike<unknown>)
        : entry,
    ),
  );
const consentCommands = async (page: Page) =>
  (await dataLayer(page)).filter((e): e is unknown[] => Array.isArray(e) && e[0] === 'consent');

async function consentCookie(context: BrowserContext) {
  return (await context.cookies()).find((c) => c.name === 'cookie_consent')?.value ?? null;
}

const banner = (page: Page) => page.getByTestId('consent-banner');

test.describe('cookie consent, basic mode', () => {
  test.describe.configure({ mode: 'serial' });
  let server: OwnServer | undefined;
  let databaseUrl = '';
  const base = `http://127.0.0.1:${PORT + 62}`;
  const records = (subject: string) =>
    rows(databaseUrl, 'select * from consent_records where subject = $1 order by recorded_at', [subject]);
  const idOf = (cookie: string | null) => cookie!.split('.')[2]!;

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    const dataDir = `.cache/e2e/consent-${PORT}`;
    rmSync(dataDir, { recursive: true, force: true });
    databaseUrl = await freshDatabase(`e2e_consent_${PORT}`);
    server = await startOwnServer(PORT + 62, dataDir, { GTM_ID: 'GTM-TEST123', DATABASE_URL: databaseUrl });
  });
  test.afterAll(async () => {
    if (server) await kill(server);
  });

  for (const locale of LOCALES) {
    test(`no request to GTM before consent; Accept all sends the update, loads GTM once and is recorded (${locale})`, async ({
      context,
      page,
    }) => {
      const google = await interceptGoogle(context);
      await page.goto(`${base}${at(locale, '/')}`);
      await hydrated(page);
      await expect(banner(page)).toBeVisible();
      // The start-up events reach the data layer without GTM (app_initialized at 1 s, page_view at 2 s).
      await expect
        .poll(async () => (await dataLayer(page)).map((e) => (e as { event?: string }).event), { timeout: 5_000 })
        .toEqual(expect.arrayContaining(['app_initialized', 'page_view']));
      expect(google).toEqual([]);
      expect(await consentCommands(page)).toEqual([['consent', 'default', granted(false, false)]]);

      await page.getByRole('button', { name: T[locale].accept }).click();
      await expect(banner(page)).toBeHidden();
      await expect.poll(() => google).toEqual([GTM_URL]);
      expect(await consentCommands(page)).toEqual([
        ['consent', 'default', granted(false, false)],
        ['consent', 'update', granted(true, true)],
      ]);
      const cookie = await consentCookie(context);
      expect(cookie).toMatch(new RegExp(`^${CONSENT_VERSION}\\.11\\.[A-Za-z0-9]{16,}$`));
      const recorded = await records(idOf(cookie));
      expect(recorded.map((r) => [r.action, r.analytics, r.marketing, r.via, r.locale, r.version])).toEqual([
        ['accept_all', true, true, 'script', locale, CONSENT_VERSION],
      ]);
      expect(Object.keys(recorded[0]!)).not.toContain('ip');

      // The next page: the boot script applies the kept choice before the page paints.
      google.length = 0;
      await page.goto(`${base}${at(locale, '/about')}`);
      await expect(banner(page)).toBeHidden();
      await expect.poll(() => google).toEqual([GTM_URL]);
      expect((await consentCommands(page))[1]).toEqual(['consent', 'update', granted(true, true)]);
    });

    test(`Reject all: nothing from Google, then or on the next page; recorded (${locale})`, async ({
      context,
      page,
    }) => {
      const google = await interceptGoogle(context);
      await page.goto(`${base}${at(locale, '/services')}`);
      await hydrated(page);
      await page.getByRole('button', { name: T[locale].reject }).click();
      await expect(banner(page)).toBeHidden();
      expect(await consentCommands(page)).toEqual([
        ['consent', 'default', granted(false, false)],
        ['consent', 'update', granted(false, false)],
      ]);
      const cookie = await consentCookie(context);
      expect(cookie).toMatch(new RegExp(`^${CONSENT_VERSION}\\.00\\.`));
      await page.goto(`${base}${at(locale, '/')}`);
      await hydrated(page);
      await expect(banner(page)).toBeHidden();
      await page.waitForTimeout(2_500);
      expect(google).toEqual([]);
      expect((await records(idOf(cookie))).map((r) => r.action)).toEqual(['reject_all']);
    });

    test(`the footer's Cookie settings reopens the choice, focused; a narrower choice is a recorded withdrawal (${locale})`, async ({
      context,
      page,
    }) => {
      await interceptGoogle(context);
      await page.goto(`${base}${at(locale, '/faq')}`);
      await hydrated(page);
      await page.getByRole('button', { name: T[locale].accept }).click();
      await expect(banner(page)).toBeHidden();
      const settings = page.getByTestId('cookie-settings');
      await settings.click();
      await expect(banner(page)).toBeVisible();
      await expect(banner(page)).toBeFocused();
      const choose = page.getByRole('button', { name: T[locale].choose, exact: true });
      await expect(choose).toHaveAttribute('aria-expanded', 'false');
      await choose.click();
      await expect(choose).toHaveAttribute('aria-expanded', 'true');
      const analytics = page.getByRole('checkbox', { name: T[locale].analytics });
      await expect(analytics).toBeChecked();
      await page.getByRole('checkbox', { name: T[locale].marketing }).uncheck();
      await page.getByRole('button', { name: T[locale].save }).click();
      await expect(banner(page)).toBeHidden();
      // Focus goes back to the link that reopened the banner.
      await expect(settings).toBeFocused();
      expect((await consentCommands(page)).at(-1)).toEqual(['consent', 'update', granted(true, false)]);
      const cookie = await consentCookie(context);
      expect(cookie).toMatch(new RegExp(`^${CONSENT_VERSION}\\.10\\.`));
      expect((await records(idOf(cookie))).map((r) => [r.action, r.analytics, r.marketing, r.withdrawal])).toEqual([
        ['accept_all', true, true, false],
        ['choose', true, false, true],
      ]);
    });

    test(`Global Privacy Control refuses marketing, in the browser and on the server (${locale})`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ extraHTTPHeaders: { 'Sec-GPC': '1' } });
      await context.addInitScript(() =>
        Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }),
      );
      try {
        await interceptGoogle(context);
        const page = await context.newPage();
        await page.goto(`${base}${at(locale, '/')}`);
        await hydrated(page);
        await expect(page.getByTestId('consent-gpc')).toBeVisible();
        await page.getByRole('button', { name: T[locale].choose, exact: true }).click();
        await expect(page.getByRole('checkbox', { name: T[locale].marketing })).toBeDisabled();
        await page.getByRole('button', { name: T[locale].accept }).click();
        await expect(banner(page)).toBeHidden();
        expect((await consentCommands(page)).at(-1)).toEqual(['consent', 'update', granted(true, false)]);
        const cookie = await consentCookie(context);
        expect(cookie).toMatch(new RegExp(`^${CONSENT_VERSION}\\.10\\.`));
        expect((await records(idOf(cookie))).map((r) => [r.action, r.marketing, r.gpc])).toEqual([
          ['accept_all', false, true],
        ]);
      } finally {
        await context.close();
      }
    });

    test(`without JavaScript: the banner shows, its form posts the choice and returns to the page without it (${locale})`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      try {
        const google = await interceptGoogle(context);
        const page = await context.newPage();
        const path = at(locale, '/pricing');
        await page.goto(`${base}${path}`);
        await expect(banner(page)).toBeVisible();
        // "Choose" is a link to the panel, which CSS shows as its target.
        await expect(page.getByRole('checkbox', { name: T[locale].analytics })).toBeHidden();
        await page.getByRole('button', { name: T[locale].choose, exact: true }).click();
        await page.getByRole('checkbox', { name: T[locale].analytics }).check();
        await page.getByRole('button', { name: T[locale].save }).click();
        await expect(page).toHaveURL(`${base}${path}#cookie-consent-saved`);
        await expect(banner(page)).toBeHidden();
        const cookie = await consentCookie(context);
        expect(cookie).toMatch(new RegExp(`^${CONSENT_VERSION}\\.10\\.`));
        expect((await records(idOf(cookie))).map((r) => [r.action, r.analytics, r.marketing, r.via, r.locale])).toEqual(
          [['choose', true, false, 'form', locale]],
        );
        // The footer link brings it back (a link to it); Reject all from there.
        await page.getByTestId('cookie-settings').click();
        await expect(banner(page)).toBeVisible();
        await page.getByRole('button', { name: T[locale].reject }).click();
        await expect(page).toHaveURL(`${base}${path}#cookie-consent-saved`);
        expect(await consentCookie(context)).toMatch(new RegExp(`^${CONSENT_VERSION}\\.00\\.${idOf(cookie)}$`));
        expect(google).toEqual([]);
      } finally {
        await context.close();
      }
    });

    test(`a choice under an older wording asks again, and loads nothing (${locale})`, async ({ context, page }) => {
      const google = await interceptGoogle(context);
      await context.addCookies([{ name: 'cookie_consent', value: '2020-01-01.11.AbCdEfGhIjKlMnOpQr', url: base }]);
      await page.goto(`${base}${at(locale, '/')}`);
      await hydrated(page);
      await expect(banner(page)).toBeVisible();
      await page.waitForTimeout(1_000);
      expect(google).toEqual([]);
    });

    test(`on a 390 px phone the banner covers nothing, shifts nothing, and the first tap books (${locale})`, async ({
      context,
      page,
    }) => {
      await interceptGoogle(context);
      await page.setViewportSize({ width: 390, height: 844 });
      // Layout shifts, and the banner's height when the document is first parsed.
      await page.addInitScript(() => {
        const w = window as unknown as { __shift: number; __bannerHeight: number | null };
        w.__shift = 0;
        w.__bannerHeight = null;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
            if (!entry.hadRecentInput) w.__shift += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
        document.addEventListener('DOMContentLoaded', () => {
          w.__bannerHeight = document.getElementById('cookie-consent')?.getBoundingClientRect().height ?? null;
        });
      });
      await page.goto(`${base}${at(locale, '/')}`);
      await expect(banner(page)).toBeVisible();
      const book = page.getByTestId('book-hero');
      await expect(book).toContainText(T[locale].book);
      await expect(book).toBeInViewport();
      // Nothing is drawn over the button's centre: it is what a tap there reaches.
      const box = (await book.boundingBox())!;
      expect(
        await page.evaluate(
          ([x, y]) => document.elementFromPoint(x!, y!)?.closest('a')?.getAttribute('data-testid') ?? null,
          [box.x + box.width / 2, box.y + box.height / 2],
        ),
      ).toBe('book-hero');
      await hydrated(page);
      await page.waitForTimeout(500);
      // The banner is the same from the first parse to after hydration, so it moves nothing; the
      // page's own shift (sub-pixel font settling, seen at 0.0002) stays far below anything visible.
      const measured = await page.evaluate(() => {
        const w = window as unknown as { __shift: number; __bannerHeight: number | null };
        return {
          shift: w.__shift,
          before: w.__bannerHeight,
          after: document.getElementById('cookie-consent')!.getBoundingClientRect().height,
        };
      });
      expect(measured.before).toBe(measured.after);
      expect(measured.shift).toBeLessThan(0.001);
      await book.click();
      await expect(page.getByTestId('booking-dialog')).toBeVisible();
    });

    test(`keyboard and axe: the banner's controls come first, in order, and work from the keyboard (${locale})`, async ({
      context,
      page,
    }) => {
      await interceptGoogle(context);
      await page.goto(`${base}${at(locale, '/')}`);
      await hydrated(page);
      const results = await new AxeBuilder({ page })
        .include('[data-testid="consent-banner"]')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze();
      expect(results.violations.map((v) => v.id)).toEqual([]);
      await page.keyboard.press('Tab'); // the skip link
      const order: string[] = [];
      for (let i = 0; i < 4; i++) {
        await page.keyboard.press('Tab');
        order.push(await page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''));
      }
      expect(order).toEqual([T[locale].policy, T[locale].accept, T[locale].reject, T[locale].choose]);
      await page.keyboard.press('Space');
      await expect(page.getByRole('checkbox', { name: T[locale].analytics })).toBeVisible();
      const panel = await new AxeBuilder({ page })
        .include('[data-testid="consent-banner"]')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze();
      expect(panel.violations.map((v) => v.id)).toEqual([]);
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Enter'); // Reject all
      await expect(banner(page)).toBeHidden();
      expect(await consentCookie(context)).toMatch(new RegExp(`^${CONSENT_VERSION}\\.00\\.`));
    });
  }

  test('pages stay byte-identical with or without a choice, and cacheable', async ({ request }) => {
    const plain = await request.get(`${base}/about`);
    const chosen = await request.get(`${base}/about`, {
      headers: { Cookie: `cookie_consent=${CONSENT_VERSION}.11.AbCdEfGhIjKlMnOpQr` },
    });
    expect(await chosen.text()).toBe(await plain.text());
    expect(chosen.headers()['content-security-policy']).toBe(plain.headers()['content-security-policy']);
    expect(chosen.headers()['cache-control']).toMatch(/s-maxage=/);
    expect(plain.headers()['content-security-policy']).not.toContain("unsafe-inline'; ");
    expect(plain.headers()['content-security-policy']).toMatch(/script-src 'sha256-[^;]*'strict-dynamic'/);
  });

  test('a post from another site, or one that is not a choice, changes nothing', async ({ request }) => {
    const before = await rows(databaseUrl, 'select count(*)::int as n from consent_records');
    const foreign = await request.post(`${base}/api/consent`, {
      form: { consent: 'all', return_to: '/' },
      headers: { Origin: 'https://evil.example' },
      maxRedirects: 0,
    });
    expect(foreign.status()).toBe(403);
    expect(foreign.headers()['set-cookie']).toBeUndefined();
    for (const [locale, text] of [
      ['/', 'That cookie choice could not be read'],
      ['/ar/faq', 'تعذّرت قراءة اختيار ملفات تعريف الارتباط'],
    ]) {
      const bad = await request.post(`${base}/api/consent`, {
        form: { consent: 'maybe', return_to: locale },
        headers: { Origin: base },
        maxRedirects: 0,
      });
      expect(bad.status()).toBe(400);
      expect(await bad.text()).toContain(text);
      expect(bad.headers()['set-cookie']).toBeUndefined();
    }
    expect(await rows(databaseUrl, 'select count(*)::int as n from consent_records')).toEqual(before);
  });
});

test.describe('cookie consent, advanced mode', () => {
  let server: OwnServer | undefined;
  const base = `http://127.0.0.1:${PORT + 63}`;
  test.beforeAll(async () => {
    test.setTimeout(60_000);
    const dataDir = `.cache/e2e/consent-advanced-${PORT}`;
    rmSync(dataDir, { recursive: true, force: true });
    server = await startOwnServer(PORT + 63, dataDir, { GTM_ID: 'GTM-TEST123', CONSENT_MODE: 'advanced' });
  });
  test.afterAll(async () => {
    if (server) await kill(server);
  });

  for (const locale of LOCALES)
    test(`GTM loads with everything denied; Reject all keeps it denied (${locale})`, async ({ context, page }) => {
      const google = await interceptGoogle(context);
      await page.goto(`${base}${at(locale, '/')}`);
      await hydrated(page);
      await expect.poll(() => google).toEqual([GTM_URL]);
      expect(await consentCommands(page)).toEqual([
        ['consent', 'default', { ...granted(false, false), wait_for_update: 500 }],
      ]);
      expect((await dataLayer(page)).map((e) => (e as { event?: string }).event)).toContain('gtm_stub_loaded');
      await page.getByRole('button', { name: T[locale].reject }).click();
      await expect(banner(page)).toBeHidden();
      expect((await consentCommands(page)).at(-1)).toEqual(['consent', 'update', granted(false, false)]);
      expect(google).toEqual([GTM_URL]);
    });
});
