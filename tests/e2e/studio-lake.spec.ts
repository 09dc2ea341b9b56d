import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { expect, request, test, type APIRequestContext, type Page } from '@playwright/test';
import { kill, startOwnServer, type OwnServer } from './own-server';
import { outbox, waitForMail } from './portal-helpers';

/**
 * The real Studio (the build in studio/dist, `npm run studio:build`, made once per run by
 * scripts/test-all.sh) against the local Content Lake (app/lake/, ADR 0025), with no sanity.io
 * account: an operator adds an editor (`npm run lake:editor -- add`), who signs in with the code
 * emailed to them (/studio/sign-in; the code read from the outbox), a translator fills a
 * missing Arabic field in the Translations tool (typed right to left), the draft shows in a
 * preview session and stays off the visitors' page, publishing puts it on the Arabic page at
 * once, and history lists the change.
 *
 * Pinned: these tests passed on sanity 4.22.1 (LAKE_TESTED_SANITY in
 * app/lake/studio-version.test.ts fails on any other version until this test is run on it).
 *
 * The server is this test's own (embedded world, PGlite in its data folder), the lake on the
 * next port. NOT YET COVERED (see the lake branch's report): an editor creating a blog post with
 * an image in both languages (the upload is tested in app/lake/store.server.test.ts).
 */
const port = Number(process.env.E2E_PORT ?? 3210) + 610;
const lakePort = port + 1;
const dataDir = `.cache/e2e/lake-${port}`;
const SECRET = 'e2e-lake-session-secret-0123456789-0123456789';
const PREVIEW = 'e2e-lake-preview-secret-0123456789';
const serverEnv = {
  NODE_ENV: 'production' as const,
  LAKE_PORT: String(lakePort),
  SESSION_SECRET: SECRET,
  PREVIEW_SECRET: PREVIEW,
};

test.describe.configure({ mode: 'default' });
// The lake's certificate is made on the server's first start, for this machine (an editor's browser
// trusts its authority, see README); a test browser is told to accept it.
test.use({ ignoreHTTPSErrors: true });
test.skip(({ viewport }) => (viewport?.width ?? 0) < 768, 'one server, one folder: the desktop browser only');

let server: OwnServer | undefined;
let lake: APIRequestContext;
const EDITOR = 'translator@example.com';

/** The operator's command (`npm run lake:editor`), with the server's settings. */
function lakeEditor(...args: string[]): string {
  return execFileSync(
    process.execPath,
    ['node_modules/vite-node/vite-node.mjs', '--config', 'vitest.config.ts', 'scripts/lake-editor.ts', ...args],
    { env: { ...process.env, ...serverEnv, CONTENT_DATA_DIR: dataDir, PORT: String(port) }, encoding: 'utf8' },
  ).trim();
}

/**
 * Signs in as an editor the way one does: the sign-in page, the code from the email (the outbox),
 * then the redirect to the Studio with the token in `#token=`, which the Studio keeps. Returns the token.
 */
async function signInAsEditor(page: Page): Promise<string> {
  const before = outbox(dataDir, EDITOR).length;
  await page.goto(`${server!.base}/studio/sign-in`);
  await page.getByLabel('Your editor email address').fill(EDITOR);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  const codeField = page.getByLabel('6-digit code');
  await expect(codeField).toBeVisible();
  const mail = await waitForMail(dataDir, EDITOR, /\b\d{6}\b/, before);
  await codeField.fill(/\b(\d{6})\b/.exec(mail.text)![1]);
  const redirected = page.waitForResponse((r) => r.request().method() === 'POST' && r.status() === 302);
  await page.getByRole('button', { name: 'Sign in to the Studio' }).click();
  const location = (await redirected).headers().location ?? '';
  expect(location).toMatch(/^\/studio#token=lk1\.[A-Za-z0-9]{43}$/);
  // The Studio takes the token from the address into its localStorage.
  await expect
    .poll(() => page.evaluate(() => Object.keys(localStorage).some((k) => k.startsWith('__studio_auth_token_'))), {
      timeout: 30_000,
    })
    .toBe(true);
  return location.split('#token=')[1];
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  expect(existsSync('studio/dist/index.html'), 'build the Studio first: npm run studio:build').toBe(true);
  rmSync(dataDir, { recursive: true, force: true });
  // An operator adds the editor (PGlite: before the server holds the data folder).
  expect(lakeEditor('add', EDITOR, 'Tala Translator')).toContain(`${EDITOR} is an editor`);
  server = await startOwnServer(port, dataDir, serverEnv);
  // The site serves the Studio; the lake listens (it starts in the background).
  await expect.poll(() => server!.output.join(''), { timeout: 30_000 }).toMatch(/\[lake\] the Studio at \/studio/);
  await expect
    .poll(() => server!.output.join(''), { timeout: 30_000 })
    .toMatch(/\[lake\] local Content Lake for the Studio at/);
});
test.afterAll(async () => {
  await lake?.dispose();
  if (server) await kill(server);
});

const QUESTION = 'faqItem-bank-account';
const ARABIC = 'كم يستغرق فتح حساب مصرفي لشركتك؟';

test('a translator fills a missing Arabic field from the Translations tool and publishes it to the Arabic page', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // Offline: nothing of Sanity's hosted services is reachable (and none is needed).
  await page.context().route(/sanity-cdn\.com|sanity\.io/, (route) => route.abort());
  const token = await signInAsEditor(page);
  lake = await request.newContext({
    baseURL: `https://127.0.0.1:${lakePort}`,
    ignoreHTTPSErrors: true,
    extraHTTPHeaders: { Authorization: `Bearer ${token}` },
  });
  // The state to fix: a published question whose Arabic is empty (as an editor's English-only
  // publish would leave it), written through the lake's own API.
  const emptied = await lake.post('/v2025-02-19/data/mutate/production', {
    data: { mutations: [{ patch: { id: QUESTION, set: { 'question.ar': '' } } }] },
  });
  expect(emptied.status()).toBe(200);
  await expect
    .poll(async () => (await page.request.get(`${server!.base}/ar/faq`)).text())
    .not.toContain('كم يستغرق فتح حساب مصرفي للشركة');

  await page.goto(`${server!.base}/studio/translations`);
  await expect(page.getByRole('heading', { name: 'Translations' })).toBeVisible({ timeout: 30_000 });
  // Each missing field is a link that opens the document at that field.
  await page
    .getByRole('link', { name: 'Open How long does it take to open a corporate bank account? at question' })
    .click();

  const arabic = page.locator('input[id="question.ar"]');
  await expect(arabic).toBeVisible({ timeout: 30_000 });
  expect(await arabic.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
  await arabic.click();
  await page.keyboard.type(ARABIC);
  await expect(arabic).toHaveValue(ARABIC);

  // The draft is stored in the lake, and visitors do not see it.
  await expect
    .poll(
      async () =>
        (await (await lake.get(`/v2025-02-19/data/doc/production/drafts.${QUESTION}`)).json()).documents[0]?.question
          ?.ar,
      { timeout: 15_000 },
    )
    .toBe(ARABIC);
  expect(await (await page.request.get(`${server!.base}/ar/faq`)).text()).not.toContain(ARABIC);
  // In a preview session (another browser's), the Arabic page shows the draft at once.
  const previewer = await browser.newContext();
  try {
    const preview = await previewer.newPage();
    await preview.goto(`${server!.base}/api/preview?secret=${PREVIEW}&redirect=/ar/faq`);
    await expect(preview.getByText(ARABIC).first()).toBeVisible();
  } finally {
    await previewer.close();
  }

  const publish = page.getByRole('button', { name: 'Publish', exact: true });
  await expect(publish).toBeEnabled({ timeout: 15_000 });
  await publish.click();
  await expect
    .poll(async () => (await page.request.get(`${server!.base}/ar/faq`)).text(), { timeout: 15_000 })
    .toContain(ARABIC);
  expect(await (await page.request.get(`${server!.base}/faq`)).text()).not.toContain(ARABIC);

  // History lists the change, by this editor.
  const history = await lake.get(
    `/v2025-02-19/data/history/production/transactions/${QUESTION},drafts.${QUESTION}?excludeContent=true`,
  );
  const transactions = (await history.text())
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(transactions.at(-1)).toMatchObject({ documentIDs: expect.arrayContaining([QUESTION, `drafts.${QUESTION}`]) });
  const me = await (await lake.get('/v2025-02-19/users/me')).json();
  expect(transactions.at(-1).author).toBe(me.id);
});

test('nobody but an editor reaches the lake: no token, a forged one, a visitor of the site', async () => {
  const anonymous = await request.newContext({
    baseURL: `https://127.0.0.1:${lakePort}`,
    ignoreHTTPSErrors: true,
  });
  try {
    const query = '/v2025-02-19/data/query/production?query=*%5B0%5D';
    expect((await anonymous.get(query)).status()).toBe(401);
    const forged = `lk1.${'x'.repeat(43)}`;
    expect((await anonymous.get(query, { headers: { Authorization: `Bearer ${forged}` } })).status()).toBe(401);
    expect(
      (
        await anonymous.post('/v2025-02-19/data/mutate/production', {
          data: { mutations: [{ delete: { id: QUESTION } }] },
        })
      ).status(),
    ).toBe(401);
  } finally {
    await anonymous.dispose();
  }
});

test('the editors’ sign-in page in Arabic: a stranger’s address is answered like an editor’s, gets no email, and a wrong code is announced', async ({
  page,
}) => {
  await page.goto(`${server!.base}/ar/studio/sign-in`);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await page.getByLabel('بريدك الإلكتروني بصفتك محررًا').fill('stranger@example.com');
  await page.getByRole('button', { name: 'أرسل لي رمزًا' }).click();
  const code = page.getByLabel('الرمز المكوّن من 6 أرقام');
  await expect(code).toBeVisible();
  await code.fill('000000');
  await page.getByRole('button', { name: 'الدخول إلى الاستوديو' }).click();
  await expect(page.getByText(/الرمز غير صحيح/)).toBeVisible();
  await expect(code).toBeFocused();
  await expect(code).toHaveAttribute('aria-invalid', 'true');
  expect(outbox(dataDir, 'stranger@example.com')).toHaveLength(0);
});
