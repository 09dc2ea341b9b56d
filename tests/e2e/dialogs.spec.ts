import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { at, hydrated, LOCALES } from './helpers';

/** Accessibility of the conversion dialogs and the toast hotkey, in both languages. */
const axe = async (page: Page) =>
  (await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()).violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );

for (const locale of LOCALES) {
  test(`the booking dialog has no accessibility violations (${locale}) @phone`, async ({ page }) => {
    await page.goto(at(locale, '/'));
    await hydrated(page);
    await page.getByTestId('floating-booking').click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    expect(await dialog.evaluate((el) => getComputedStyle(el).direction)).toBe(locale === 'ar' ? 'rtl' : 'ltr');
    expect(await axe(page)).toEqual([]);
  });

  test(`the verification dialog has no accessibility violations, and its error is announced (${locale}) @phone`, async ({
    page,
  }) => {
    await page.addInitScript(() => window.localStorage.setItem('wa_chat_verification_required', 'true'));
    await page.goto(at(locale, '/'));
    await hydrated(page);
    await page.getByTestId('floating-chat').click();
    const dialog = page.getByTestId('verification-dialog');
    await expect(dialog).toBeVisible();
    expect(await axe(page)).toEqual([]);
    const input = dialog.getByRole('textbox');
    await input.fill('abc');
    await input.press('Enter');
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    const describedBy = await input.getAttribute('aria-describedby');
    expect(describedBy).toBeTruthy();
    await expect(page.locator(`[id="${describedBy!.split(' ')[0]}"]`)).toHaveText(
      locale === 'en' ? 'Please enter a valid number' : /رقم/,
    );
    expect(await axe(page)).toEqual([]);
  });
}

test('F8 moves focus to the notifications, where a screen reader hears the toast', async ({ page }) => {
  await page.goto('/');
  await hydrated(page);
  await page.getByTestId('floating-chat').click();
  await expect(page.getByTestId('toast')).toBeVisible();
  await page.keyboard.press('F8');
  const focusedInViewport = await page.evaluate(() => {
    const active = document.activeElement;
    return (
      !!active && !!active.closest('[aria-label*="F8"], ol, [role="region"]') && !!active.closest('[role="region"]')
    );
  });
  expect(focusedInViewport).toBe(true);
  await expect(page.getByRole('region', { name: /F8/ })).toBeAttached();
});
