import { rmSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { hydrated } from './helpers';
import { kill, type OwnServer } from './own-server';
import {
  actAsIp,
  fillCheckout,
  schedulePlanChange,
  signIn,
  startPortalServer,
  t,
  uniqueEmail,
  waitForMail,
} from './portal-helpers';

/**
 * What an operator runs (issue 44): health and readiness, the structured request log with no
 * personal data in it, the metrics, and a graceful stop. Each test has a portal server of its
 * own (embedded billing), with the request log on.
 */
const PORT = Number(process.env.E2E_PORT ?? 3210);
const METRICS_TOKEN = 'ops-metrics-token-0123456789abcdef';
test.describe.configure({ mode: 'serial' });

let server: OwnServer | null = null;
test.afterEach(async () => {
  if (server) await kill(server);
  server = null;
});

test('every log line is JSON, one a request, and none carries an address, name, code, cookie or IP', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const dataDir = `.cache/e2e/ops-logs-${PORT}`;
  rmSync(dataDir, { recursive: true, force: true });
  server = await startPortalServer(PORT + 595, dataDir, {
    REQUEST_LOG: '1',
    METRICS_PORT: String(PORT + 596),
    METRICS_TOKEN,
  });
  const base = server.base;
  const ip = await actAsIp(page);
  const email = uniqueEmail('ops-logs');
  const name = 'Layla Qasimi-Haddad';
  // Checkout (the local payment page), the emailed code, then a plan change and a new sign-in.
  await page.goto(`${base}/pricing`);
  await page.getByTestId('plan-starter').getByRole('button').click();
  await expect(page).toHaveURL(/\/checkout\/cs_/);
  await fillCheckout(page, 'en', email, '4242 4242 4242 4242', name);
  await expect(page).toHaveURL(/\/account\/verify/, { timeout: 15_000 });
  const mail = await waitForMail(dataDir, email, /\b\d{6}\b/);
  const checkoutCode = /\b(\d{6})\b/.exec(mail.text)![1];
  await page.getByLabel(t('en', 'verify.code')).fill(checkoutCode);
  await page.getByRole('button', { name: t('en', 'verify.submitCheckout'), exact: true }).click();
  await expect(page).toHaveURL(/\/account\/subscription\?welcome=1/, { timeout: 15_000 });
  await page.goto(`${base}/account/subscription`);
  await schedulePlanChange(page, 'en');
  const cookies = (await page.context().cookies()).map((c) => c.value).filter((v) => v.length >= 8);
  await page.context().clearCookies();
  const { code } = await signIn(page, base, dataDir, 'en', email);
  cookies.push(...(await page.context().cookies()).map((c) => c.value).filter((v) => v.length >= 8));
  // A form: the newsletter, with its own address.
  const newsletterEmail = uniqueEmail('ops-news');
  await page.goto(`${base}/about`);
  const form = page.getByTestId('newsletter-footer');
  await form.getByRole('textbox').fill(newsletterEmail);
  await page.waitForTimeout(3_300);
  await form.getByRole('button').click();
  await expect(form.getByRole('status')).not.toBeEmpty({ timeout: 10_000 });

  // Readiness polled every way an orchestrator would: no line for it.
  const polls = await Promise.all(Array.from({ length: 50 }, () => fetch(`${base}/readyz`)));
  expect(polls.map((p) => p.status)).toEqual(Array(50).fill(200));
  expect(polls[0].headers.get('cache-control')).toBe('no-store');
  expect(await polls[0].json()).toEqual({ status: 'ready', checks: { database: 'ok', content: 'ok' } });
  expect((await fetch(`${base}/healthz`)).status).toBe(200);

  await expect.poll(() => server!.output.join('').includes('"route":"/about"')).toBe(true);
  const lines = server.output.join('').split('\n').filter(Boolean);
  const json = lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
  const requests = json.filter((line) => 'route' in line && 'status' in line);
  // One line a request: its id, method, route pattern (never a query), status, duration, cache.
  expect(requests.length).toBeGreaterThan(10);
  for (const line of requests) {
    expect(line.requestId).toMatch(/^[\w.:-]+$/);
    expect(line).toMatchObject({ level: 'info', method: expect.any(String), status: expect.any(Number) });
    expect(line.durationMs).toEqual(expect.any(Number));
    expect(String(line.route)).not.toContain('?');
  }
  expect(requests.some((line) => line.route === '/checkout/:id' || String(line.route).startsWith('/checkout'))).toBe(
    true,
  );
  expect(requests.some((line) => line.route === '/pricing' && line.cache)).toBe(true);
  expect(requests.some((line) => String(line.route).includes('readyz') || String(line.route).includes('healthz'))).toBe(
    false,
  );
  const all = lines.join('\n');
  const secrets = [
    email,
    email.split('@')[0],
    newsletterEmail,
    newsletterEmail.split('@')[0],
    name,
    'Layla',
    checkoutCode,
    code,
    ip,
    ...cookies,
  ];
  for (const secret of secrets) expect(all, `a log line carries ${secret}`).not.toContain(secret);

  // Metrics: on their own loopback port, and behind the token on the site's.
  const scraped = await (await fetch(`http://127.0.0.1:${PORT + 596}/metrics`)).text();
  expect(scraped).toMatch(/bawaba_http_requests_total\{[^}]*route="\/pricing",method="GET",status="200"/);
  expect(scraped).toMatch(/bawaba_http_request_duration_seconds_bucket\{/);
  expect(scraped).toMatch(/bawaba_page_cache_total\{[^}]*outcome="(miss|hit|bypass)"/);
  expect(scraped).toMatch(/bawaba_mail_queue\{[^}]*state="pending"/);
  expect(scraped).toMatch(/bawaba_db_pool_connections\{[^}]*state="total"/);
  expect(scraped).toContain('# HELP bawaba_job_runs_total');
  expect(scraped).toContain('# HELP bawaba_lake_requests_total');
  expect(scraped).not.toContain('readyz');
  expect((await fetch(`${base}/metrics`)).status).toBe(401);
  const behindToken = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(behindToken.status).toBe(200);
  expect(await behindToken.text()).toContain('bawaba_http_requests_total');
});

test('SIGTERM during a checkout and during a plan change: each finishes, the server stops cleanly, and both are whole after a restart', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const dataDir = `.cache/e2e/ops-stop-${PORT}`;
  rmSync(dataDir, { recursive: true, force: true });
  const start = () => startPortalServer(PORT + 597, dataDir, { REQUEST_LOG: '1', LOG_LEVEL: 'debug' });
  /**
   * Sends SIGTERM once the server has received the next post to `route` (its debug line), while
   * it is answering it; resolves with the browser's response to that post.
   */
  const stopDuringPost = (route: string, path: RegExp) => {
    const seen = server!.output.join('').length;
    const arrived = `"event":"request.received"`;
    void (async () => {
      for (let i = 0; i < 3000; i++) {
        const since = server!.output.join('').slice(seen);
        if (
          since
            .split('\n')
            .some((l) => l.includes(arrived) && l.includes('"method":"POST"') && l.includes(`"route":"${route}"`))
        )
          return void server!.child.kill('SIGTERM');
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    return page.waitForResponse((r) => r.request().method() === 'POST' && path.test(r.url()));
  };
  const stoppedCleanly = async () => {
    expect(await server!.exited).toBe('exit code 0');
    const output = server!.output.join('');
    expect(output).toContain('"event":"shutdown.started"');
    expect(output).toContain('"event":"shutdown.done"');
    expect(output).not.toContain('"event":"shutdown.cut"');
  };
  server = await start();
  await actAsIp(page);
  const email = uniqueEmail('ops-stop');

  // The checkout's last step (the emailed code takes the payment and starts the subscription).
  await page.goto(`${server.base}/pricing`);
  await page.getByTestId('plan-starter').getByRole('button').click();
  await expect(page).toHaveURL(/\/checkout\/cs_/);
  await fillCheckout(page, 'en', email, '4242 4242 4242 4242');
  await expect(page).toHaveURL(/\/account\/verify/, { timeout: 15_000 });
  const mail = await waitForMail(dataDir, email, /\b\d{6}\b/);
  await page.getByLabel(t('en', 'verify.code')).fill(/\b(\d{6})\b/.exec(mail.text)![1]);
  const checkout = stopDuringPost('/account/verify', /\/account\/verify/);
  await page.getByRole('button', { name: t('en', 'verify.submitCheckout'), exact: true }).click();
  expect((await checkout).status()).toBeLessThan(400);
  await stoppedCleanly();

  // After a restart: the subscription is there, paid, and a plan change can be made.
  server = await start();
  await page.context().clearCookies();
  await signIn(page, server.base, dataDir, 'en', email);
  await page.goto(`${server.base}/account/subscription`);
  await hydrated(page);
  await page.getByRole('link', { name: t('en', 'subscription.changePlan') }).click();
  const dialog = page.getByRole('dialog');
  await dialog
    .getByRole('radio')
    .filter({ hasNot: page.locator('[disabled]') })
    .last()
    .check();
  const change = stopDuringPost('/account/subscription', /\/account\/subscription/);
  await dialog.getByRole('button', { name: t('en', 'change.confirm') }).click();
  expect((await change).status()).toBeLessThan(400);
  await stoppedCleanly();

  // After another restart: the change is scheduled, once.
  server = await start();
  await page.context().clearCookies();
  await signIn(page, server.base, dataDir, 'en', email);
  await page.goto(`${server.base}/account/subscription`);
  await expect(page.getByRole('button', { name: t('en', 'subscription.withdraw') })).toHaveCount(1);
});
