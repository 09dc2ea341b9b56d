// Issue 40, bug A: after paying, the code typed (or autofilled by a phone) into /account/verify
// the moment the field appears must be the code that is posted, whole: nothing on the page (its
// hydration, a re-render, a script) may alter what a person typed or pasted into a field. Against
// the main server (a production build with PREVIEW_SECRET and SANITY_WEBHOOK_SECRET, as reported).
// A guard: it passes on the code before issue 40 too, the 4-of-6 report was not reproduced here.
import { expect, test } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { at, LOCALES } from './helpers';
import { fillCheckout, t, uniqueEmail, waitForMail } from './portal-helpers';

const dataDir = `.cache/e2e/data-${new URL(baseURL).port}`;

for (const locale of LOCALES) {
  test(`after paying, a code typed as soon as the field appears is posted whole and signs in (${locale})`, async ({
    page,
  }) => {
    const email = uniqueEmail('autofill');
    await page.goto(at(locale, '/pricing'));
    await page.getByTestId('plan-starter').getByRole('button').click();
    await expect(page).toHaveURL(/\/checkout\/cs_/);
    await fillCheckout(page, locale, email, '4242 4242 4242 4242');
    const field = page.getByLabel(t(locale, 'verify.code'));
    // No wait for hydration or anything else: the field is typed into the moment it is there.
    const mail = waitForMail(dataDir, email, /\b\d{6}\b/);
    await field.waitFor();
    const code = /\b(\d{6})\b/.exec((await mail).text)![1]!;
    await field.pressSequentially(code, { delay: 60 });
    await expect(field).toHaveValue(code);
    // Still whole once the page has settled (hydrated, its scripts run).
    await page.waitForLoadState('load');
    await page.waitForTimeout(1500);
    await expect(field).toHaveValue(code);
    await page.getByRole('button', { name: t(locale, 'verify.submitCheckout'), exact: true }).click();
    await expect(page).toHaveURL(/\/account\/subscription\?welcome=1/, { timeout: 15_000 });
  });
}
