import { expect, test } from '@playwright/test';
import { createCookie } from '@remix-run/node';
import { encodeSignatureHeader } from '@sanity/webhook';
import { readFile, writeFile } from 'node:fs/promises';
import { editorialURL, PREVIEW_SECRET, WEBHOOK_SECRET } from '../../playwright.config';

const PUBLISHED = 'Market Entry';
const DRAFT = 'UAE Market Entry Strategy';
const DRAFT_POST = '/blog/first-90-days-after-your-uae-licence';
const footerServices = (page: import('@playwright/test').Page) =>
  page.getByTestId('site-footer').locator('a[href^="/services#"]');

test.describe('draft preview', () => {
  test('a draft is invisible without preview, visible with it, and invisible again after exit', async ({
    page,
    context,
  }) => {
    await page.goto('/');
    await expect(footerServices(page).first()).toHaveText(PUBLISHED);
    await expect(page.getByTestId('preview-banner')).toHaveCount(0);
    expect((await page.request.get(DRAFT_POST)).status()).toBe(404);

    const entered = await page.goto(`/api/preview?secret=${PREVIEW_SECRET}&redirect=/`);
    expect(entered?.url()).toMatch(/\/$/);
    // Preview text carries stega (invisible edit links for the Studio's overlays), as in the hosted world.
    await expect(footerServices(page).first()).toHaveText(new RegExp(`^${DRAFT}[\u200B-\u200D\uFEFF]*$`));
    await expect(page.getByTestId('preview-banner')).toBeVisible();
    const cookie = (await context.cookies()).find((c) => c.name === '__preview');
    expect(cookie?.httpOnly).toBe(true);
    const draftPost = await page.goto(DRAFT_POST);
    expect(draftPost?.status()).toBe(200);
    expect(draftPost?.headers()['cache-control']).toBe('private, no-store');
    expect(draftPost?.headers()['x-robots-tag']).toBe('noindex');

    // The Arabic banner speaks Arabic.
    await page.goto('/ar');
    await expect(page.getByTestId('preview-banner')).toContainText('وضع المعاينة');
    await page.goto('/');
    await page.getByRole('button', { name: 'Exit preview' }).click();
    await expect(page.getByTestId('preview-banner')).toHaveCount(0);
    await expect(footerServices(page).first()).toHaveText(PUBLISHED);
    expect((await page.request.get(DRAFT_POST)).status()).toBe(404);
  });

  test('a wrong secret gets nothing', async ({ page, context }) => {
    const res = await page.request.get('/api/preview?secret=not-the-secret&redirect=/', { maxRedirects: 0 });
    expect(res.status()).toBe(401);
    expect(res.headers()['set-cookie']).toBeUndefined();
    await page.goto('/');
    await expect(footerServices(page).first()).toHaveText(PUBLISHED);
    expect((await context.cookies()).find((c) => c.name === '__preview')).toBeUndefined();
    // A forged cookie is not a session either.
    await context.addCookies([{ name: '__preview', value: 'ImRyYWZ0cyI%3D.forged', url: page.url() }]);
    await page.reload();
    await expect(footerServices(page).first()).toHaveText(PUBLISHED);
  });

  test('a cookie signed with the old built-in development secret, or with an expiry far ahead, shows no draft', async ({
    request,
  }) => {
    // Before the secret was generated per installation, production signed with this fixed value.
    const forge = (secret: string) => createCookie('__preview', { secrets: [secret], path: '/' });
    for (const value of ['drafts', { p: 'drafts', exp: Date.now() + 10 * 365 * 24 * 3600 * 1000 }]) {
      const cookie = await forge('local-development-secret-change-me').serialize(value);
      const res = await request.get(DRAFT_POST, { headers: { cookie: cookie.split(';')[0] } });
      expect(res.status()).toBe(404);
    }
  });

  test('the sitemap of a preview session (which may list drafts) is never shared or cached; the public one is', async ({
    page,
  }) => {
    const visitor = await page.request.get('/sitemap.xml');
    expect(visitor.headers()['cache-control']).toMatch(/^public/);
    expect(visitor.headers()['vary']).toMatch(/Cookie/i);
    expect(await visitor.text()).not.toContain('first-90-days');
    await page.goto(`/api/preview?secret=${PREVIEW_SECRET}&redirect=/`);
    const editor = await page.request.get('/sitemap.xml');
    expect(editor.headers()['cache-control']).toBe('private, no-store');
    expect(await editor.text()).toContain('first-90-days');
  });

  test('published pages may be cached by a CDN; previews never', async ({ request }) => {
    const res = await request.get('/faq');
    expect(res.headers()['cache-control']).toMatch(/s-maxage=\d+/);
    expect(res.headers()['cache-control']).toMatch(/stale-while-revalidate=\d+/);
  });
});

test.describe.serial('fresh content without redeploys', () => {
  const file = `.cache/e2e/editorial-${process.env.E2E_PORT ?? 3210}/production.ndjson`;
  const OLD = 'We help ambitious companies enter, establish and grow in the UAE';
  const NEW = 'Changed in the CMS a moment ago';
  const sign = async (body: string, at = Date.now(), secret = WEBHOOK_SECRET) =>
    encodeSignatureHeader(body, at, secret);
  const webhook = async (request: import('@playwright/test').APIRequestContext, signature: string, body: string) =>
    request.post(`${editorialURL}/api/revalidate`, {
      data: body,
      headers: { 'content-type': 'application/json', 'sanity-webhook-signature': signature },
    });
  const tagline = async (request: import('@playwright/test').APIRequestContext) => {
    const html = await (await request.get(`${editorialURL}/`)).text();
    return html.includes(NEW) ? 'new' : html.includes(OLD) ? 'old' : 'none';
  };

  test('a forged or replayed webhook changes nothing; a signed one shows the change on the next request', async ({
    request,
  }) => {
    expect(await tagline(request)).toBe('old');
    const original = await readFile(file, 'utf8');
    await writeFile(file, original.replace(OLD, NEW));
    // Cached: the edit is not visible yet.
    expect(await tagline(request)).toBe('old');

    const body = JSON.stringify({ _id: 'siteSettings', _type: 'siteSettings' });
    expect((await webhook(request, await sign(body, Date.now(), 'wrong-secret'), body)).status()).toBe(401);
    expect((await webhook(request, 't=1700000000000,v1=forged', body)).status()).toBe(401);
    expect((await webhook(request, await sign(body, Date.now() - 10 * 60 * 1000), body)).status()).toBe(401);
    expect((await webhook(request, await sign(body), body.replace('siteSettings"}', 'service"}'))).status()).toBe(401);
    expect(await tagline(request)).toBe('old');

    const signed = await sign(body);
    const ok = await webhook(request, signed, body);
    expect(ok.status()).toBe(200);
    expect(await ok.json()).toMatchObject({ revalidated: 'siteSettings' });
    expect(await tagline(request)).toBe('new');

    // The same signed delivery replayed 30 times at once, inside the 5-minute window: answered, applied never again.
    const replays = await Promise.all(Array.from({ length: 30 }, () => webhook(request, signed, body)));
    for (const replay of replays) {
      expect(replay.status()).toBe(200);
      expect(await replay.json()).toEqual({ revalidated: false, duplicate: true });
    }
    // A body over 1 MB is refused before it is read, signed or not.
    const huge = JSON.stringify({ _id: 'siteSettings', _type: 'siteSettings', pad: 'x'.repeat(1100 * 1024) });
    expect((await webhook(request, await sign(huge), huge)).status()).toBe(413);
  });

  test('when the content source fails, pages keep serving the last good content', async ({ request }) => {
    await writeFile(file, '{"this is": not json\n');
    const body = JSON.stringify({ _id: 'siteSettings', _type: 'siteSettings' });
    expect((await webhook(request, await sign(body), body)).status()).toBe(200);
    const res = await request.get(`${editorialURL}/`);
    expect(res.status()).toBe(200);
    expect(await res.text()).toContain(NEW);
  });

  test('Arabic pages mark text that fell back to English as lang="en"', async ({ page, request }) => {
    test.setTimeout(90_000);
    // Every translation removed: each CMS text on an Arabic page is now an English stand-in.
    const withoutArabic = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(withoutArabic);
      if (value && typeof value === 'object') {
        const entries = Object.entries(value).filter(([key]) => !('en' in value && key === 'ar'));
        return Object.fromEntries(entries.map(([key, item]) => [key, withoutArabic(item)]));
      }
      return value;
    };
    const bundled = await readFile('studio/dataset/production.ndjson', 'utf8');
    const stripped = bundled
      .trim()
      .split('\n')
      .map((line) => JSON.stringify(withoutArabic(JSON.parse(line))))
      .join('\n');
    expect(stripped).not.toContain('"ar":');
    await writeFile(file, `${stripped}\n`);
    const everything = JSON.stringify({ _id: 'all' });
    expect((await webhook(request, await sign(everything), everything)).status()).toBe(200);

    const pages = [
      '/ar',
      '/ar/about',
      '/ar/services',
      '/ar/pricing',
      '/ar/faq',
      '/ar/case-studies',
      '/ar/case-studies/fintech-launch-uae',
      '/ar/blog',
      '/ar/blog/category/business',
      '/ar/blog/tag/business_setup',
      '/ar/blog/free-zone-vs-mainland-uae-company',
      '/ar/privacy-policy',
      '/ar/booking-confirmation',
    ];
    for (const path of pages) {
      await page.goto(`${editorialURL}${path}`);
      await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
      // Text with Latin words must sit inside an element marked lang="en" (the interface
      // chrome is Arabic; e-mail and web addresses and prices with an ISO currency code
      // such as "950 SGD", as Intl writes them in Arabic, are exempt).
      const unmarked = await page.evaluate(() => {
        const found: string[] = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent?.trim() ?? '';
          const parent = node.parentElement;
          if (!parent || !/[A-Za-z]{3,}/.test(text) || parent.closest('script, style, noscript, template')) continue;
          if (/^\S+@\S+$|^(https?:\/\/|www\.)\S+$|^[^A-Za-z]*\d[^A-Za-z]*\s[A-Z]{3}$/.test(text)) continue;
          if (parent.closest('[lang]')?.getAttribute('lang') !== 'en')
            found.push(`<${parent.tagName.toLowerCase()}> ${text.slice(0, 60)}`);
        }
        return found;
      });
      expect(unmarked, `${path}: English text not marked lang="en"`).toEqual([]);
      // Marked text is also laid out left to right.
      const marked = page.locator('body [lang="en"]:not([dir="ltr"])');
      expect(await marked.evaluateAll((els) => els.map((el) => el.outerHTML.slice(0, 80))), path).toEqual([]);
    }

    // The diagnostics page lists the pages that show untranslated fields.
    await page.goto(`${editorialURL}/api/preview?secret=${PREVIEW_SECRET}&redirect=/seo-diagnostics`);
    expect(Number(await page.getByTestId('stat-missing').textContent())).toBeGreaterThan(10);
    await expect(page.getByTestId('missing-arabic').first()).toBeVisible();
    // Leave the preview session: the rest of the test looks at what visitors see.
    await page.context().clearCookies();

    await writeFile(file, bundled);
    expect((await webhook(request, await sign(everything), everything)).status()).toBe(200);
    await page.goto(`${editorialURL}/ar/services`);
    await expect(page.locator('main [lang="en"]')).toHaveCount(0);
  });
});
