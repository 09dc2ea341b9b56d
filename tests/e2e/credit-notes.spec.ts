import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { portalDataDir, portalURL } from '../../playwright.config';
import { at, expectNoRawKeys, LOCALES } from './helpers';
import { actAsIp, subscribe, t, uniqueEmail } from './portal-helpers';

/**
 * Tax credit notes in the portal (embedded engine, the server with the test hooks): the
 * operator's command credits a client's invoice; the billing history shows the note beside it,
 * with its own page and PDF in the client's language; another client gets 404 for both.
 */
const label = (locale: 'en' | 'ar', key: string) =>
  (JSON.parse(readFileSync(`public/locales/${locale}/emails.json`, 'utf8')) as Record<string, Record<string, string>>)
    .taxCreditNote[key];

test.beforeEach(async ({ page }) => {
  await actAsIp(page);
});

for (const locale of LOCALES) {
  test(`a credit note shows beside the invoice it corrects, with its page and PDF; another client's is 404 (${locale})`, async ({
    page,
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    await subscribe(page, portalURL, portalDataDir, locale, 'business', uniqueEmail(`cn-${locale}`));
    const history = `${portalURL}${at(locale, '/account/subscription')}`;
    await page.goto(history);
    const invoiceRow = page.getByTestId('invoice-row').first();
    const invoiceNumber = (await invoiceRow.locator('th bdi').textContent())!.trim();
    expect(invoiceNumber).toMatch(/^BWB-\d{4}-\d{4}$/);
    await expect(page.getByTestId('credit-note-row')).toHaveCount(0);

    // The operator runs `npm run credit-note -- issue <number> --reason …` (here through the test hook).
    const issue = () =>
      page.request
        .post(`${portalURL}/api/portal/test/credit-note`, {
          data: { invoiceNumber, reason: 'Cancelled in the first week; refunded' },
        })
        .then((r) => r.json());
    const first = await issue();
    expect(first.code).toBe(0);
    expect(first.out).toMatch(new RegExp(`issued: CN-\\d{4}-\\d{4} credits invoice ${invoiceNumber}`));
    const cn = /CN-\d{4}-\d{4}/.exec(first.out)![0];
    expect((await issue()).out).toContain(`already issued: ${cn}`);

    await page.goto(history);
    const noteRow = page.getByTestId('credit-note-row');
    await expect(noteRow).toHaveCount(1);
    await expect(noteRow).toContainText(cn);
    await expect(noteRow).toContainText(invoiceNumber);
    // Right under the invoice it corrects.
    const rows = page.locator('[data-testid="invoice-row"], [data-testid="credit-note-row"]');
    const ids = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
    expect(ids.slice(0, 2)).toEqual(['invoice-row', 'credit-note-row']);
    await expectNoRawKeys(page);
    if (testInfo.project.name === 'mobile' || locale === 'ar') {
      await page.setViewportSize({ width: 390, height: 844 });
      await noteRow.scrollIntoViewIfNeeded();
      await page.screenshot({ path: testInfo.outputPath(`history-${locale}-390.png`), fullPage: false });
    }

    const view = noteRow.getByRole('link', { name: new RegExp(t(locale, 'creditNotes.view')) });
    const href = (await view.getAttribute('href'))!;
    expect(href).toMatch(new RegExp(`^${locale === 'ar' ? '/ar' : ''}/account/credit-notes/cn_`));
    await view.click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(label(locale, 'taxCreditNoteTitle'));
    await expect(page.getByRole('heading', { level: 1 })).toContainText(cn);
    const note = page.getByTestId('credit-note');
    for (const text of [
      invoiceNumber,
      label(locale, 'invoice'),
      label(locale, 'reason'),
      'Cancelled in the first week',
    ])
      await expect(note).toContainText(text);
    await expect(page.getByTestId('credit-note-adjustment')).toContainText(label(locale, 'correctValue'));
    await expectNoRawKeys(page);
    if (locale === 'ar') {
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      await page.screenshot({ path: testInfo.outputPath(`credit-note-${locale}-390.png`), fullPage: true });
    }

    const pdf = await page.request.get(`${portalURL}${href}/pdf`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect(pdf.headers()['content-disposition']).toMatch(/attachment; filename="CN-/);
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

    // Another client asks for this note, by its address: as if it did not exist.
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await actAsIp(otherPage);
    await subscribe(otherPage, portalURL, portalDataDir, locale, 'starter', uniqueEmail(`cn-other-${locale}`));
    expect((await otherPage.request.get(`${portalURL}${href}`)).status()).toBe(404);
    expect((await otherPage.request.get(`${portalURL}${href}/pdf`)).status()).toBe(404);
    await otherPage.goto(`${portalURL}${at(locale, '/account/subscription')}`);
    await expect(otherPage.getByTestId('credit-note-row')).toHaveCount(0);
    await other.close();
  });
}
