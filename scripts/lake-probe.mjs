// node scripts/lake-probe.mjs [SITE] [STUDIO_PATH] [SECONDS]
// What the Studio asks of the local Content Lake (ADR 0025), for an upgrade of `sanity`: signs in
// at SITE (default http://localhost:3000; running, with the Studio built) as the demo editor
// (editor@example.com, a loopback site's; the code read from the outbox, OUTBOX_DIR or
// {CONTENT_DATA_DIR}/outbox), then opens STUDIO_PATH (default /studio/structure) in Debian's
// Chromium and prints every request to the lake with its status, and the page's errors, for
// SECONDS (default 15). Look for 404s the lake logs as "not provided", 4xx/5xx on data/ and
// history/ paths, and errors other than the known offline ones.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';

const [site = 'http://localhost:3000', studioPath = '/studio/structure', seconds = '15'] = process.argv.slice(2);
const outbox = process.env.OUTBOX_DIR ?? path.join(process.env.CONTENT_DATA_DIR ?? 'data', 'outbox');
const EDITOR = 'editor@example.com';
/** The demo editor's emails so far (none before the first: the folder is made then). */
function mails() {
  let names = [];
  try {
    names = readdirSync(outbox).filter((f) => f.endsWith('.json'));
  } catch {
    // not made yet
  }
  return names.map((f) => JSON.parse(readFileSync(path.join(outbox, f), 'utf8'))).filter((m) => m.to === EDITOR);
}
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
    if (m.type() === 'error' || m.type() === 'warning') console.log(`console ${m.type()}: ${m.text().slice(0, 500)}`);
  });
  // What would leave the machine (aborted here): the Studio must ask for nothing off this host.
  page.on('request', (r) => {
    const { hostname } = new URL(r.url());
    if (!/^(localhost|127\.0\.0\.1|\[::1\]|.*\.localhost)$/.test(hostname) && !r.url().startsWith('data:'))
      console.log(`off the machine: ${r.method()} ${r.url().slice(0, 200)}`);
  });
  page.on('response', (r) => {
    const url = new URL(r.url());
    if (url.hostname.endsWith('localhost') && url.origin !== site)
      console.log(
        `${r.status()} ${r.request().method()} ${decodeURIComponent(url.pathname + url.search).slice(0, 220)}`,
      );
  });
  await page.goto(`${site}/studio/sign-in`);
  const before = mails().length;
  await page.getByLabel('Your editor email address').fill(EDITOR);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  let mail;
  for (let i = 0; i < 100 && !mail; i++) {
    await page.waitForTimeout(100);
    mail = mails().length > before ? mails().at(-1) : undefined;
  }
  if (!mail) throw new Error(`no sign-in email for ${EDITOR} in ${outbox}`);
  await page.getByLabel('6-digit code').fill(/\b(\d{6})\b/.exec(mail.text)[1]);
  await page.getByRole('button', { name: 'Sign in to the Studio' }).click();
  await page.waitForURL(/\/studio\//);
  await page.goto(`${site}${studioPath}`);
  await page.waitForTimeout(Number(seconds) * 1000);
} finally {
  await browser.close();
}
