import { cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { at } from './helpers';
import { kill, startOwnServer, type OwnServer } from './own-server';
import { signIn, t } from './portal-helpers';

/**
 * An upgrade: this version started on a data folder the previous version wrote (its billing
 * engine kept everything in the write log; app/db/fixtures/billing-data, made by driving that
 * version over HTTP). The clients it had sign in with an emailed code and find their own
 * subscription, scheduled change, cancellation and invoices, in English and in Arabic, as they
 * left them; the start imported them once (the server says so), and a second start imports
 * nothing and issues no invoice.
 *
 * The server is this test's own, on PGlite in the copied folder (jobs off: what is shown is what
 * was imported, not a renewal since).
 */
const port = Number(process.env.E2E_PORT ?? 3210) + 590;
const dataDir = `.cache/e2e/upgrade-${port}`;
const FIXTURE = 'app/db/fixtures/billing-data';

/** The fixture's invoices per client, newest first, as the previous version listed them. */
function invoicesOf(email: string): { number: string; status: string }[] {
  const docs = new Map<string, Record<string, unknown>>();
  for (const line of readFileSync(path.join(FIXTURE, 'content-writes.ndjson'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as { docs: Record<string, unknown>[] };
    for (const doc of entry.docs) docs.set(doc._id as string, doc);
  }
  const customer = [...docs.values()].find((d) => d._type === 'billing.customer' && d.email === email)!;
  return [...docs.values()]
    .filter((d) => d._type === 'billing.invoice' && d.customerId === customer.customerId)
    .sort((a, b) => String(b.created).localeCompare(String(a.created)))
    .map((d) => ({ number: d.number as string, status: d.status as string }));
}

// In order, in one worker (one server on one port and folder); one browser is enough.
test.describe.configure({ mode: 'default' });

let server: OwnServer | undefined;
test.beforeAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  cpSync(FIXTURE, dataDir, { recursive: true });
  server = await startOwnServer(port, dataDir, { NODE_ENV: 'test' });
  // The import runs while the database opens, before the server answers a sign-in.
  await expect.poll(() => server!.output.join(''), { timeout: 30_000 }).toMatch(/5 billing customers/);
});
test.afterAll(async () => {
  if (server) await kill(server);
  rmSync(dataDir, { recursive: true, force: true });
});

test('an English client of the previous version signs in and finds their plan, the change they scheduled and their invoices', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const email = 'upgrade.amira@example.com';
  await signIn(page, server!.base, dataDir, 'en', email);
  await expect(page.getByText('Amira Nasser').first()).toBeVisible();
  await page.goto(`${server!.base}/account/subscription`);
  await expect(page.getByText(t('en', 'status.active'), { exact: true }).first()).toBeVisible();
  // The change to Enterprise scheduled before the upgrade is still there, and can be withdrawn.
  const scheduled = t('en', 'subscription.scheduled', { plan: 'Enterprise', date: '@' }).split('@')[0];
  await expect(page.getByText(scheduled).first()).toBeVisible();
  await expect(page.getByRole('button', { name: t('en', 'subscription.withdraw') })).toBeVisible();
  const rows = page.getByRole('table').locator('tbody tr');
  const expected = invoicesOf(email);
  expect(expected.map((i) => i.number)).toEqual(['BWB-2026-0009', 'BWB-2026-0006']);
  await expect(rows).toHaveCount(expected.length);
  for (const [i, invoice] of expected.entries()) await expect(rows.nth(i)).toContainText(invoice.number);
  // The imported invoice opens, and its PDF is the same invoice.
  const view = rows.first().getByRole('link', { name: new RegExp(t('en', 'invoices.view')) });
  const href = (await view.getAttribute('href'))!;
  await view.click();
  await expect(page.getByText('BWB-2026-0009').first()).toBeVisible();
  const pdf = await page.request.get(`${server!.base}${href}/pdf`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-disposition']).toContain('BWB-2026-0009');
});

test('an Arabic client who cancelled before the upgrade still has access to the period end, and their invoice', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const email = 'upgrade.sara@example.ae';
  await signIn(page, server!.base, dataDir, 'ar', email);
  await page.goto(`${server!.base}${at('ar', '/account/subscription')}`);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByText(t('ar', 'status.cancelling', { date: '@' }).split('@')[0]).first()).toBeVisible();
  await expect(page.getByRole('button', { name: t('ar', 'subscription.resume') })).toBeVisible();
  const rows = page.getByRole('table').locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('BWB-2026-0011');
  await expect(rows.first()).toContainText(t('ar', 'invoiceStatus.paid'));
});

test('a restart imports nothing again and issues no invoice', async () => {
  const before = readFileSync(path.join(dataDir, 'content-writes.ndjson'), 'utf8');
  // Once imported, the log's copies of the private records are gone: no client's address stays in it.
  expect(before).not.toMatch(/@|"_id":"(billing|portal)\./);
  // The first start found the demo clients among the imported ones: it seeded none (their invoices
  // would have taken BWB-2026-0001 to 0005 a second time).
  expect(server!.output.join('')).not.toMatch(/demo clients seeded/);
  await kill(server!);
  server = await startOwnServer(port, dataDir, { NODE_ENV: 'test' });
  await expect.poll(() => server!.output.join(''), { timeout: 10_000 }).toMatch(/\[db\] PGlite/);
  expect(server.output.join('')).not.toMatch(/billing customers/);
  expect(server.output.join('')).not.toMatch(/demo clients seeded/);
  // The log is left as the first start left it: nothing is written to it.
  expect(readFileSync(path.join(dataDir, 'content-writes.ndjson'), 'utf8')).toBe(before);
});
