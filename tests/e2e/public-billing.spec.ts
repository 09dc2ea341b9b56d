import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { at, hydrated, LOCALES } from './helpers';
import { kill, startOwnServer, type OwnServer } from './own-server';

/**
 * No test cards on a public site (issue 27, item 8): a production server whose SITE_URL is a
 * public address, with no Stripe keys and no BILLING=demo, runs no billing. /pricing offers each
 * package with Book a Consultation (both languages), a posted Subscribe starts no checkout,
 * nothing is seeded, and the server says so at start.
 */
const PORT = Number(process.env.E2E_PORT ?? 3210) + 560;
const DIR = `.cache/e2e/public-billing-${PORT}`;

const TEXT = {
  en: {
    book: 'Book a Consultation',
    subscribe: 'Subscribe',
    note: 'Each package is arranged with an advisor: book a consultation and we will set it up with you.',
    refused: 'Packages are arranged by consultation on this site. Please book a consultation to start.',
  },
  ar: {
    book: 'احجز استشارة',
    subscribe: 'اشترك الآن',
    note: 'نُعِدّ كل باقة بالتنسيق مع أحد مستشارينا: احجز استشارة لنبدأ معاً.',
    refused: 'تُرتَّب الباقات على هذا الموقع من خلال استشارة. يُرجى حجز استشارة للبدء.',
  },
} as const;

let server: OwnServer;

// In order, in one worker (one server on one port).
test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  execFileSync(process.execPath, ['tests/e2e/prepare.mjs', DIR], { stdio: 'ignore' });
  server = await startOwnServer(PORT, DIR, {
    NODE_ENV: 'production',
    SITE_URL: 'https://www.example.com',
    PORTAL_JOBS_INTERVAL_SECONDS: '0',
  });
});

test.afterAll(async () => {
  if (server) await kill(server);
});

test('the server says at start that there is no billing, and seeds nothing', async () => {
  const log = server.output.join('');
  expect(log.match(/\[billing\] none: https:\/\/www\.example\.com is a public address/g)).toHaveLength(1);
  expect(log).not.toContain('embedded engine');
  // The demo clients and their billing history would be private documents in the write log.
  const writes = path.join(DIR, 'content-writes.ndjson');
  const written = existsSync(writes) ? readFileSync(writes, 'utf8') : '';
  expect(written).not.toMatch(/"billing\.|"portal\.account\./);
});

for (const locale of LOCALES) {
  test(`/pricing offers each package with Book a Consultation, no Subscribe (${locale})`, async ({ page }) => {
    const t = TEXT[locale];
    const response = await page.goto(`${server.base}${at(locale, '/pricing')}`);
    expect(response?.status()).toBe(200);
    await hydrated(page);
    for (const key of ['starter', 'business', 'enterprise']) {
      const plan = page.getByTestId(`plan-${key}`);
      await expect(plan.getByRole('link', { name: new RegExp(`^${t.book}`) })).toHaveCount(1);
      await expect(plan.getByRole('button', { name: new RegExp(t.subscribe) })).toHaveCount(0);
      await expect(plan.locator('form')).toHaveCount(0);
    }
    await expect(page.locator('input[name="intent"][value="subscribe"]')).toHaveCount(0);
    await expect(page.getByTestId('pricing-page')).toContainText(t.note);
    const axe = await new AxeBuilder({ page })
      .include('#main')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    // The package's Book a Consultation (a link to the booking view) opens the booking dialog.
    await page
      .getByTestId('plan-business')
      .getByRole('link', { name: new RegExp(`^${t.book}`) })
      .click();
    await expect(page.getByTestId('booking-dialog')).toBeVisible();
  });

  test(`a posted Subscribe starts no checkout (${locale})`, async () => {
    const response = await fetch(`${server.base}${at(locale, '/pricing')}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.base },
      body: new URLSearchParams({ intent: 'subscribe', plan: 'starter' }),
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain(TEXT[locale].refused);
    const writes = path.join(DIR, 'content-writes.ndjson');
    expect(existsSync(writes) ? readFileSync(writes, 'utf8') : '').not.toContain('billing.checkout');
    // And there is no local checkout page to pay on.
    expect((await fetch(`${server.base}${at(locale, '/checkout/cs_abcdefgh12345678')}`)).status).toBe(404);
  });
}

test('the portal still answers for sign-in', async () => {
  for (const locale of LOCALES) {
    const response = await fetch(`${server.base}${at(locale, '/account')}`);
    expect(response.status).toBe(200);
  }
});
