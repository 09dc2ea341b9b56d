import { existsSync, rmSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import config from '../../playwright.config';
import { lakeEditor, signInAsEditor } from './lake-helpers';
import { kill, startOwnServer, type OwnServer } from './own-server';
import { startTlsProxy, type TlsProxy } from './tls-proxy';

/**
 * The Studio of a public site (issue 39 item 5): the site at a public address behind its own
 * HTTPS front (a local TLS proxy with HTTP/2 and a throwaway certificate standing in for nginx or
 * Caddy with the operator's), and the local Content Lake answered on that same origin under
 * /studio/api: an editor signs in, edits and publishes with nothing to import. The browser
 * resolves the public name to the proxy, and ignores the throwaway certificate (this file only:
 * a real front has a trusted one).
 */
const SITE = 'https://www.bawaba-advisory.com';
const port = Number(process.env.E2E_PORT ?? 3210) + 630;
const proxyPort = port + 1;
const dataDir = `.cache/e2e/lake-public-${port}`;
const serverEnv = {
  NODE_ENV: 'production',
  SITE_URL: SITE,
  TRUST_PROXY: '1',
  // The loopback port the lake would take otherwise: nothing may listen there on a public site.
  LAKE_PORT: String(port + 2),
  SESSION_SECRET: 'e2e-public-lake-session-secret-0123456789-0123456789',
};
const EDITOR = { email: 'marketing@example.com', name: 'Mona Marketing' };
/** A document without references: Studio 4.22.1 can stay on "Publishing…" when a reference's check re-runs (ADR 0025). */
const CATEGORY = 'faqCategory-operations';

test.describe.configure({ mode: 'default' });
const launch = config.use?.launchOptions ?? {};
test.use({
  ignoreHTTPSErrors: true,
  launchOptions: {
    ...launch,
    args: [...(launch.args ?? []), `--host-resolver-rules=MAP www.bawaba-advisory.com 127.0.0.1:${proxyPort}`],
  },
});

let server: OwnServer | undefined;
let proxy: TlsProxy | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  expect(existsSync('studio/dist/index.html'), 'build the Studio first: npm run studio:build').toBe(true);
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(`${dataDir}-proxy`, { recursive: true, force: true });
  const env = { ...serverEnv, CONTENT_DATA_DIR: dataDir, PORT: String(port) };
  expect(lakeEditor(env, 'add', EDITOR.email, EDITOR.name)).toContain(`${EDITOR.email} is an editor`);
  server = await startOwnServer(port, dataDir, serverEnv);
  proxy = await startTlsProxy({ port: proxyPort, upstreamPort: port, certDir: `${dataDir}-proxy` });
  await expect
    .poll(() => server!.output.join(''), { timeout: 30_000 })
    .toContain(`[lake] local Content Lake for the Studio at ${SITE}/studio/api`);
});
test.afterAll(async () => {
  await proxy?.close();
  if (server) await kill(server);
});

test("an editor of a public site signs in, edits and publishes through the site's own HTTPS front, with nothing to import", async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await context.route(/sanity-cdn\.com|sanity\.io/, (route) => route.abort());
  await signInAsEditor(page, SITE, dataDir, EDITOR.email);
  // The Studio is told to use the site's own origin; no lake port and no authority of its own.
  expect(
    await page.evaluate(() => (window as unknown as { __BAWABA_LAKE__: { apiHost: string } }).__BAWABA_LAKE__),
  ).toEqual({ apiHost: `${SITE}/studio/api` });
  expect(existsSync(`${dataDir}/lake-tls/ca.pem`)).toBe(false);
  expect(server!.output.join('')).not.toContain('trust ');

  const text = `Operations (public ${Date.now().toString(36)})`;
  await page.goto(`${SITE}/studio/intent/edit/id=${CATEGORY};type=faqCategory`);
  const english = page.locator('input[id="title.en"]');
  await expect(english).toBeVisible({ timeout: 60_000 });
  await english.fill(text);
  // The draft is stored in the lake (read back through the front, with the Studio's own token)
  // before Publish: Studio 4.22.1 can stay on "Publishing…" when Publish is clicked while its
  // validation re-runs (sanity-io/sanity#12132, ADR 0025); a reload then publishes the saved draft.
  const draftTitle = () =>
    page.evaluate(async (id) => {
      const key = Object.keys(localStorage).find((k) => k.startsWith('__studio_auth_token_'))!;
      const { token } = JSON.parse(localStorage.getItem(key)!) as { token: string };
      const res = await fetch(`/studio/api/v2025-02-19/data/doc/production/drafts.${id}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      return ((await res.json()) as { documents: { title?: { en?: string } }[] }).documents[0]?.title?.en;
    }, CATEGORY);
  await expect.poll(draftTitle, { timeout: 30_000 }).toBe(text);
  const publish = page.getByRole('button', { name: 'Publish', exact: true });
  const published = () =>
    page.evaluate(async (id) => {
      const key = Object.keys(localStorage).find((k) => k.startsWith('__studio_auth_token_'))!;
      const { token } = JSON.parse(localStorage.getItem(key)!) as { token: string };
      const res = await fetch(`/studio/api/v2025-02-19/data/doc/production/${id}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      return ((await res.json()) as { documents: { title?: { en?: string } }[] }).documents[0]?.title?.en;
    }, CATEGORY);
  for (let attempt = 0; attempt < 2 && (await published()) !== text; attempt++) {
    if (attempt > 0) await page.reload();
    await expect(publish).toBeEnabled({ timeout: 30_000 });
    await publish.click();
    await expect
      .poll(published, { timeout: 20_000 })
      .toBe(text)
      .catch(() => {});
  }
  expect(await published()).toBe(text);
  await page.screenshot({ path: test.info().outputPath('public-studio.png') });

  const visitor = await context.newPage();
  await expect
    .poll(
      async () => {
        await visitor.goto(`${SITE}/faq`);
        return visitor.getByText(text).count();
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0);

  // The Presentation tool previews the public site through the same front (no PREVIEW_SECRET set).
  await page.goto(`${SITE}/studio/presentation?preview=${encodeURIComponent('/faq')}`);
  const banner = page.frameLocator('iframe').first().getByTestId('preview-banner');
  await expect(banner).toBeVisible({ timeout: 60_000 });
  await expect(page.frameLocator('iframe').first().getByText(text).first()).toBeVisible();
  await expect(page.getByText('Loading.', { exact: true })).toHaveCount(0, { timeout: 30_000 });
  await page.screenshot({ path: test.info().outputPath('public-presentation.png') });

  // Every call of the Studio went to the site's origin, over HTTP/2, and was answered there. (The
  // presence websocket, /socket/, asks over HTTP/1.1 as websockets do; the lake has none, ADR 0025.)
  const api = proxy!.requests.filter((r) => r.path.startsWith('/studio/api/') && !r.path.includes('/socket/'));
  expect(api.length).toBeGreaterThan(10);
  expect(api.filter((r) => r.httpVersion !== '2.0').map((r) => r.path)).toEqual([]);
  expect(api.filter((r) => /\/data\/(actions|mutate)\//.test(r.path)).every((r) => r.status === 200)).toBe(true);
  // Its event streams (more than HTTP/1.1's 6 connections a host would carry) shared one connection.
  expect(api.filter((r) => /\/data\/listen\//.test(r.path)).length).toBeGreaterThan(6);
});
