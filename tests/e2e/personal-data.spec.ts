import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { baseURL, mainDatabaseUrl } from '../../playwright.config';
import { rows } from './db.mjs';
import { actAsIp, outbox, subscribe, t, uniqueEmail, waitForMail } from './portal-helpers';
import { at, hydrated, LOCALES, type Locale } from './helpers';

/**
 * Issue 42 items 2 and 3, in both languages, with JavaScript on and off: the newsletter's double
 * opt-in (the form still ends subscribed and asks to confirm; the confirmation link works once,
 * an expired or altered one is refused; a sign-up never confirmed is never exported), the one-click
 * unsubscribe (RFC 8058 POST, and the page's button without JavaScript) and re-subscribing; and a
 * client's own data downloaded from the portal, equal to the operator command's file.
 */
const PORT = Number(process.env.E2E_PORT ?? 3210);
const DATA_DIR = `.cache/e2e/data-${PORT}`;
const SITE = 'https://www.bawaba-advisory.com';
const secret = () => readFileSync(`${DATA_DIR}/session-secret`, 'utf8').trim();

const forms: Record<Locale, Record<string, Record<string, unknown>>> = {
  en: JSON.parse(readFileSync('public/locales/en/forms.json', 'utf8')),
  ar: JSON.parse(readFileSync('public/locales/ar/forms.json', 'utf8')),
};
const n = (locale: Locale, key: string): string => {
  const value = key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], forms[locale].newsletter);
  if (typeof value !== 'string') throw new Error(`no forms:newsletter.${key}`);
  return value;
};

/** Runs one of the firm's commands on the main test server's database, as an operator would. */
function command(script: string, args: string[]): string {
  return execFileSync('npx', ['vite-node', '--config', 'vitest.config.ts', `scripts/${script}.ts`, '--', ...args], {
    env: { ...process.env, DATABASE_URL: mainDatabaseUrl, CONTENT_DATA_DIR: DATA_DIR, NODE_ENV: 'production' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
}
const exportedNewsletter = () => command('submissions', ['--since', '2020-01-01', '--kind', 'newsletter', '--csv']);

/** A link of an email, on the test server instead of the public site. */
const local = (link: string) => link.replace(SITE, baseURL);
function linkIn(text: string, page: 'confirm' | 'unsubscribe'): string {
  const match = new RegExp(`${SITE.replace(/\./g, '\\.')}(?:/ar)?/newsletter/${page}\\?\\S+`).exec(text);
  if (!match) throw new Error(`no ${page} link`);
  return match[0];
}
const status = async (email: string) =>
  (await rows(mainDatabaseUrl, 'select status from newsletter_signups where email_key = $1', [email]))[0]?.status;

async function context(browser: Browser, js: boolean) {
  const ctx = await browser.newContext({ javaScriptEnabled: js, baseURL });
  const page = await ctx.newPage();
  await actAsIp(page);
  return { ctx, page };
}

/** Signs up from the footer and waits for the confirmation email; returns it. */
async function signUp(page: Page, locale: Locale, email: string, js: boolean) {
  const before = outbox(DATA_DIR, email).length;
  await page.goto(at(locale, '/about'));
  if (js) await hydrated(page);
  // The page token must be at least 3 s old (ADR 0021).
  await page.waitForTimeout(3300);
  const form = page.getByTestId('newsletter-footer');
  await form.getByLabel(n(locale, 'emailLabel')).fill(email);
  await form.getByRole('button', { name: n(locale, 'subscribe') }).click();
  // Still the spec's subscribed state, now asking to confirm from the email.
  await expect(form.getByRole('status')).toContainText(n(locale, 'subscribed'));
  await expect(form.getByTestId('newsletter-footer-check-email')).toHaveText(n(locale, 'checkEmail'));
  return waitForMail(DATA_DIR, email, /newsletter\/confirm/, before);
}

for (const locale of LOCALES) {
  for (const js of [true, false]) {
    const mode = js ? 'JavaScript on' : 'JavaScript off';

    test(`newsletter (${locale}, ${mode}): pending until confirmed once; never exported before; expired and altered links refused`, async ({
      browser,
    }) => {
      test.setTimeout(240_000);
      const { ctx, page } = await context(browser, js);
      const email = uniqueEmail(`nl-${locale}-${js ? 'js' : 'nojs'}`);
      const mail = await signUp(page, locale, email, js);
      // The email: in the sign-up's language, a list email with the RFC 8058 headers.
      const headers = (
        JSON.parse(readFileSync(`${DATA_DIR}/outbox/${mail.file}`, 'utf8')) as { headers: Record<string, string> }
      ).headers;
      const unsubscribeLink = linkIn(mail.text, 'unsubscribe');
      expect(headers['List-Unsubscribe']).toBe(`<${unsubscribeLink}>`);
      expect(headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
      const eml = readFileSync(`${DATA_DIR}/outbox/${mail.file.replace(/\.json$/, '.eml')}`, 'utf8');
      expect(eml).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
      const confirm = linkIn(mail.text, 'confirm');
      expect(new URL(confirm).pathname).toBe(at(locale, '/newsletter/confirm'));
      expect(await status(email)).toBe('pending');
      expect(exportedNewsletter()).not.toContain(email);

      // Opening the link (a mail scanner would) changes nothing: a button posts.
      await page.goto(local(confirm));
      await expect(page.getByTestId('newsletter-confirm-page')).toBeVisible();
      expect(await status(email)).toBe('pending');
      await page.getByRole('button', { name: n(locale, 'confirmPage.button') }).click();
      await expect(page.getByTestId('newsletter-confirm-outcome')).toHaveText(
        new RegExp(n(locale, 'confirmPage.confirmed').replace(/[.?()]/g, '\\$&')),
      );
      expect(await status(email)).toBe('confirmed');
      expect(exportedNewsletter()).toContain(email);
      // The same link again: harmless, says so.
      await page.goto(local(confirm));
      await expect(page.getByTestId('newsletter-confirm-outcome')).toContainText(n(locale, 'confirmPage.already'));

      // Altered: refused as not valid.
      const altered = new URL(local(confirm));
      altered.searchParams.set(
        't',
        altered.searchParams.get('t')!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
      );
      await page.goto(altered.href);
      await expect(page.getByTestId('newsletter-confirm-outcome')).toContainText(n(locale, 'confirmPage.invalid'));
      // Expired: a genuine link issued eight days ago.
      const expired = new URL(local(confirm));
      const issued = Date.now() - 8 * 24 * 60 * 60 * 1000;
      expired.searchParams.set('at', String(issued));
      expired.searchParams.set(
        't',
        createHmac('sha256', secret())
          .update(`newsletter-confirm\n${expired.searchParams.get('s')}.${issued}`)
          .digest('base64url'),
      );
      await page.goto(expired.href);
      await expect(page.getByTestId('newsletter-confirm-outcome')).toContainText(n(locale, 'confirmPage.expired'));
      // And posting it does nothing either.
      expect((await page.request.post(expired.href, { form: { s: expired.searchParams.get('s')! } })).status()).toBe(
        400,
      );
      await ctx.close();
    });

    test(`newsletter (${locale}, ${mode}): unsubscribe in one click, then subscribe again`, async ({ browser }) => {
      test.setTimeout(240_000);
      const { ctx, page } = await context(browser, js);
      const email = uniqueEmail(`unsub-${locale}-${js ? 'js' : 'nojs'}`);
      const mail = await signUp(page, locale, email, js);
      await page.goto(local(linkIn(mail.text, 'confirm')));
      await page.getByRole('button', { name: n(locale, 'confirmPage.button') }).click();
      await expect(page.getByTestId('newsletter-confirm-outcome')).toBeVisible();
      expect(await status(email)).toBe('confirmed');
      const unsubscribeLink = local(linkIn(mail.text, 'unsubscribe'));

      if (js) {
        // RFC 8058: a mail program POSTs List-Unsubscribe=One-Click to the header's URL, no cookie, no page.
        const response = await page.request.post(unsubscribeLink, {
          form: { 'List-Unsubscribe': 'One-Click' },
          headers: { Cookie: '' },
        });
        expect(response.status()).toBe(200);
      } else {
        // The page (no sign-in, no JavaScript): a GET changes nothing, its button unsubscribes.
        await page.goto(unsubscribeLink);
        expect(await status(email)).toBe('confirmed');
        await page.getByRole('button', { name: n(locale, 'unsubscribePage.button') }).click();
        await expect(page.getByTestId('newsletter-unsubscribe-outcome')).toContainText(
          n(locale, 'unsubscribePage.unsubscribed'),
        );
      }
      expect(await status(email)).toBe('unsubscribed');
      expect(exportedNewsletter()).not.toContain(email);

      // Subscribing again: a new confirmation, which works.
      const again = await signUp(page, locale, email, js);
      expect(await status(email)).toBe('pending');
      await page.goto(local(linkIn(again.text, 'confirm')));
      await page.getByRole('button', { name: n(locale, 'confirmPage.button') }).click();
      await expect(page.getByTestId('newsletter-confirm-outcome')).toContainText(n(locale, 'confirmPage.confirmed'));
      expect(await status(email)).toBe('confirmed');
      await ctx.close();
    });
  }

  test(`a client's own data (${locale}): the portal's file holds their records only and equals the command's`, async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    const { ctx, page } = await context(browser, true);
    const other = uniqueEmail(`other-${locale}`);
    await subscribe(page, baseURL, DATA_DIR, locale, 'starter', other);
    await ctx.clearCookies();
    const email = uniqueEmail(`data-${locale}`);
    await subscribe(page, baseURL, DATA_DIR, locale, 'business', email);
    await page.goto(at(locale, '/account'));
    await expect(page.getByTestId('account-data')).toContainText(t(locale, 'account.dataText'));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: t(locale, 'account.dataDownload') }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^personal-data-\d{4}-\d{2}-\d{2}\.json$/);
    const file = JSON.parse(readFileSync(await download.path(), 'utf8')) as Record<string, unknown> & {
      email: string;
      billing: { invoices: unknown[] };
      generatedAt: string;
    };
    expect(file.email).toBe(email.toLowerCase());
    expect(file.billing.invoices).toHaveLength(1);
    expect(JSON.stringify(file)).not.toContain(other.toLowerCase());
    // The answer itself: an attachment, never cached.
    const answer = await page.request.get(at(locale, '/account/personal-data'));
    expect(answer.headers()['content-disposition']).toMatch(/^attachment; filename="personal-data-/);
    expect(answer.headers()['cache-control']).toContain('no-store');

    // The operator's command for a request by email: the same file (but for when it was made).
    const out = `${DATA_DIR}/personal-data-${locale}.json`;
    command('personal-data', ['export', email, '--out', out]);
    const written = JSON.parse(readFileSync(out, 'utf8')) as typeof file;
    expect({ ...written, generatedAt: '' }).toEqual({ ...file, generatedAt: '' });
    await ctx.close();
  });

  test(`a client's own data (${locale}, JavaScript off): the account page's link downloads it`, async ({ browser }) => {
    test.setTimeout(300_000);
    const js = await context(browser, true);
    const email = uniqueEmail(`data-nojs-${locale}`);
    await subscribe(js.page, baseURL, DATA_DIR, locale, 'starter', email);
    const cookies = await js.ctx.cookies();
    await js.ctx.close();
    const { ctx, page } = await context(browser, false);
    await ctx.addCookies(cookies);
    await page.goto(at(locale, '/account'));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: t(locale, 'account.dataDownload') }).click(),
    ]);
    const file = JSON.parse(readFileSync(await download.path(), 'utf8')) as { email: string };
    expect(file.email).toBe(email.toLowerCase());
    await ctx.close();
  });
}
