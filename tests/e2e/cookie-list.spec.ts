import { expect, test, type Page } from '@playwright/test';
import { portalDataDir, portalURL } from '../../playwright.config';
import { at, hydrated, LOCALES, type Locale } from './helpers';
import { signIn } from './portal-helpers';

/**
 * Every cookie the site sets is in the cookies policy's list (issue 42, item 4). The policy's table
 * is rendered from the one list in the code (app/features/consent/cookie-list.server.ts); this
 * visits the site as a person would, in both languages (pages, the language menu, the cookie
 * banner's answers, signing in to the client portal as the demo client and out again) and fails
 * on any cookie the browser holds that the table does not name.
 */
const DEMO_CLIENT = 'client@example.com';
const CHOICES: Record<Locale, { accept: string; reject: string }> = {
  en: { accept: 'Accept all', reject: 'Reject all' },
  ar: { accept: 'قبول الكل', reject: 'رفض الكل' },
};

/** The names (and `prefix*` patterns) the rendered cookies policy lists. */
async function listedNames(page: Page, base: string, locale: Locale): Promise<string[]> {
  await page.goto(`${base}${at(locale, '/cookies-policy')}`);
  const rows = page.getByTestId('cookie-table').locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  const names = await rows.evaluateAll((trs) =>
    trs.flatMap((tr) => (tr.getAttribute('data-cookie-names') ?? '').split(' ')),
  );
  return names.filter(Boolean);
}

const listed = (names: string[], cookie: string) =>
  names.some((pattern) => (pattern.endsWith('*') ? cookie.startsWith(pattern.slice(0, -1)) : cookie === pattern));

test('every cookie set while visiting, choosing and signing in is in the cookies policy', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext();
  const page = await context.newPage();
  const seen = new Map<string, string>();
  const collect = async (step: string) => {
    for (const cookie of await context.cookies()) if (!seen.has(cookie.name)) seen.set(cookie.name, step);
  };
  try {
    for (const locale of LOCALES) {
      const names = await listedNames(page, portalURL, locale);
      expect(names).toEqual(expect.arrayContaining(['cookie_consent', 'lng', '_ga', '_ga_*']));
      for (const path of ['/', '/about', '/services', '/pricing', '/faq', '/blog']) {
        await page.goto(`${portalURL}${at(locale, path)}`);
        await collect(`${locale} ${path}`);
      }
      await hydrated(page);
      // Answered already in the other language: the footer's link asks again.
      if (!(await page.getByTestId('consent-banner').isVisible())) await page.getByTestId('cookie-settings').click();
      await page.getByRole('button', { name: CHOICES[locale].accept }).click();
      await expect(page.getByTestId('consent-banner')).toBeHidden();
      await collect(`${locale} accept`);
      await page.getByTestId('cookie-settings').click();
      await page.getByRole('button', { name: CHOICES[locale].reject }).click();
      await expect(page.getByTestId('consent-banner')).toBeHidden();
      await collect(`${locale} reject`);
      // The language menu remembers the other language.
      await page.getByRole('button', { name: locale === 'en' ? /Language/ : /اللغة/ }).click();
      await page.getByRole('menuitemradio', { name: locale === 'en' ? 'العربية' : 'English' }).click();
      await collect(`${locale} language switch`);
      await signIn(page, portalURL, portalDataDir, locale, DEMO_CLIENT);
      await collect(`${locale} signed in`);
      await page.goto(`${portalURL}${at(locale, '/account/subscription')}`);
      await collect(`${locale} subscription`);
      await page.goto(`${portalURL}${at(locale, '/account')}`);
      await page.getByTestId('sign-out').click();
      await expect(page.getByTestId('sign-out')).toHaveCount(0);
      await collect(`${locale} signed out`);
    }
    const names = await listedNames(page, portalURL, 'en');
    const unlisted = [...seen]
      .filter(([name]) => !listed(names, name))
      .map(([name, step]) => `${name} (after ${step})`);
    expect(unlisted, 'cookies the cookies policy does not list').toEqual([]);
    // The walk did meet the cookies it is about.
    expect([...seen.keys()]).toEqual(expect.arrayContaining(['cookie_consent', 'lng', 'signed_in']));
  } finally {
    await context.close();
  }
});
