import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type Page, type Request } from '@playwright/test';
import { createFormToken, PAGE_TOKEN_MAX_AGE_MS } from '../../app/features/forms/spam-check';
import { mainDatabaseUrl } from '../../playwright.config';
import { rows } from './db.mjs';
import { at, LOCALES, type Locale } from './helpers';

/**
 * The FAQ question and the newsletter without JavaScript, on a phone (ADR 0021): the page's
 * own HTML carries a signed page token, so the first post is accepted; bot-like posts are still
 * refused with the localized message; a retried identical post is one stored submission.
 */

const PORT = Number(process.env.E2E_PORT ?? 3210);
const MIN_FILL_MS = 3000;
const secret = () => readFileSync(`.cache/e2e/data-${PORT}/session-secret`, 'utf8').trim();

type Strings = Record<string, unknown>;
const forms = Object.fromEntries(
  LOCALES.map((l) => [l, JSON.parse(readFileSync(`public/locales/${l}/forms.json`, 'utf8')) as Strings]),
) as Record<Locale, Strings>;
/** A `forms` string as the page shows it. */
function s(locale: Locale, key: string): string {
  let node: unknown = forms[locale];
  for (const part of key.split('.')) node = (node as Strings)[part];
  if (typeof node !== 'string') throw new Error(`no string forms:${key}`);
  return node;
}
const message = (locale: Locale, title: string, text: string) => `${s(locale, title)} - ${s(locale, text)}`;

const uniqueEmail = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@example.com`;

test.use({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });

async function noJs(browser: Browser) {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  return { context, page: await context.newPage() };
}

/** The page token the server rendered into the form (`{ms}.p.{signature}`). */
async function pageToken(page: Page, form: string): Promise<string> {
  const value = await page.getByTestId(form).locator('input[name="form_started"]').inputValue();
  expect(value).toMatch(/^\d+\.p\.[\w-]{43}$/);
  return value;
}

async function waitFillTime(token: string) {
  const left = Number(token.split('.')[0]) + MIN_FILL_MS + 300 - Date.now();
  if (left > 0) await new Promise((r) => setTimeout(r, left));
}

/** Replaces fields of the form's next post as it leaves the browser (what a bot would send). */
async function tamperNextPost(page: Page, url: RegExp, change: (body: URLSearchParams) => unknown) {
  // Once: the next request to the URL is the form's post (the page was loaded before).
  await page.route(
    url,
    async (route) => {
      const body = new URLSearchParams(route.request().postData() ?? '');
      await change(body);
      await route.continue({ postData: body.toString() });
    },
    { times: 1 },
  );
}

const faqCount = async (email: string) =>
  Number((await rows(mainDatabaseUrl, 'select count(*)::int as n from faq_questions where email = $1', [email]))[0]!.n);
const newsletterCount = async (email: string) =>
  Number(
    (await rows(mainDatabaseUrl, 'select count(*)::int as n from newsletter_signups where email_key = $1', [email]))[0]!
      .n,
  );

async function fillFaq(page: Page, locale: Locale, email: string) {
  const form = page.getByTestId('faq-form');
  await form.getByLabel(s(locale, 'faq.nameLabel'), { exact: true }).fill('Ann Lee');
  await form.getByLabel(s(locale, 'faq.emailLabel'), { exact: true }).fill(email);
  await form.getByLabel(s(locale, 'faq.phoneLabel'), { exact: true }).fill('+971 50 123 4567');
  await form.getByLabel(s(locale, 'faq.questionLabel'), { exact: true }).fill('How long does a licence take?');
}

for (const locale of LOCALES) {
  test.describe(`without JavaScript on a phone (${locale})`, () => {
    test('the FAQ question succeeds in one post; the same post sent again is one stored question', async ({
      browser,
    }) => {
      const { page, context } = await noJs(browser);
      await page.goto(at(locale, '/faq'));
      const token = await pageToken(page, 'faq-form');
      const email = uniqueEmail(`nojs-faq-${locale}`);
      await fillFaq(page, locale, email);
      await waitFillTime(token);
      let sent: Request | null = null;
      page.on('request', (r) => {
        if (r.method() === 'POST') sent = r;
      });
      await page
        .getByTestId('faq-form')
        .getByRole('button', { name: s(locale, 'faq.submit') })
        .click();
      const done = page.getByTestId('faq-form');
      await expect(done).toHaveAttribute('data-state', 'submitted');
      await expect(done.getByRole('status')).toContainText(s(locale, 'faq.submittedTitle'));
      await expect(done.getByRole('status')).toContainText(s(locale, 'faq.submittedText'));
      expect(await faqCount(email)).toBe(1);

      // The answer was lost and the browser sends the very same post again: the same success, nothing new stored.
      const post = sent as Request | null;
      expect(post).not.toBeNull();
      const again = await context.request.post(post!.url(), {
        headers: { 'Content-Type': post!.headers()['content-type']! },
        data: post!.postData()!,
      });
      expect(again.status()).toBe(200);
      expect(await again.text()).toContain(s(locale, 'faq.submittedTitle'));
      expect(await faqCount(email)).toBe(1);
      await context.close();
    });

    test('the newsletter succeeds in one post; the same post sent again keeps one record', async ({ browser }) => {
      const { page, context } = await noJs(browser);
      await page.goto(at(locale, '/about'));
      const token = await pageToken(page, 'newsletter-footer');
      const email = uniqueEmail(`nojs-news-${locale}`);
      const form = page.getByTestId('newsletter-footer');
      await form.getByLabel(s(locale, 'newsletter.emailLabel')).fill(email);
      await waitFillTime(token);
      let sent: Request | null = null;
      page.on('request', (r) => {
        if (r.method() === 'POST') sent = r;
      });
      await form.getByRole('button', { name: s(locale, 'newsletter.subscribe') }).click();
      await expect(page).toHaveURL(/newsletter=subscribed/);
      await expect(page.getByTestId('newsletter-footer').getByRole('status')).toHaveText(
        `${s(locale, 'newsletter.subscribed')}${s(locale, 'newsletter.thankYou')}${s(locale, 'newsletter.checkEmail')}`,
      );
      expect(await newsletterCount(email)).toBe(1);

      const post = sent as Request | null;
      const again = await context.request.post(post!.url(), {
        headers: { 'Content-Type': post!.headers()['content-type']! },
        data: post!.postData()!,
        maxRedirects: 0,
      });
      expect(again.status()).toBe(303);
      expect(again.headers()['location']).toContain('newsletter=subscribed');
      expect(await newsletterCount(email)).toBe(1);
      await context.close();
    });

    test('bot-like FAQ posts are refused with the localized message: honeypot, too fast, forged, expired', async ({
      browser,
    }) => {
      const { page, context } = await noJs(browser);
      const refused = async (change: (body: URLSearchParams) => unknown, expected: string, path = '/faq') => {
        await page.goto(at(locale, path));
        const email = uniqueEmail(`bot-${locale}`);
        await fillFaq(page, locale, email);
        await tamperNextPost(page, /\/faq(\?|#|$)/, change);
        await page
          .getByTestId('faq-form')
          .getByRole('button', { name: s(locale, 'faq.submit') })
          .click();
        await expect(page.getByTestId('faq-form-error')).toHaveText(expected);
        expect(await faqCount(email)).toBe(0);
      };
      const spam = (key: string) => message(locale, 'spamTitle', key);
      await refused((b) => b.set('hp_leave_empty', 'http://spam.example'), spam('spamHoneypot'));
      // A page rendered just now (a query the cache has not seen), posted at once. Should the machine
      // be too slow to post within 3 s of the render, the post carries a page token signed just now instead.
      await refused(
        async (b) => {
          const issued = Number((b.get('form_started') ?? '').split('.')[0]);
          if (Date.now() - issued > MIN_FILL_MS - 1500)
            b.set('form_started', await createFormToken(Date.now(), secret(), 'page'));
        },
        spam('spamTooFast'),
        `/faq?fresh=${randomUUID()}`,
      );
      await refused((b) => {
        const [stamp] = (b.get('form_started') ?? '').split('.');
        b.set('form_started', `${stamp}.p.${'A'.repeat(43)}`);
      }, spam('spamExpired'));
      const expired = await createFormToken(Date.now() - PAGE_TOKEN_MAX_AGE_MS - 60_000, secret(), 'page');
      await refused((b) => b.set('form_started', expired), spam('spamExpired'));
      await context.close();
    });

    test('bot-like newsletter posts are refused with the localized message', async ({ browser }) => {
      const { page, context } = await noJs(browser);
      for (const [change, key] of [
        [(b: URLSearchParams) => b.set('hp_leave_empty', 'x'), 'spamHoneypot'],
        [(b: URLSearchParams) => b.set('form_started', `${Date.now() - 60_000}.p.${'B'.repeat(43)}`), 'spamExpired'],
      ] as const) {
        await page.goto(at(locale, '/about'));
        const email = uniqueEmail(`bot-news-${locale}`);
        await page.getByTestId('newsletter-footer').getByLabel(s(locale, 'newsletter.emailLabel')).fill(email);
        await tamperNextPost(page, /\/api\/newsletter$/, change);
        await page
          .getByTestId('newsletter-footer')
          .getByRole('button', { name: s(locale, 'newsletter.subscribe') })
          .click();
        await expect(page.getByTestId('newsletter-footer-message')).toHaveText(message(locale, 'spamTitle', key));
        expect(await newsletterCount(email)).toBe(0);
      }
      await context.close();
    });
  });
}
