import { execFileSync } from 'node:child_process';
import { expect, type Page } from '@playwright/test';
import { waitForMail, outbox } from './portal-helpers';

/**
 * The Studio's sign-in for tests of the local Content Lake (ADR 0025), as an editor does it:
 * shared by studio-lake.spec.ts and studio-public.spec.ts.
 */

/** The operator's command (`npm run lake:editor`), with the server's settings. */
export function lakeEditor(env: Record<string, string>, ...args: string[]): string {
  return execFileSync(
    process.execPath,
    ['node_modules/vite-node/vite-node.mjs', '--config', 'vitest.config.ts', 'scripts/lake-editor.ts', ...args],
    { env: { ...process.env, ...env }, encoding: 'utf8' },
  ).trim();
}

/**
 * Signs in as an editor the way one does: the sign-in page at `base`, the code from the email
 * (the outbox in `dataDir`), then the redirect to the Studio with the token in `#token=`, which
 * the Studio keeps. Returns the token.
 */
export async function signInAsEditor(page: Page, base: string, dataDir: string, email: string): Promise<string> {
  const before = outbox(dataDir, email).length;
  await page.goto(`${base}/studio/sign-in`);
  await page.getByLabel('Your editor email address').fill(email);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  const codeField = page.getByLabel('6-digit code');
  await expect(codeField).toBeVisible();
  const mail = await waitForMail(dataDir, email, /\b\d{6}\b/, before);
  await codeField.fill(/\b(\d{6})\b/.exec(mail.text)![1]);
  const redirected = page.waitForResponse((r) => r.request().method() === 'POST' && r.status() === 302);
  await page.getByRole('button', { name: 'Sign in to the Studio' }).click();
  const location = (await redirected).headers().location ?? '';
  expect(location).toMatch(/^\/studio#token=lk1\.[A-Za-z0-9]{43}$/);
  // The Studio takes the token from the address into its localStorage. It moves on to its first
  // tool meanwhile: a read during that navigation finds no page to read, and is tried again.
  const tokenKept = () =>
    page.evaluate(() => Object.keys(localStorage).some((k) => k.startsWith('__studio_auth_token_'))).catch(() => false);
  await expect.poll(tokenKept, { timeout: 30_000 }).toBe(true);
  return location.split('#token=')[1];
}
