import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { CONSENT_VERSION } from '../../app/features/consent/consent';
import { formatGrade, gradeResponse, parseCsp } from '../observatory';
import { at, hydrated, LOCALES } from './helpers';
import { kill, startOwnServer, type OwnServer } from './own-server';

/**
 * Security headers (ADR 0009, ADR 0023): the Content-Security-Policy allowing each page's own
 * inline scripts by hash, the same page and header for every visitor, and pages that still run
 * under it in Chromium (hydration, dialogs, the booking frame, client-side navigation, module
 * preloads, GTM when configured) while an injected script is blocked; the Observatory-style
 * grade of a production-like start (NODE_ENV=production, https SITE_URL: the HTTPS setting on).
 */
const PORT = Number(process.env.E2E_PORT ?? 3210);
/** The public origin the test servers are configured with (TLS would be the proxy's job). */
const SITE_URL = 'https://www.bawaba-advisory.com';

const PAGES: { path: string; status: number }[] = [
  { path: '/', status: 200 },
  { path: '/faq', status: 200 },
  // Pages whose loader data carries rendered HTML (ADR 0035): it stays inside the hashed data script.
  { path: '/privacy-policy', status: 200 },
  { path: '/blog/uae-corporate-tax-explained', status: 200 },
  { path: '/account', status: 200 },
  { path: '/no-such-page-here', status: 404 },
];

/** The hash source of a script's text, as a browser computes it. */
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The inline scripts of a page a browser would run (no `src`, no data type such as JSON-LD),
 * read here with the browser's own rule for where a script ends, apart from the app's code.
 */
function runnableInlineScripts(html: string): string[] {
  const texts: string[] = [];
  for (const [, attributes, text] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (/\ssrc=/.test(attributes!)) continue;
    const type = /\stype="([^"]*)"/.exec(attributes!)?.[1];
    if (type && type !== 'module' && type !== 'text/javascript') continue;
    texts.push(text!);
  }
  return texts;
}

/** script-src is exactly the hashes of the page's runnable inline scripts, 'strict-dynamic' and the fallback; no nonce anywhere. */
function expectScriptsByHash(html: string, policy: string) {
  const csp = parseCsp([policy]);
  const scripts = runnableInlineScripts(html);
  expect(scripts.length).toBeGreaterThan(0);
  const hashes = [...new Set(scripts.map(sha256))];
  expect([...csp.get('script-src')!].filter((s) => s.startsWith("'sha256-"))).toEqual(hashes);
  expect([...csp.get('script-src')!].filter((s) => !s.startsWith("'sha256-")).slice(0, 2)).toEqual([
    "'strict-dynamic'",
    "'self'",
  ]);
  expect(policy).not.toContain("'nonce-");
  expect(html).not.toMatch(/<(?:script|link)\b[^>]*\snonce=/);
}

test.describe('headers of HTML responses', () => {
  for (const locale of LOCALES) {
    test(`a policy by script hashes; the same bytes and header for every visitor (${locale})`, async ({
      request,
      playwright,
      baseURL,
    }) => {
      for (const { path, status } of PAGES) {
        const url = at(locale, path);
        const first = await request.get(url);
        expect(first.status(), url).toBe(status);
        const headers = first.headers();
        const csp = parseCsp([headers['content-security-policy']]);
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
        expectScriptsByHash(await first.text(), headers['content-security-policy']!);
      }
      // Two visitors (two clients, no shared cookies or connection) get the same home page: the
      // same bytes as sent (gzip) and the same policy, so a CDN may hand one copy to both.
      const home = at(locale, '/');
      const visitors = await Promise.all([1, 2].map(() => playwright.request.newContext({ baseURL })));
      const answers = [];
      for (const visitor of visitors) {
        const response = await visitor.get(home, { headers: { 'Accept-Encoding': 'gzip' } });
        answers.push({
          body: await response.body(),
          csp: response.headers()['content-security-policy'],
          etag: response.headers().etag,
        });
      }
      expect(answers[0]!.body.equals(answers[1]!.body), 'byte-identical bodies').toBe(true);
      expect(answers[1]!.csp).toBe(answers[0]!.csp);
      expect(answers[1]!.etag).toBe(answers[0]!.etag);
      for (const visitor of visitors) await visitor.dispose();
    });
  }

  test('text shaped like a script, from a URL, stays text and gets no hash', async ({ request }) => {
    const attack = `"><script>window.owned=1</script>`;
    for (const url of [
      `/booking-confirmation/x?booking_id=${encodeURIComponent(attack)}&source=x`,
      `/faq?q=${encodeURIComponent(attack)}`,
      `/ar/no-such-page/x?q=${encodeURIComponent(attack)}`,
    ]) {
      const response = await request.get(url);
      const html = await response.text();
      expect(html, url).not.toContain('<script>window.owned=1</script>');
      expect(response.headers()['content-security-policy'], url).not.toContain(sha256('window.owned=1'));
      expectScriptsByHash(html, response.headers()['content-security-policy']!);
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
    }) => {
      const violations = await watchCsp(page);
      await stubFrame(page);
      await page.goto(at(locale, '/'));
      await hydrated(page);

      await page.getByRole('button', { name: locale === 'en' ? /Language/ : /اللغة/ }).click();
      await expect(page.getByRole('menu')).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(page.getByRole('menu')).toBeHidden();

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

  for (const locale of LOCALES) {
    test(`an injected script without a matching hash is blocked; the page's scripts and parser-inserted module preloads still run (${locale})`, async ({
      page,
    }) => {
      const violations = await watchCsp(page);
      const home = at(locale, '/');
      let preloads: string[] = [];
      // The page as sent with markup injected into it (what a stored-XSS would be): an inline
      // script the policy has no hash for, and module preload links as the parser meets them
      // (HTML fetches those as not parser-inserted, so 'strict-dynamic' lets them through).
      await page.route(
        (url) => url.pathname === home,
        async (route) => {
          const response = await route.fetch();
          const html = await response.text();
          preloads = [...new Set(html.match(/\/build\/[A-Za-z0-9_/.-]+\.js/g) ?? [])].slice(0, 4);
          expect(preloads.length).toBeGreaterThan(0);
          const links = preloads.map((href) => `<link rel="modulepreload" href="${href}">`).join('');
          const headers = { ...response.headers() };
          delete headers['content-encoding'];
          delete headers['content-length'];
          await route.fulfill({
            status: response.status(),
            headers,
            body: html
              .replace('</head>', `${links}</head>`)
              .replace('<main', '<script>window.__owned = 1</script><main'),
          });
        },
      );
      await page.goto(home);
      await hydrated(page);
      // The page's own scripts ran: it hydrated and the booking dialog opens.
      await stubFrame(page);
      await page.getByTestId('floating-booking').click();
      await expect(page.getByTestId('booking-dialog')).toBeVisible();
      expect(await page.evaluate(() => (window as unknown as { __owned?: number }).__owned)).toBeUndefined();
      // The preloads were fetched, and nothing but the injected script was refused.
      for (const href of preloads)
        expect(
          await page.evaluate((h) => performance.getEntriesByName(new URL(h, location.href).href).length, href),
          href,
        ).toBeGreaterThan(0);
      await expect.poll(async () => (await violations()).length).toBe(2);
      const seen = await violations();
      expect(seen.filter((v) => v === 'script-src-elem inline')).toHaveLength(1);
      expect(seen.filter((v) => /Executing inline script violates/.test(v))).toHaveLength(1);
      expect(seen.join('\n')).not.toContain('/build/');
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

/**
 * Stands in for gtm.js: inserts a tag script (as GTM does for Google's tags) and a custom HTML
 * tag written inline. Neither needs a nonce: a script element another allowed script inserts is
 * not parser-inserted, which 'strict-dynamic' trusts, inline or not.
 */
const GTM_STUB = `
  var tag = document.createElement('script');
  tag.src = 'https://www.googletagmanager.com/gtag/js?id=G-TEST';
  document.head.appendChild(tag);
  var custom = document.createElement('script');
  custom.textContent = 'window.__gtmCustomHtml = true;';
  document.head.appendChild(custom);
  window.dataLayer.push({ event: 'gtm_stub_loaded' });
`;

test.describe('with GTM_ID', () => {
  test.describe.configure({ mode: 'serial' });
  let server: OwnServer | undefined;
  const gtmURL = `http://127.0.0.1:${PORT + 61}`;

  test.beforeAll(async () => {
    test.setTimeout(60_000);
    server = await startServer(PORT + 61, { GTM_ID: 'GTM-TEST123' });
  });
  test.afterAll(async () => {
    if (server) await kill(server);
  });

  for (const locale of LOCALES) {
    test(`GTM loads under the policy, and what it inserts runs (${locale})`, async ({ page, request }) => {
      const response = await request.get(`${gtmURL}${at(locale, '/')}`);
      const csp = parseCsp([response.headers()['content-security-policy']]);
      expect([...csp.get('script-src')!]).toContain('https://www.googletagmanager.com');
      expect([...csp.get('connect-src')!]).toContain('https://*.google-analytics.com');
      const html = await response.text();
      expectScriptsByHash(html, response.headers()['content-security-policy']!);
      // The snippet that loads gtm.js is allowed by its hash.
      expect(runnableInlineScripts(html).some((text) => text.includes('gtm.start'))).toBe(true);

      const violations = await watchCsp(page);
      const loaded: string[] = [];
      await page.route('https://www.googletagmanager.com/gtm.js*', (route) => {
        loaded.push(route.request().url());
        return route.fulfill({ contentType: 'text/javascript', body: GTM_STUB });
      });
      await page.route('https://www.googletagmanager.com/gtag/js*', (route) =>
        route.fulfill({ contentType: 'text/javascript', body: 'window.__gtag = true;' }),
      );
      // GTM loads only after consent (ADR 0030): this visitor accepted before.
      await page
        .context()
        .addCookies([{ name: 'cookie_consent', value: `${CONSENT_VERSION}.11.AbCdEfGhIjKlMnOpQr`, url: gtmURL }]);
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

  test('Observatory-style grade with GTM: still A+, with no penalty (gtm.js is inserted by the hashed snippet, not a <script src>)', async ({
    request,
  }) => {
    const response = await request.get(`${gtmURL}/`);
    const graded = gradeResponse({
      url: `${SITE_URL}/`,
      headers: response.headersArray(),
      html: await response.text(),
    });
    console.log(formatGrade('/ with GTM_ID', graded));
    expect(graded.grade).toBe('A+');
    expect(graded.rules.filter((r) => r.modifier < 0)).toEqual([]);
  });
});
