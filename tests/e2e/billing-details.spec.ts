import { expect, test, type Locator, type Page } from '@playwright/test';
import { portalDataDir, portalURL } from '../../playwright.config';
import { at, expectLanguage, expectNoRawKeys, LOCALES, type Locale } from './helpers';
import { actAsIp, confirmCheckout, t, uniqueEmail } from './portal-helpers';

/**
 * Issue 41 item 2 in the embedded world: the client's billing details asked at checkout (optional
 * there), the portal's form without JavaScript (localized errors, what was typed kept), the prompt
 * for a client who has none, and an issued invoice that keeps the details it was issued with.
 * SHOT_DIR=dir saves the pages at 390 px for a look at the layout in both directions.
 */
const url = (locale: Locale, path: string) => `${portalURL}${at(locale, path)}`;
test.describe.configure({ timeout: 150_000 });
test.use({ viewport: { width: 390, height: 844 } });

/** Text as read, without the invisible isolates that keep codes left to right (isolateCodes). */
async function expectText(locator: Locator, text: string) {
  await expect.poll(async () => (await locator.textContent())?.replace(/[\u2066-\u2069]/g, '')).toContain(text);
}

async function shot(page: Page, name: string) {
  if (process.env.SHOT_DIR) await page.screenshot({ path: `${process.env.SHOT_DIR}/${name}.png`, fullPage: true });
}

async function pay(page: Page, locale: Locale, email: string, details?: Record<string, string>) {
  await page.goto(url(locale, '/pricing'));
  await page.getByTestId('plan-business').getByRole('button').click();
  await expect(page).toHaveURL(/\/checkout\/cs_/);
  await page.getByLabel(t(locale, 'checkout.email')).fill(email);
  await page.getByLabel(t(locale, 'checkout.name')).fill('Layla Test');
  if (details) {
    const fields = page.getByTestId('checkout-billing-details');
    for (const [name, value] of Object.entries(details))
      if (name === 'country') await fields.getByTestId('billing-country').selectOption(value);
      else await fields.getByLabel(t(locale, `billingDetails.fields.${name}`)).fill(value);
    await shot(page, `checkout-${locale}`);
  }
  await page.getByLabel(t(locale, 'checkout.cardNumber')).fill('4242 4242 4242 4242');
  await page.getByLabel(t(locale, 'checkout.expiry')).fill('12/34');
  await page.getByLabel(t(locale, 'checkout.cvc')).fill('123');
  await page.getByTestId('checkout-pay').click();
  await confirmCheckout(page, portalDataDir, locale, email);
}

async function firstInvoicePath(page: Page, locale: Locale) {
  await page.goto(url(locale, '/account/subscription'));
  return (await page.getByTestId('invoice-row').first().getByTestId('invoice-view').getAttribute('href'))!;
}

test.beforeEach(async ({ page }) => {
  await actAsIp(page);
});

for (const locale of LOCALES) {
  test(`billing details (${locale}): asked at checkout, on the first tax invoice; edited without JavaScript for the next invoices only; a client without them is prompted`, async ({
    page,
    browser,
  }) => {
    await pay(page, locale, uniqueEmail(`details-${locale}`), {
      legalName: 'Haddad Trading LLC',
      address: 'Office 2207, Cluster X\nJumeirah Lake Towers',
      city: 'Dubai',
      country: 'AE',
      registrationNumber: '100234567800003',
    });
    const issued = await firstInvoicePath(page, locale);
    await page.goto(`${portalURL}${issued}`);
    const customer = page.locator('[aria-labelledby="invoice-customer"]');
    await expect(customer).toContainText('Haddad Trading LLC');
    await expect(customer).toContainText('Jumeirah Lake Towers');
    await expect(customer).toContainText(locale === 'ar' ? 'الإمارات العربية المتحدة' : 'United Arab Emirates');
    await expect(page.getByTestId('invoice-customer-registration')).toContainText('100234567800003');
    // The demo firm is in the UAE and bills in SGD: each line in AED too.
    await expect(page.getByTestId('invoice-line-aed').first()).toBeVisible();
    await shot(page, `invoice-${locale}`);

    // The portal's form, without JavaScript: a refused post keeps what was typed and says why.
    const noJs = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    await noJs.addCookies(await page.context().cookies());
    const plain = await noJs.newPage();
    await plain.goto(url(locale, '/account/billing-details'));
    await expectLanguage(plain, locale);
    const form = plain.getByTestId('billing-details-form');
    await expect(form.getByLabel(t(locale, 'billingDetails.fields.legalName'))).toHaveValue('Haddad Trading LLC');
    await form.getByLabel(t(locale, 'billingDetails.fields.city')).fill('');
    await plain.getByTestId('billing-country').selectOption('SG');
    await form.getByLabel(t(locale, 'billingDetails.fields.registrationNumber')).fill('M2-12345');
    await plain.getByTestId('billing-details-save').click();
    const error = plain.getByTestId('billing-details-error');
    await expectText(error, t(locale, 'billingDetails.errors.summary'));
    await expectText(error, t(locale, 'billingDetails.errors.city'));
    await expectText(error, t(locale, 'billingDetails.errors.postalCodeRequired'));
    await expectText(error, t(locale, 'billingDetails.errors.gst'));
    await expect(form.getByLabel(t(locale, 'billingDetails.fields.registrationNumber'))).toHaveValue('M2-12345');
    await expect(plain.getByTestId('billing-country')).toHaveValue('SG');
    await expectNoRawKeys(plain);
    await shot(plain, `billing-details-errors-${locale}`);
    await form.getByLabel(t(locale, 'billingDetails.fields.address')).fill('8 Marina View');
    await form.getByLabel(t(locale, 'billingDetails.fields.city')).fill('Singapore');
    await form.getByLabel(t(locale, 'billingDetails.fields.postalCode')).fill('018960');
    await form.getByLabel(t(locale, 'billingDetails.fields.registrationNumber')).fill('M2-1234567-8');
    await plain.getByTestId('billing-details-save').click();
    await expect(plain.getByTestId('portal-message')).toContainText(t(locale, 'billingDetails.saved'));
    await expect(form.getByLabel(t(locale, 'billingDetails.fields.registrationNumber'))).toHaveValue('M2-1234567-8');
    await noJs.close();

    // The issued invoice keeps what it was issued with.
    await page.goto(`${portalURL}${issued}`);
    await expect(page.getByTestId('invoice-customer-registration')).toContainText('100234567800003');
    await expect(page.locator('[aria-labelledby="invoice-customer"]')).not.toContainText('Marina View');

    // A client who gave none at checkout: asked on /account, never blocked (their invoice is issued).
    await page.context().clearCookies();
    await actAsIp(page);
    await pay(page, locale, uniqueEmail(`no-details-${locale}`));
    await page.goto(url(locale, '/account'));
    const prompt = page.getByTestId('billing-details-prompt');
    await expect(prompt).toContainText(t(locale, 'billingDetails.prompt'));
    await shot(page, `account-prompt-${locale}`);
    await page.goto(url(locale, '/account/subscription'));
    await expect(page.getByTestId('invoice-row')).toHaveCount(1);
  });
}
