// node scripts/lake-probe.mjs SIGN_IN_LINK [STUDIO_PATH] [SECONDS]
// What the Studio asks of the local Content Lake (ADR 0025), for an upgrade of `sanity`: opens the
// sign-in link `npm run lake:editor` printed (the site running, the Studio built), then STUDIO_PATH
// (default /studio/structure) in Debian's Chromium, and prints every request to the lake with its
// status, and the page's errors, for SECONDS (default 15). Look for 404s the lake logs as "not
// provided", 4xx/5xx on data/ and history/ paths, and errors other than the known offline ones.
import { chromium } from '@playwright/test';

const [link, studioPath = '/studio/structure', seconds = '15'] = process.argv.slice(2);
if (!link?.includes('/studio#token=')) {
  console.error(
    'usage: node scripts/lake-probe.mjs "$(npm run --silent lake:editor -- you@example.com)" [/studio/...] [seconds]',
  );
  process.exit(2);
}
const site = new URL(link).origin;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  await context.route(/sanity-cdn\.com|sanity\.io/, (route) => route.abort());
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`page error: ${error.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource|WebSocket|Failed to fetch version/.test(m.text()))
      console.log(`console: ${m.text().slice(0, 500)}`);
  });
  page.on('response', (r) => {
    const url = new URL(r.url());
    if (url.hostname.endsWith('localhost') && url.origin !== site)
      console.log(
        `${r.status()} ${r.request().method()} ${decodeURIComponent(url.pathname + url.search).slice(0, 220)}`,
      );
  });
  await page.goto(link);
  await page.goto(`${site}${studioPath}`);
  await page.waitForTimeout(Number(seconds) * 1000);
} finally {
  await browser.close();
}
