import { expect, test, type Page } from '@playwright/test';
import { portalDataDir, portalURL } from '../../playwright.config';
import { at, expectLanguage, expectNoRawKeys, hydrated, LOCALES, type Locale } from './helpers';
import { rmSync } from 'node:fs';
import {
  actAsIp,
  confirmCheckout,
  fillCheckout,
  outbox,
  schedulePlanChange,
  signIn,
  startPortalServer,
  subscribe,
  t,
  uniqueEmail,
  waitForMail,
} from './portal-helpers';

/**
 * The client portal on the embedded billing engine (server on PORT + 500 with the test hooks),
 * in both languages, at desktop and phone widths (the two projects), with JavaScript on and off.
 * Each test that changes a subscription subscribes a client of its own, so tests run in parallel.
 */
const url = (locale: Locale, path: string) => `${portalURL}${at(locale, path)}`;
const DAY = 24 * 60 * 60 * 1000;

test.beforeEach(async ({ page }) => {
  await actAsIp(page);
});

for (const locale of LOCALES) {
  test.describe(`portal (${locale})`, () => {
    test('a visitor is sent to sign in, and comes back to the page they asked for', async ({ page }) => {
      const res = await page.goto(url(locale, '/account/subscription'));
      expect(res?.headers()['cache-control']).toBe('private, no-store');
      await expect(page).toHaveURL(new RegExp(`${at(locale, '/account')}\\?next=`));
      await expectLanguage(page, locale);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t(locale, 'signIn.title'));
      expect(res?.headers()['x-robots-tag']).toBe('noindex');
      await expectNoRawKeys(page);
    });

    test('the demo client signs in through the emailed code and sees the plan and three paid invoices', async ({
      page,
    }) => {
      const { mail } = await signIn(page, portalURL, portalDataDir, locale, 'client@example.com');
      expect(mail.text).toMatch(/\/account\/verify\?c=/);
      await expect(page.getByText('Layla Haddad').first()).toBeVisible();
      await page.goto(url(locale, '/account/subscription'));
      await expect(page.getByText(t(locale, 'status.active')).first()).toBeVisible();
      const table = page.getByRole('table');
      for (const column of ['invoice', 'date', 'amount', 'status', 'actions']) {
        await expect(table.getByRole('columnheader', { name: t(locale, `invoices.columns.${column}`) })).toBeVisible();
      }
      const rows = table.locator('tbody tr');
      expect(await rows.count()).toBeGreaterThanOrEqual(3);
      await expect(rows.first()).toContainText(/BWB-\d{4}-\d{4}/);
      await expect(rows.first().getByRole('link', { name: new RegExp(t(locale, 'invoices.view')) })).toBeVisible();
      await expect(rows.first().getByRole('link', { name: new RegExp(t(locale, 'invoices.download')) })).toBeVisible();
      // On a phone the table scrolls inside its own region; the page itself never scrolls sideways.
      const width = page.viewportSize()!.width;
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await expectNoRawKeys(page);
    });

    test('subscribe from pricing through the local checkout: a declined card says so, a good one shows the payment success dialog', async ({
      page,
    }) => {
      const email = uniqueEmail(`sub-${locale}`);
      await page.goto(url(locale, '/pricing'));
      await page.getByTestId('plan-starter').getByRole('button').click();
      await expect(page).toHaveURL(/\/checkout\/cs_/);
      await expectLanguage(page, locale);
      await fillCheckout(page, locale, email, '4000 0000 0000 0002');
      await expect(page.getByText(t(locale, 'checkout.errors.declined')).first()).toBeVisible();
      // The card number is never echoed back into the form.
      await expect(page.getByLabel(t(locale, 'checkout.cardNumber'))).toHaveValue('');
      await fillCheckout(page, locale, email, '4242 4242 4242 4242');
      // Nothing is charged and no one is signed in until the address is confirmed by its emailed code.
      await expect(page).toHaveURL(/\/account\/verify/, { timeout: 15_000 });
      await expectLanguage(page, locale);
      await expectNoRawKeys(page);
      await confirmCheckout(page, portalDataDir, locale, email);
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByRole('heading', { name: t(locale, 'welcome.title') })).toBeVisible();
      await dialog
        .getByRole('button', { name: t(locale, 'welcome.close') })
        .first()
        .click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      // The welcome email with the first invoice.
      const mail = await waitForMail(portalDataDir, email, /BWB-\d{4}-\d{4}/);
      expect(mail.html).toContain(locale === 'ar' ? 'dir="rtl"' : 'lang="en"');
    });

    test('change plan at the next billing date, see it scheduled, withdraw it; the emails say so', async ({ page }) => {
      const email = uniqueEmail(`chg-${locale}`);
      await subscribe(page, portalURL, portalDataDir, locale, 'starter', email);
      await page.goto(url(locale, '/account/subscription'));
      await schedulePlanChange(page, locale);
      // The change's confirmation email follows the address confirmation and the welcome email.
      await waitForMail(portalDataDir, email, /./, 2);
      await page.getByRole('button', { name: t(locale, 'subscription.withdraw') }).click();
      // While it is sent the button reads "Withdrawing…": wait for the page to confirm it is done.
      await expect(page.getByRole('status').filter({ hasText: t(locale, 'messages.changeWithdrawn') })).toBeVisible();
      await expect(page.getByRole('button', { name: t(locale, 'subscription.withdraw') })).toHaveCount(0);
    });

    test('a step opened while a withdrawal is still being sent stays open when the withdrawal finishes', async ({
      page,
    }) => {
      const email = uniqueEmail(`race-${locale}`);
      await subscribe(page, portalURL, portalDataDir, locale, 'starter', email);
      await page.goto(url(locale, '/account/subscription'));
      await schedulePlanChange(page, locale);
      // Hold the withdrawal's post until the visitor has opened the cancel step.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/account/subscription.data**', async (route) => {
        if (route.request().method() === 'POST') await held;
        await route.fallback();
      });
      await page.getByRole('button', { name: t(locale, 'subscription.withdraw') }).click();
      await expect(page.getByRole('button', { name: t(locale, 'subscription.withdrawing') })).toBeVisible();
      await page.getByRole('link', { name: t(locale, 'subscription.cancelSubscription') }).click();
      const confirm = page.getByRole('dialog').getByRole('button', { name: t(locale, 'cancel.confirm') });
      await expect(confirm).toBeVisible();
      release();
      // The withdrawal lands (the scheduled change leaves the page) and the cancel step stays open.
      await expect(page.getByTestId('scheduled-change')).toHaveCount(0);
      await page.waitForTimeout(500);
      await expect(confirm).toBeVisible();
      await confirm.click();
      await expect(page.getByRole('button', { name: t(locale, 'subscription.resume') })).toBeVisible();
    });

    test('cancel asks "Are you sure?", keeps access to the period end, and can be resumed', async ({ page }) => {
      const email = uniqueEmail(`can-${locale}`);
      await subscribe(page, portalURL, portalDataDir, locale, 'business', email);
      await page.goto(url(locale, '/account/subscription'));
      // The dialog is the JavaScript form of the step; before hydration the link opens it as a page.
      await hydrated(page);
      const trigger = page.getByRole('link', { name: t(locale, 'subscription.cancelSubscription') });
      await trigger.click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByRole('heading', { name: t(locale, 'cancel.title') })).toBeVisible();
      // Keep: nothing changes, focus goes back to the trigger.
      await dialog.getByRole('button', { name: t(locale, 'cancel.keep') }).click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await trigger.click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: t(locale, 'cancel.confirm') })
        .click();
      await expect(page.getByRole('button', { name: t(locale, 'subscription.resume') })).toBeVisible();
      const before = outbox(portalDataDir, email).length;
      await waitForMail(portalDataDir, email, /./, before - 1);
      await page.getByRole('button', { name: t(locale, 'subscription.resume') }).click();
      await expect(page.getByRole('button', { name: t(locale, 'subscription.resume') })).toHaveCount(0);
      await expect(page.getByRole('link', { name: t(locale, 'subscription.cancelSubscription') })).toBeVisible();
    });

    test("an invoice opens as a page and downloads as a PDF; another client's invoice is 404", async ({
      page,
      browser,
    }) => {
      // Two clients go through checkout: more than 30 s on a busy 2-core machine.
      test.setTimeout(90_000);
      const email = uniqueEmail(`inv-${locale}`);
      await subscribe(page, portalURL, portalDataDir, locale, 'enterprise', email);
      await page.goto(url(locale, '/account/subscription'));
      const row = page.getByRole('table').locator('tbody tr').first();
      const view = row.getByRole('link', { name: new RegExp(t(locale, 'invoices.view')) });
      const href = (await view.getAttribute('href'))!;
      await view.click();
      await expect(page).toHaveURL(new RegExp(href.replace(/[?]/g, '\\?')));
      await expect(page.getByRole('heading', { level: 1 })).toContainText(t(locale, 'invoice.title'));
      await expect(page.getByText(/BWB-\d{4}-\d{4}/).first()).toBeVisible();
      const pdf = await page.request.get(`${portalURL}${href}/pdf`);
      expect(pdf.status()).toBe(200);
      expect(pdf.headers()['content-type']).toBe('application/pdf');
      expect(pdf.headers()['content-disposition']).toMatch(/attachment; filename="BWB-/);
      expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

      // Another client asks for this invoice: as if it did not exist.
      const other = await browser.newContext();
      const otherPage = await other.newPage();
      await actAsIp(otherPage);
      await subscribe(otherPage, portalURL, portalDataDir, locale, 'starter', uniqueEmail(`other-${locale}`));
      expect((await otherPage.request.get(`${portalURL}${href}`)).status()).toBe(404);
      expect((await otherPage.request.get(`${portalURL}${href}/pdf`)).status()).toBe(404);
      await other.close();
    });

    test("a UAE business client's invoice downloads as a PINT AE e-invoice beside the PDF; no one else's does", async ({
      page,
      browser,
    }) => {
      test.setTimeout(90_000);
      // The demo client: a VAT-registered company in Dubai, billed by the demo's UAE firm.
      await signIn(page, portalURL, portalDataDir, locale, 'client@example.com');
      await page.goto(url(locale, '/account/subscription'));
      const view = page
        .getByRole('table')
        .locator('tbody tr')
        .first()
        .getByRole('link', { name: new RegExp(t(locale, 'invoices.view')) });
      const href = (await view.getAttribute('href'))!;
      await view.click();
      const link = page.getByRole('link', { name: t(locale, 'invoice.downloadXml') });
      await expect(link).toHaveAttribute('href', `${href}/xml`);
      const xml = await page.request.get(`${portalURL}${href}/xml`);
      expect(xml.status()).toBe(200);
      expect(xml.headers()['content-type']).toBe('application/xml; charset=utf-8');
      expect(xml.headers()['content-disposition']).toMatch(/^attachment; filename="BWB-\d{4}-\d{4}\.xml"$/);
      expect(xml.headers()['cache-control']).toBe('private, no-store');
      const body = await xml.text();
      expect(body).toContain('<cbc:CustomizationID>urn:peppol:pint:billing-1@ae-1</cbc:CustomizationID>');
      expect(body).toContain('<cbc:CompanyID>100234567800003</cbc:CompanyID>');

      // Another client (a person: no company, no tax number) gets no e-invoice of their own, and
      // the demo client's reads as if it did not exist.
      const other = await browser.newContext();
      const otherPage = await other.newPage();
      await actAsIp(otherPage);
      await subscribe(otherPage, portalURL, portalDataDir, locale, 'starter', uniqueEmail(`xml-${locale}`));
      expect((await otherPage.request.get(`${portalURL}${href}/xml`)).status()).toBe(404);
      await otherPage.goto(url(locale, '/account/subscription'));
      const own = otherPage
        .getByRole('table')
        .locator('tbody tr')
        .first()
        .getByRole('link', { name: new RegExp(t(locale, 'invoices.view')) });
      const ownHref = (await own.getAttribute('href'))!;
      await own.click();
      await expect(otherPage.getByRole('link', { name: t(locale, 'invoice.download') })).toBeVisible();
      await expect(otherPage.getByRole('link', { name: t(locale, 'invoice.downloadXml') })).toHaveCount(0);
      expect((await otherPage.request.get(`${portalURL}${ownHref}/xml`)).status()).toBe(404);
      await other.close();
    });

    test('a client without an active subscription sees so, with a way to the packages', async ({ page }) => {
      await signIn(page, portalURL, portalDataDir, locale, 'former@example.com');
      await page.goto(url(locale, '/account/subscription'));
      await expect(page.getByText(t(locale, 'subscription.none')).first()).toBeVisible();
      await expect(page.getByRole('link', { name: t(locale, 'subscription.seePlans') })).toHaveAttribute(
        'href',
        at(locale, '/pricing'),
      );
      await expect(page.getByRole('link', { name: t(locale, 'subscription.cancelSubscription') })).toHaveCount(0);
      await expect(page.getByRole('link', { name: t(locale, 'subscription.changePlan') })).toHaveCount(0);
    });
  });
}

for (const locale of LOCALES) {
  test(`on a phone the change and cancel dialogs read and Tab in the same order: keep, then confirm (${locale}) @phone`, async ({
    page,
  }, testInfo) => {
    test.skip(testInfo.project.name !== 'mobile', 'phones only (wider screens set the two buttons side by side)');
    test.setTimeout(60_000);
    await subscribe(page, portalURL, portalDataDir, locale, 'business', uniqueEmail(`order-${locale}`));
    await page.goto(url(locale, '/account/subscription'));
    await hydrated(page);
    for (const [step, trigger] of [
      ['change', 'subscription.changePlan'],
      ['cancel', 'subscription.cancelSubscription'],
    ] as const) {
      await page.getByRole('link', { name: t(locale, trigger) }).click();
      const dialog = page.getByRole('dialog');
      const keep = dialog.getByRole('button', { name: t(locale, `${step}.keep`) });
      const confirm = dialog.getByRole('button', { name: t(locale, `${step}.confirm`) });
      await expect(confirm).toBeVisible();
      // Seen from the top: keep, then confirm (stacked on a phone).
      const [keepBox, confirmBox] = [(await keep.boundingBox())!, (await confirm.boundingBox())!];
      expect(keepBox.y + keepBox.height).toBeLessThanOrEqual(confirmBox.y);
      // Reached by Tab in the same order.
      await keep.focus();
      await page.keyboard.press('Tab');
      await expect(confirm).toBeFocused();
      await page.keyboard.press('Shift+Tab');
      await expect(keep).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('dialog')).toHaveCount(0);
    }
  });
}

test.describe('portal jobs over a moving clock (a server of its own)', () => {
  test.describe.configure({ mode: 'serial' });
  const port = Number(process.env.E2E_PORT ?? 3210) + 510;
  const dataDir = `.cache/e2e/portal-clock-${port}`;
  let server: Awaited<ReturnType<typeof startPortalServer>>;
  const own = (locale: Locale, path: string) => `${server.base}${at(locale, path)}`;
  const clockHook = (page: Page, name: string, body: unknown) =>
    page.request.post(`${server.base}/api/portal/test/${name}`, { data: body });

  test.beforeAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    server = await startPortalServer(port, dataDir);
  });
  test.afterAll(() => {
    server?.child.kill('SIGKILL');
  });

  test('renewal reminder 7 days before, once; a scheduled change takes effect at renewal with a new invoice', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const email = uniqueEmail('clock');
    await subscribe(page, server.base, dataDir, 'en', 'starter', email);
    await page.goto(own('en', '/account/subscription'));
    await hydrated(page);
    await page.getByRole('link', { name: t('en', 'subscription.changePlan') }).click();
    await page.getByRole('dialog').getByRole('radio').last().check();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: t('en', 'change.confirm') })
      .click();
    await expect(page.getByRole('button', { name: t('en', 'subscription.withdraw') })).toBeVisible();
    const reminders = () => outbox(dataDir, email).filter((m) => /remind|renew/i.test(m.subject)).length;
    // 22 days on: more than 7 days before renewal, no reminder yet.
    expect((await clockHook(page, 'clock', { advanceMs: 22 * DAY })).ok()).toBe(true);
    expect(reminders()).toBe(0);
    // 24 days on: inside the 7 days, one reminder; running the jobs again sends no second one.
    await clockHook(page, 'clock', { advanceMs: 2 * DAY });
    await expect.poll(reminders).toBe(1);
    await clockHook(page, 'jobs', {});
    await clockHook(page, 'jobs', {});
    expect(reminders()).toBe(1);
    // Past the billing date: the change applies and a second invoice is issued at the new price.
    await clockHook(page, 'clock', { advanceMs: 8 * DAY });
    await page.goto(own('en', '/account/subscription'));
    await expect(page.getByRole('table').locator('tbody tr')).toHaveCount(2);
    await expect(page.getByRole('button', { name: t('en', 'subscription.withdraw') })).toHaveCount(0);
  });

  for (const javaScript of [true, false]) {
    test(`when invoices cannot be loaded, the page says so with a retry, and the rest still works (JavaScript ${javaScript ? 'on' : 'off'})`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ javaScriptEnabled: javaScript });
      const page = await context.newPage();
      await actAsIp(page);
      await signIn(page, server.base, dataDir, 'en', 'client@example.com');
      await clockHook(page, 'invoices-fail', { fail: true });
      await page.goto(own('en', '/account/subscription'));
      // With JavaScript the retry runs the loaders again in place; without it, it loads the page
      // again (an address that differs only in its fragment would only scroll): twice here.
      if (javaScript) await hydrated(page);
      await expect(page.getByText(t('en', 'invoices.error'))).toBeVisible();
      await expect(page.getByText(t('en', 'summary.nextBilling')).first()).toBeVisible();
      const retry = page.getByRole('link', { name: t('en', 'invoices.retry') });
      if (!javaScript) {
        await retry.click();
        await expect(page).toHaveURL(/[?&]retry=1#billing-history$/);
        await expect(page.getByText(t('en', 'invoices.error'))).toBeVisible();
      }
      await clockHook(page, 'invoices-fail', { fail: false });
      await retry.click();
      await expect(page.getByRole('table')).toBeVisible();
      if (!javaScript) await expect(page).toHaveURL(/[?&]retry=2#billing-history$/);
      await context.close();
    });
  }
});

test.describe('portal without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  for (const locale of LOCALES) {
    test(`subscribe, change plan and cancel as plain pages (${locale})`, async ({ page }) => {
      const email = uniqueEmail(`nojs-${locale}`);
      await subscribe(page, portalURL, portalDataDir, locale, 'starter', email);
      await expect(page).toHaveURL(/\/account\/subscription\?welcome=1/);
      await expect(page.getByText(t(locale, 'welcome.title')).first()).toBeVisible();
      await page.getByRole('link', { name: t(locale, 'subscription.changePlan') }).click();
      await expect(page).toHaveURL(/step=change/);
      await page.getByRole('radio').last().check();
      await page.getByRole('button', { name: t(locale, 'change.confirm') }).click();
      await expect(page.getByRole('button', { name: t(locale, 'subscription.withdraw') })).toBeVisible();
      await page.getByRole('link', { name: t(locale, 'subscription.cancelSubscription') }).click();
      await expect(page).toHaveURL(/step=cancel/);
      await expect(page.getByRole('heading', { name: t(locale, 'cancel.title') })).toBeVisible();
      await page.getByRole('button', { name: t(locale, 'cancel.confirm') }).click();
      await expect(page.getByRole('button', { name: t(locale, 'subscription.resume') })).toBeVisible();
    });
  }
});

test('a cross-site form post is refused and changes nothing', async ({ page }) => {
  await subscribe(page, portalURL, portalDataDir, 'en', 'business', uniqueEmail('csrf'));
  const res = await page.request.post(`${portalURL}/account/subscription`, {
    form: { intent: 'cancel' },
    headers: { Origin: 'https://evil.example' },
  });
  expect(res.status()).toBe(403);
  // Other methods from another site are refused the same way (Remix itself answered them with a 500).
  for (const method of ['PUT', 'DELETE', 'PATCH'] as const) {
    const other = await page.request.fetch(`${portalURL}/account/subscription`, {
      method,
      form: { intent: 'cancel' },
      headers: { Origin: 'https://evil.example' },
    });
    expect(other.status(), method).toBe(403);
    expect(await other.text()).toContain('This form was sent from another site and was not accepted.');
  }
  await page.goto(url('en', '/account/subscription'));
  await expect(page.getByRole('button', { name: t('en', 'subscription.resume') })).toHaveCount(0);
});
