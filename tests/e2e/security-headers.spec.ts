import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { expect, test, type APIResponse, type Page } from '@playwright/test';
import { formatGrade, gradeResponse, parseCsp } from '../observatory';
import { at, hydrated, isMobile, LOCALES } from './helpers';
import { kill, startOwnServer, type OwnServer } from './own-server';

/**
 * Security headers (ADR 0009): the Content-Security-Policy with a fresh nonce per response on
 * every page, and pages that still run under it in Chromium (hydration, dialogs, the booking
 * frame, client-side navigation, GTM when configured); the Observatory-style grade of a
 * production-like start (NODE_ENV=production, https SITE_URL: the HTTPS setting on).
 */
const PORT = Number(process.env.E2E_PORT ?? 3210);
/** The public origin the test servers are configured with (TLS would be the proxy's job). */
const SITE_URL = 'https://www.bawaba-advisory.com';
/** The per-process placeholder's shape (app/lib/csp.server.ts): it must never reach a response. */
const PLACEHOLDER_SHAPE = /csp[A-Za-z0-9_-]{32}/;

const PAGES: { path: string; status: number }[] = [
  { path: '/', status: 200 },
  { path: '/faq', status: 200 },
  { path: '/account', status: 200 },
  { path: '/no-such-page-here', status: 404 },
];

function nonceOf(response: APIResponse): string {
  const csp = response.headers()['content-security-policy'];
  expect(csp, 'a Content-Security-Policy header').toBeTruthy();
  const nonce = /'nonce-([A-Za-z0-9_+/=-]+)'/.exec(csp)?.[1];
  expect(nonce, 'a nonce in script-src').toBeTruthy();
  return nonce!;
}

/**
 * Every script in the HTML carries the response's nonce, and no other nonce appears. Remix's module
 * preloads carry none (ADR 0022): a module preload is fetched as not parser-inserted, which
 * 'strict-dynamic' allows, and the module script that runs the modules carries the nonce.
 */
function expectEveryScriptNonced(html: string, nonce: string) {
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag, tag).toContain(`nonce="${nonce}"`);
  const values = new Set([...html.matchAll(/\snonce="([^"]*)"/g)].map((m) => m[1]));
  expect([...values]).toEqual([nonce]);
  expect(html).not.toMatch(PLACEHOLDER_SHAPE);
}

test.describe('headers of HTML responses', () => {
  test.beforeEach(({}, testInfo) => test.skip(isMobile(testInfo), 'server-side, once'));

  for (const locale of LOCALES) {
    test(`a policy with a fresh nonce on every page (${locale})`, async ({ request }) => {
      for (const { path, status } of PAGES) {
        const url = at(locale, path);
        const first = await request.get(url);
        expect(first.status(), url).toBe(status);
        const headers = first.headers();
        const csp = parseCsp([headers['content-security-policy']]);
        const nonce = nonceOf(first);
        expect([...csp.get('script-src')!]).toEqual([`'nonce-${nonce}'`, "'strict-dynamic'", "'self'"]);
        expect(headers['content-security-policy']).not.toContain('unsafe-eval');
        expect([...csp.get('script-src')!]).not.toContain("'unsafe-inline'");
        expect([...csp.get('object-src')!]).toEqual(["'none'"]);
        expect([...csp.get('base-uri')!]).toEqual(["'self'"]);
        expect([...csp.get('form-action')!]).toEqual([
          "'self'",
          'https://checkout.stripe.com',
          'https://buy.stripe.com',
        ]);
        expect([...csp.get('frame-src')!]).toEqual(["'self'", 'https://calendly.com']);
        expect([...csp.get('frame-ancestors')!]).toEqual(["'self'"]);
        expect(headers['x-frame-options']).toBe('SAMEORIGIN');
        expect(headers['cross-origin-opener-policy']).toBe('same-origin');
        expect(headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
        expect(headers['x-content-type-options']).toBe('nosniff');
        expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
        expectEveryScriptNonced(await first.text(), nonce);

        const second = await request.get(url);
        const again = nonceOf(second);
        expect(again, `${url}: a new nonce per response`).not.toBe(nonce);
        expectEveryScriptNonced(await second.text(), again);
      }
    });
  }

  test('text shaped like the placeholder, from a URL, stays text and never becomes a nonce', async ({ request }) => {
    const forged = `csp${randomBytes(24).toString('base64url')}`;
    const attack = `"><script nonce="${forged}">window.owned=1</script>`;
    for (const url of [
      `/booking-confirmation/${forged}?booking_id=${forged}&source=${forged}`,
      `/faq?q=${encodeURIComponent(attack)}`,
      `/ar/no-such-page/${forged}?q=${encodeURIComponent(attack)}`,
    ]) {
      const response = await request.get(url);
      const html = await response.text();
      const nonce = nonceOf(response);
      expect(nonce).not.toBe(forged);
      expect(html).not.toContain(`<script nonce="${forged}"`);
      const values = new Set([...html.matchAll(/\snonce="([^"]*)"/g)].map((m) => m[1]));
      expect([...values], url).toEqual([nonce]);
    }
  });

  test('other responses: nosniff, Referrer-Policy and HSTS; no page policy', async ({ request }) => {
    for (const url of ['/robots.txt', '/sitemap.xml', '/favicon.svg', '/locales/en/common.json']) {
      const headers = (await request.get(url)).headers();
      expect(headers['x-content-type-options'], url).toBe('nosniff');
      expect(headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(headers['strict-transport-security'], url).toBe('max-age=63072000; includeSubDomains');
    }
    // A route's own choice wins over the default.
    expect((await request.get('/booking-confirmation')).headers()['referrer-policy']).toBe('no-referrer');
  });

  test('Observatory-style grade of a production-like start (HTTPS setting on): A+', async ({ request }, testInfo) => {
    const reports: string[] = [];
    for (const path of ['/', '/ar', '/account']) {
      const response = await request.get(path);
      expect(response.status()).toBe(200);
      // Graded as visitors reach it: https on SITE_URL's host (TLS ends at the proxy in front).
      const graded = gradeResponse({
        url: new URL(path, SITE_URL).href,
        headers: response.headersArray(),
        html: await response.text(),
      });
      reports.push(formatGrade(path, graded));
      expect(graded.grade, formatGrade(path, graded)).toBe('A+');
      expect(
        graded.rules.filter((r) => r.modifier < 0),
        'no penalties',
      ).toEqual([]);
    }
    console.log(reports.join('\n\n'));
    await testInfo.attach('observatory.txt', { body: reports.join('\n\n'), contentType: 'text/plain' });
  });
});

/** Collects CSP violations (DOM events and console messages) from the first script on. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const messages: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (load|execute|apply|frame|connect)/i.test(message.text()))
      messages.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = ((window as unknown as { __csp: string[] }).__csp = []);
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return async () => [...messages, ...(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp))];
}

const stubFrame = (page: Page) =>
  page.route('https://calendly.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>scheduling</title><p>stub</p>' }),
  );

test.describe('pages run under the policy', () => {
  for (const locale of LOCALES) {
    test(`hydration, language menu, booking dialog and frame, client-side navigation: no violation (${locale})`, async ({
      page,
    }, testInfo) => {
      const violations = await watchCsp(page);
      await stubFrame(page);
      await page.goto(at(locale, '/'));
      await hydrated(page);

      if (!isMobile(testInfo)) {
        await page.getByRole('button', { name: locale === 'en' ? /Language/ : /اللغة/ }).click();
        await expect(page.getByRole('menu')).toBeVisible();
        await page.keyboard.press('Escape');
        await expect(page.getByRole('menu')).toBeHidden();
      }

      await page.getByTestId('floating-booking').click();
      const dialog = page.getByTestId('booking-dialog');
      await expect(dialog).toBeVisible();
      await expect(page.frameLocator('[data-testid="booking-frame"]').getByText('stub')).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();

      // A client-side navigation loads route chunks (allowed through 'strict-dynamic') and data.
      await page.evaluate(() => ((window as unknown as { __stay: number }).__stay = 1));
      const faq = at(locale, '/faq');
      await page.locator(`a[href="${faq}"]`).first().dispatchEvent('click');
      await expect(page).toHaveURL(new RegExp(`${faq.replace(/\//g, '\\/')}$`));
      expect(await page.evaluate(() => (window as unknown as { __stay?: number }).__stay), 'no full reload').toBe(1);
      await expect(page.locator('main h1').first()).toBeVisible();

      expect(await violations()).toEqual([]);
    });
  }

  test('a portal page and the 404 hydrate without violations (ar, en)', async ({ page }) => {
    const violations = await watchCsp(page);
    for (const path of ['/ar/account', '/no-such-page-here']) {
      await page.goto(path);
      await hydrated(page);
    }
    expect(await violations()).toEqual([]);
    // The watcher sees violations when there are some (an inline event handler, an image from elsewhere),
    // in the DOM events and on the console.
    await page.evaluate(() => {
      const button = document.createElement('button');
      button.setAttribute('onclick', 'window.__ran = true');
      document.body.append(button);
      button.click();
      const img = document.createElement('img');
      img.src = 'https://tracker.invalid/pixel.png';
      document.body.append(img);
    });
    await expect
      .poll(
        async () =>
          (await violations()).filter((v) => /^(script-src-attr inline|img-src https:\/\/tracker\.invalid)/.test(v))
            .length,
      )
      .toBe(2);
    expect((await violations()).filter((v) => /Content Security Policy/.test(v))).toHaveLength(2);
    expect(await page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran)).toBeUndefined();
  });
});

// ---------------------------------------------------------------- GTM_ID set

async function startServer(port: number, env: Record<string, string>): Promise<OwnServer> {
  const dataDir = `.cache/e2e/csp-gtm-${PORT}`;
  rmSync(dataDir, { recursive: true, force: true });
  return startOwnServer(port, dataDir, { NODE_ENV: 'production', SITE_URL, ...env });
}

/** Stands in for gtm.js: inserts a tag script (as GTM does) and a nonce-aware custom HTML tag. */
const GTM_STUB = `
  window.__gtm = { nonce: document.currentScript && document.currentScript.nonce };
  var tag = document.createElement('script');
  tag.src = 'https://www.googletagmanager.com/gtag/js?id=G-TEST';
  document.head.appendChild(tag);
  var custom = document.createElement('script');
  custom.nonce = window.__gtm.nonce;
  custom.textContent = 'window.__gtmCustomHtml = true;';
  document.head.appendChild(custom);
  window.dataLayer.push({ event: 'gtm_stub_loaded' });
`;

test.describe('with GTM_ID', () => {
  test.describe.configure({ mode: 'serial' });
  let server: OwnServer | undefined;
  const gtmURL = `http://127.0.0.1:${PORT + 61}`;

  test.beforeAll(async ({}, testInfo) => {
    if (isMobile(testInfo)) return;
    test.setTimeout(60_000);
    server = await startServer(PORT + 61, { GTM_ID: 'GTM-TEST123' });
  });
  test.afterAll(async () => {
    if (server) await kill(server);
  });

  for (const locale of LOCALES) {
    test(`GTM loads under the policy, and what it inserts runs (${locale})`, async ({ page, request }, testInfo) => {
      test.skip(isMobile(testInfo), 'one GTM server, desktop only');
      const response = await request.get(`${gtmURL}${at(locale, '/')}`);
      const csp = parseCsp([response.headers()['content-security-policy']]);
      expect([...csp.get('script-src')!]).toContain('https://www.googletagmanager.com');
      expect([...csp.get('connect-src')!]).toContain('https://*.google-analytics.com');
      expectEveryScriptNonced(await response.text(), nonceOf(response));

      const violations = await watchCsp(page);
      const loaded: string[] = [];
      await page.route('https://www.googletagmanager.com/gtm.js*', (route) => {
        loaded.push(route.request().url());
        return route.fulfill({ contentType: 'text/javascript', body: GTM_STUB });
      });
      await page.route('https://www.googletagmanager.com/gtag/js*', (route) =>
        route.fulfill({ contentType: 'text/javascript', body: 'window.__gtag = true;' }),
      );
      await page.goto(`${gtmURL}${at(locale, '/')}`);
      await hydrated(page);
      await expect
        .poll(() => page.evaluate(() => Boolean((window as unknown as { __gtag?: boolean }).__gtag)))
        .toBe(true);
      expect(loaded).toEqual(['https://www.googletagmanager.com/gtm.js?id=GTM-TEST123']);
      expect(await page.evaluate(() => (window as unknown as { __gtmCustomHtml?: boolean }).__gtmCustomHtml)).toBe(
        true,
      );
      const events = await page.evaluate(() =>
        ((window as unknown as { dataLayer: { event?: string }[] }).dataLayer ?? []).map((e) => e.event),
      );
      expect(events).toEqual(expect.arrayContaining(['gtm.js', 'gtm_stub_loaded']));
      expect(await violations()).toEqual([]);
    });
  }

  test('Observatory-style grade with GTM: still A+ (its loader has no integrity: -5)', async ({
    request,
  }, testInfo) => {
    test.skip(isMobile(testInfo), 'desktop only');
    const response = await request.get(`${gtmURL}/`);
    const graded = gradeResponse({
      url: `${SITE_URL}/`,
      headers: response.headersArray(),
      html: await response.text(),
    });
    console.log(formatGrade('/ with GTM_ID', graded));
    expect(graded.grade).toBe('A+');
  });
});
