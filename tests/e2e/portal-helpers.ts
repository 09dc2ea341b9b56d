import { expect, type Page } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { at, hydrated, type Locale } from './helpers';
import { startOwnServer } from './own-server';

/** The portal's interface strings, as the pages show them (both languages, from the key files). */
const strings: Record<Locale, Record<string, unknown>> = {
  en: JSON.parse(readFileSync('public/locales/en/portal.json', 'utf8')),
  ar: JSON.parse(readFileSync('public/locales/ar/portal.json', 'utf8')),
};

export function t(locale: Locale, key: string, values: Record<string, string | number> = {}): string {
  const value = key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], strings[locale]);
  if (typeof value !== 'string') throw new Error(`portal.json (${locale}) has no string at ${key}`);
  return value.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? ''));
}

/** A fresh client address for one test (tests run in parallel and must not share a subscription). */
export function uniqueEmail(label: string): string {
  return `${label}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.com`;
}

/** A made-up client address for the per-IP limits (the portal test server trusts X-Forwarded-For). */
export async function actAsIp(page: Page) {
  const ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
  await page.context().setExtraHTTPHeaders({ 'X-Forwarded-For': ip });
  return ip;
}

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  date: string;
  messageId: string;
  file: string;
}

/** Emails the server wrote to its outbox folder for this address, oldest first. */
export function outbox(dataDir: string, to: string): OutboxMail[] {
  return readOutbox(dataDir)
    .filter((m) => m.to.toLowerCase() === to.toLowerCase())
    .sort((a, b) => a.date.localeCompare(b.date) || a.file.localeCompare(b.file));
}

/** Every email in the server's outbox folder (the .json twin of each message), in no order. */
export function readOutbox(dataDir: string): OutboxMail[] {
  const dir = path.join(dataDir, 'outbox');
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
  return files.map((f) => ({ ...(JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as OutboxMail), file: f }));
}

/** Waits for an email to this address whose text matches, and returns it. */
export async function waitForMail(dataDir: string, to: string, match: RegExp, after = 0): Promise<OutboxMail> {
  let found: OutboxMail | undefined;
  await expect
    .poll(
      () =>
        (found = outbox(dataDir, to)
          .slice(after)
          .find((m) => match.test(m.text) || match.test(m.subject))),
      // Sent off the request path: on a loaded machine it may take a few seconds.
      { timeout: 20_000 },
    )
    .toBeTruthy();
  return found!;
}

/** Signs in through the emailed code, as a client would. */
export async function signIn(page: Page, base: string, dataDir: string, locale: Locale, email: string) {
  const before = outbox(dataDir, email).length;
  await page.goto(`${base}${at(locale, '/account')}`);
  await page.getByLabel(t(locale, 'signIn.email')).fill(email);
  await page.getByRole('button', { name: t(locale, 'signIn.submit') }).click();
  await expect(page).toHaveURL(/\/account\/verify/);
  const mail = await waitForMail(dataDir, email, /\b\d{6}\b/, before);
  const code = /\b(\d{6})\b/.exec(mail.text)![1];
  await page.getByLabel(t(locale, 'verify.code')).fill(code);
  await page.getByRole('button', { name: t(locale, 'verify.submit'), exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${locale === 'ar' ? '/ar' : ''}/account(/subscription)?([?#]|$)`));
  await expect(page.getByRole('button', { name: t(locale, 'account.signOut'), exact: true })).toBeVisible();
  return { mail, code };
}

/**
 * Subscribes from the pricing page through the local checkout, then confirms the address with
 * the code emailed to it, which takes the payment and signs the new client in.
 */
export async function subscribe(
  page: Page,
  base: string,
  dataDir: string,
  locale: Locale,
  plan: 'starter' | 'business' | 'enterprise',
  email: string,
  name?: string,
) {
  await page.goto(`${base}${at(locale, '/pricing')}`);
  await page.getByTestId(`plan-${plan}`).getByRole('button').click();
  await expect(page).toHaveURL(/\/checkout\/cs_/);
  await fillCheckout(page, locale, email, '4242 4242 4242 4242', name);
  await confirmCheckout(page, dataDir, locale, email);
}

/** On the page the checkout leads to: types the code emailed to the payer's address and confirms. */
export async function confirmCheckout(page: Page, dataDir: string, locale: Locale, email: string) {
  await expect(page).toHaveURL(/\/account\/verify/, { timeout: 15_000 });
  await expect(page.getByRole('heading', { name: t(locale, 'verify.titleCheckout') })).toBeVisible();
  const mail = await waitForMail(dataDir, email, /\b\d{6}\b/);
  const code = /\b(\d{6})\b/.exec(mail.text)![1];
  await page.getByLabel(t(locale, 'verify.code')).fill(code);
  await page.getByRole('button', { name: t(locale, 'verify.submitCheckout'), exact: true }).click();
  await expect(page).toHaveURL(/\/account\/subscription\?welcome=1/, { timeout: 15_000 });
}

/**
 * On the subscription page (with JavaScript): opens "Change plan", picks the last plan that may
 * be chosen and confirms; returns once the scheduled change shows its Withdraw button. Waits for
 * hydration first: before it, the link opens the step as its own page (the no-JavaScript form).
 */
export async function schedulePlanChange(page: Page, locale: Locale) {
  await hydrated(page);
  await page.getByRole('link', { name: t(locale, 'subscription.changePlan') }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog
    .getByRole('radio')
    .filter({ hasNot: page.locator('[disabled]') })
    .last()
    .check();
  await dialog.getByRole('button', { name: t(locale, 'change.confirm') }).click();
  await expect(page.getByRole('button', { name: t(locale, 'subscription.withdraw') })).toBeVisible();
}

export async function fillCheckout(page: Page, locale: Locale, email: string, card: string, name = 'Test Client') {
  await page.getByLabel(t(locale, 'checkout.email')).fill(email);
  await page.getByLabel(t(locale, 'checkout.name')).fill(name);
  await page.getByLabel(t(locale, 'checkout.cardNumber')).fill(card);
  await page.getByLabel(t(locale, 'checkout.expiry')).fill('12/34');
  await page.getByLabel(t(locale, 'checkout.cvc')).fill('123');
  await page.getByRole('button', { name: new RegExp(t(locale, 'checkout.pay', { price: '' }).split(' ')[0]) }).click();
}

/**
 * A portal server of a test's own (embedded billing, test hooks, no periodic jobs), for tests that
 * move the billing clock or break things on purpose, which would disturb the shared server.
 */
export function startPortalServer(port: number, dataDir: string, env: Record<string, string> = {}) {
  return startOwnServer(port, dataDir, { NODE_ENV: 'test', PORTAL_TEST_HOOKS: '1', TRUST_PROXY: '1', ...env });
}
