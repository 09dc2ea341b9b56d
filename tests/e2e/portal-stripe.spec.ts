import { expect, test, type Page } from '@playwright/test';
import Stripe from 'stripe';
import {
  fakeStripeURL,
  STRIPE_TEST_KEY,
  STRIPE_TEST_PRICES,
  STRIPE_TEST_WEBHOOK_SECRET,
  stripeDataDir,
  stripeURL,
} from '../../playwright.config';
import { at, expectLanguage, expectNoRawKeys, LOCALES, type Locale } from './helpers';
import { actAsIp, outbox, readOutbox, schedulePlanChange, t, uniqueEmail, waitForMail } from './portal-helpers';

/**
 * The same portal flows on Stripe: the site (PORT + 400, production mode) runs the official SDK
 * against tests/fake-stripe.mjs (PORT + 401), which serves Checkout's payment page and sends signed
 * events to /api/stripe/webhook. Portal state (accounts, codes, processed events, mail) is in the
 * embedded store. Both languages; both projects (desktop, phone).
 */
const url = (locale: Locale, path: string) => `${stripeURL}${at(locale, path)}`;
// Each test walks pricing → Checkout → sign-in by emailed code → the flow: 7–12 s alone, far more
// on a busy 2-core machine running several servers.
test.describe.configure({ timeout: 90_000 });

async function fake(path: string, body?: unknown) {
  const res = await fetch(`${fakeStripeURL}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

test.beforeEach(async ({ page }) => {
  await actAsIp(page);
});

/** Pricing → Stripe Checkout (the fake's page) → back on the site → sign in with the emailed code → the success dialog. */
async function subscribeOnStripe(
  page: Page,
  locale: Locale,
  plan: 'starter' | 'business' | 'enterprise',
  email: string,
  business?: { name: string; taxIdType: 'ae_trn' | 'sg_gst'; taxId: string },
) {
  await page.goto(url(locale, '/pricing'));
  await page.getByTestId(`plan-${plan}`).getByRole('button').click();
  await expect(page).toHaveURL(new RegExp(`^${fakeStripeURL}/pay/cs_test_`));
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=name]').fill('Stripe Client');
  await page.locator('input[name=company]').fill('Gulf Trading LLC');
  // Checkout asks for the billing address (and a business tax ID) for the tax invoice.
  await page.locator('input[name=line1]').fill('Office 2207, Cluster X');
  await page.locator('input[name=city]').fill('Dubai');
  await page.locator('input[name=country]').fill('AE');
  if (business) {
    await page.locator('input[name=business_name]').fill(business.name);
    await page.locator('select[name=tax_id_type]').selectOption(business.taxIdType);
    await page.locator('input[name=tax_id_value]').fill(business.taxId);
  }
  await page.locator('input[name=card]').fill('4242 4242 4242 4242');
  await page.getByRole('button').click();
  // Back on the site, not signed in: the sign-in page, to come back to the success dialog.
  await expect(page).toHaveURL(/\/account\?next=/);
  await page.getByLabel(t(locale, 'signIn.email')).fill(email);
  await page.getByRole('button', { name: t(locale, 'signIn.submit') }).click();
  await expect(page).toHaveURL(/\/account\/verify/);
  const mail = await waitForMail(stripeDataDir, email, /\b\d{6}\b/);
  const code = /\b(\d{6})\b/.exec(mail.text)![1]!;
  await page.getByLabel(t(locale, 'verify.code')).fill(code);
  await page.getByRole('button', { name: t(locale, 'verify.submit'), exact: true }).click();
  await expect(page).toHaveURL(/\/account\/subscription\?welcome=1/);
}

for (const locale of LOCALES) {
  test.describe(`portal on Stripe (${locale})`, () => {
    test('subscribe from pricing through Stripe Checkout: a declined card says so; after paying, sign in and see the success dialog and the welcome email', async ({
      page,
    }) => {
      const email = uniqueEmail(`stripe-sub-${locale}`);
      await page.goto(url(locale, '/pricing'));
      await page.getByTestId('plan-business').getByRole('button').click();
      await expect(page).toHaveURL(/\/pay\/cs_test_/);
      await page.locator('input[name=email]').fill(email);
      await page.locator('input[name=name]').fill('Declined Client');
      await page.locator('input[name=line1]').fill('1 Raffles Place');
      await page.locator('input[name=country]').fill('SG');
      await page.locator('input[name=card]').fill('4000 0000 0000 0002');
      await page.getByRole('button').click();
      await expect(page.getByTestId('fake-stripe-error')).toContainText('declined');

      await subscribeOnStripe(page, locale, 'business', email);
      await expectLanguage(page, locale);
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByRole('heading', { name: t(locale, 'welcome.title') })).toBeVisible();
      await dialog
        .getByRole('button', { name: t(locale, 'welcome.close') })
        .first()
        .click();
      await expectNoRawKeys(page);
      // The webhook's welcome email, with Stripe's invoice number, in the page's language; once.
      const welcome = await waitForMail(stripeDataDir, email, /FAKE-\d{4}/);
      expect(welcome.html).toContain(locale === 'ar' ? 'dir="rtl"' : 'lang="en"');
      await fake('/_fake/idle');
      expect(outbox(stripeDataDir, email).filter((m) => /FAKE-\d{4}/.test(m.text))).toHaveLength(1);
    });

    test('change plan (a schedule for the next billing date), withdraw it, cancel and resume; each confirmed once by email', async ({
      page,
    }) => {
      const email = uniqueEmail(`stripe-chg-${locale}`);
      await subscribeOnStripe(page, locale, 'starter', email);
      await page.goto(url(locale, '/account/subscription'));
      await schedulePlanChange(page, locale);
      await page.getByRole('button', { name: t(locale, 'subscription.withdraw') }).click();
      // While it is sent the button reads "Withdrawing…": wait for the page to confirm it is done.
      await expect(page.getByRole('status').filter({ hasText: t(locale, 'messages.changeWithdrawn') })).toBeVisible();
      await expect(page.getByRole('button', { name: t(locale, 'subscription.withdraw') })).toHaveCount(0);

      await page.getByRole('link', { name: t(locale, 'subscription.cancelSubscription') }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: t(locale, 'cancel.confirm') })
        .click();
      await expect(page.getByRole('button', { name: t(locale, 'subscription.resume') })).toBeVisible();
      await page.reload();
      await expect(page.getByRole('button', { name: t(locale, 'subscription.resume') })).toBeVisible();
      await page.getByRole('button', { name: t(locale, 'subscription.resume') }).click();
      await expect(page.getByRole('link', { name: t(locale, 'subscription.cancelSubscription') })).toBeVisible();

      // Every event delivered (the webhook reports the same changes): still one email per change.
      await fake('/_fake/idle');
      const mails = outbox(stripeDataDir, email);
      const subjects = mails.map((m) => m.subject);
      expect(new Set(subjects.filter((s) => !/\d{6}/.test(s))).size).toBe(
        subjects.filter((s) => !/\d{6}/.test(s)).length,
      );
      // welcome, plan change, change withdrawn, cancellation (and the sign-in code)
      expect(mails.length).toBeGreaterThanOrEqual(5);
    });

    test("invoices from Stripe: the invoice page and PDF in the page's language; another client's invoice is 404", async ({
      page,
      browser,
    }) => {
      const email = uniqueEmail(`stripe-inv-${locale}`);
      await subscribeOnStripe(page, locale, 'enterprise', email);
      await page.goto(url(locale, '/account/subscription'));
      const row = page.getByRole('table').locator('tbody tr').first();
      await expect(row).toContainText('FAKE-');
      const view = row.getByRole('link', { name: new RegExp(t(locale, 'invoices.view')) });
      const href = (await view.getAttribute('href'))!;
      expect(href).toMatch(new RegExp(`^${locale === 'ar' ? '/ar' : ''}/account/invoices/in_`));
      await view.click();
      await expect(page.getByRole('heading', { level: 1 })).toContainText(t(locale, 'invoice.title'));
      await expect(page.getByText('Gulf Trading LLC').first()).toBeVisible();
      const pdf = await page.request.get(`${stripeURL}${href}/pdf`);
      expect(pdf.status()).toBe(200);
      expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

      const other = await browser.newContext();
      const otherPage = await other.newPage();
      await actAsIp(otherPage);
      await subscribeOnStripe(otherPage, locale, 'starter', uniqueEmail(`stripe-other-${locale}`));
      expect((await otherPage.request.get(`${stripeURL}${href}`)).status()).toBe(404);
      expect((await otherPage.request.get(`${stripeURL}${href}/pdf`)).status()).toBe(404);
      await other.close();
    });
  });
}

test.describe('Stripe webhook', () => {
  test('refuses unsigned, forged and stale deliveries with 400 and changes nothing; a redelivered event is handled once', async ({
    request,
  }) => {
    const hook = `${stripeURL}/api/stripe/webhook`;
    const payload = JSON.stringify({
      id: 'evt_forged_1',
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: 'cs_forged',
          object: 'checkout.session',
          mode: 'subscription',
          customer: 'cus_forged',
          subscription: 'sub_forged',
        },
      },
    });
    const stripe = new Stripe('sk_test_unused');
    expect(
      (await request.post(hook, { data: payload, headers: { 'Content-Type': 'application/json' } })).status(),
    ).toBe(400);
    const forged = stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_not_ours' });
    expect(
      (
        await request.post(hook, {
          data: payload,
          headers: { 'Content-Type': 'application/json', 'Stripe-Signature': forged },
        })
      ).status(),
    ).toBe(400);
    const stale = stripe.webhooks.generateTestHeaderString({
      payload,
      secret: STRIPE_TEST_WEBHOOK_SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    expect(
      (
        await request.post(hook, {
          data: payload,
          headers: { 'Content-Type': 'application/json', 'Stripe-Signature': stale },
        })
      ).status(),
    ).toBe(400);
    const big = 'x'.repeat(1024 * 1024 + 10);
    expect(
      (
        await request.post(hook, {
          data: big,
          headers: { 'Content-Type': 'application/json', 'Stripe-Signature': forged },
        })
      ).status(),
    ).toBe(413);

    // A real checkout (through the SDK and the fake's payment page); its completed event sent again is a no-op.
    const api = new URL(fakeStripeURL);
    const sdk = new Stripe(STRIPE_TEST_KEY, { host: api.hostname, port: Number(api.port), protocol: 'http' });
    const email = uniqueEmail('stripe-hook');
    const session = await sdk.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: STRIPE_TEST_PRICES.starter[0], quantity: 1 }],
      success_url: `${stripeURL}/account/subscription?welcome=1`,
      cancel_url: `${stripeURL}/pricing`,
      locale: 'en',
      metadata: { plan: 'starter', locale: 'en' },
    });
    const paid = await fetch(session.url!, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({
        email,
        name: 'Hook Client',
        card: '4242424242424242',
        line1: '1 Raffles Place',
        country: 'SG',
      }),
    });
    expect(paid.status).toBe(303);
    await waitForMail(stripeDataDir, email, /FAKE-\d{4}/);
    const events: { id: string; type: string; object: string; deliveries: { status?: number }[] }[] =
      await fake('/_fake/events');
    const completed = events.find((e) => e.type === 'checkout.session.completed' && e.object === session.id)!;
    expect(completed.deliveries.at(-1)?.status).toBe(200);
    const allMail = () => readOutbox(stripeDataDir).length;
    const before = allMail();
    const again = await fake('/_fake/redeliver', { id: completed.id });
    expect(again.deliveries.at(-1).status).toBe(200);
    expect(allMail()).toBe(before);
    expect(outbox(stripeDataDir, email)).toHaveLength(1);
  });
});

for (const locale of LOCALES) {
  test(`tax on Stripe (${locale}): details given at Checkout reach Stripe and its invoice; changed in the portal, only the next invoice has them`, async ({
    page,
  }) => {
    const email = uniqueEmail(`stripe-tax-${locale}`);
    await subscribeOnStripe(page, locale, 'starter', email, {
      name: 'Haddad Trading LLC',
      taxIdType: 'ae_trn',
      taxId: '100234567800003',
    });
    await page.goto(url(locale, '/account/subscription'));
    const view = page.getByTestId('invoice-row').first().getByTestId('invoice-view');
    const issuedPath = (await view.getAttribute('href'))!;
    await page.goto(`${stripeURL}${issuedPath}`);
    // Stripe's invoice, the tax invoice: the client's legal name and TRN, VAT 5 % inside the price.
    await expect(page.locator('[aria-labelledby="billed-to"]')).toContainText('Haddad Trading LLC');
    await expect(page.getByTestId('invoice-customer-tax-id')).toContainText('100234567800003');
    const tax = page.getByTestId('invoice-stripe-tax');
    await expect(tax).toContainText(t(locale, 'invoice.stripeTax.heading'));
    await expect(tax).toContainText(/VAT.*5/);
    await expectNoRawKeys(page);
    if (process.env.SHOT_DIR) {
      // A look at Stripe's tax on the invoice page at 390 px, in both directions.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `${process.env.SHOT_DIR}/stripe-invoice-${locale}.png`, fullPage: true });
    }
    const hosted = await (await fetch((await page.getByTestId('stripe-hosted').getAttribute('href'))!)).text();
    expect(hosted).toContain('ae_trn 100234567800003');

    // The portal's form has what Stripe holds; a wrong TRN is refused in the page's language, as typed.
    await page.goto(url(locale, '/account/billing-details'));
    await expectLanguage(page, locale);
    const form = page.getByTestId('billing-details-form');
    await expect(form.getByLabel(t(locale, 'billingDetails.fields.legalName'))).toHaveValue('Haddad Trading LLC');
    await expect(page.getByTestId('billing-country')).toHaveValue('AE');
    const trn = form.getByLabel(t(locale, 'billingDetails.fields.registrationNumber'));
    await trn.fill('1234 567');
    await page.getByTestId('billing-details-save').click();
    await expect
      .poll(async () =>
        (await page.getByTestId('billing-details-error').textContent())?.replace(/[\u2066-\u2069]/g, ''),
      )
      .toContain(t(locale, 'billingDetails.errors.trn'));
    await expect(trn).toHaveValue('1234 567');

    // Moved to Singapore: zero-rated from the next invoice on.
    await form.getByLabel(t(locale, 'billingDetails.fields.address')).fill('8 Marina View\n#40-01');
    await form.getByLabel(t(locale, 'billingDetails.fields.city')).fill('Singapore');
    await form.getByLabel(t(locale, 'billingDetails.fields.postalCode')).fill('018960');
    await page.getByTestId('billing-country').selectOption('SG');
    await trn.fill('M2-1234567-8');
    await page.getByTestId('billing-details-save').click();
    await expect(page.getByTestId('portal-message')).toContainText(t(locale, 'billingDetails.saved'));
    await expect(trn).toHaveValue('M2-1234567-8');

    // The issued invoice is as Stripe finalized it.
    await page.goto(`${stripeURL}${issuedPath}`);
    await expect(page.getByTestId('invoice-customer-tax-id')).toContainText('100234567800003');

    // The renewal carries the new details and the zero rate.
    await fake('/_fake/advance', { seconds: 32 * 24 * 3600 });
    await page.goto(url(locale, '/account/subscription'));
    const renewal = page.getByTestId('invoice-row').first().getByTestId('invoice-view');
    await expect(renewal).not.toHaveAttribute('href', issuedPath);
    await page.goto(`${stripeURL}${(await renewal.getAttribute('href'))!}`);
    await expect(page.getByTestId('invoice-customer-tax-id')).toContainText('M212345678');
    await expect(page.locator('[aria-labelledby="billed-to"]')).toContainText(
      locale === 'ar' ? 'سنغافورة' : 'Singapore',
    );
    await expect(page.getByTestId('invoice-stripe-tax')).toContainText(/VAT 0[\u200e\u200f]?[%٪]/);
    const renewed = await (await fetch((await page.getByTestId('stripe-hosted').getAttribute('href'))!)).text();
    expect(renewed).toContain('sg_gst M212345678');
    // The firm's TRN (the demo tax profile's), set on the subscription once Checkout completed.
    expect(renewed).toContain('data-testid="account-tax-id">100000000000003');
  });
}
