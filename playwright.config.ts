import { defineConfig } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { databaseUrl } from './tests/e2e/db.mjs';

// End-to-end tests drive Debian's Chromium (npx playwright install cannot download here)
// against the production build, served on loopback with a throwaway data folder.
const PORT = Number(process.env.E2E_PORT ?? 3210);
export const baseURL = `http://127.0.0.1:${PORT}`;
export const editorialURL = `http://127.0.0.1:${PORT + 100}`;
export const PREVIEW_SECRET = 'e2e-preview-secret-0123456789';
export const WEBHOOK_SECRET = 'e2e-webhook-secret';
/** The hosted world, against a fake Content Lake on PORT + 301 (tests/fake-lake.mjs). PORT + 200… is insights.spec.ts's. */
export const hostedURL = `http://127.0.0.1:${PORT + 300}`;
/** Where the hosted world's Studio is (SANITY_STUDIO_URL): a test serves a stand-in Presentation tool there. */
export const studioURL = `http://127.0.0.1:${PORT + 302}`;
export const STUDIO_PREVIEW_SECRET = 'e2e-studio-preview-secret-0123';
export const EXPIRED_STUDIO_PREVIEW_SECRET = 'e2e-studio-preview-secret-expired';
const FAKE_LAKE_TOKEN = 'e2e-fake-lake-read-token';
/** The client portal on Stripe: the real SDK against tests/fake-stripe.mjs on PORT + 401, the site on PORT + 400. */
export const stripeURL = `http://127.0.0.1:${PORT + 400}`;
export const fakeStripeURL = `http://127.0.0.1:${PORT + 401}`;
export const stripeDataDir = `.cache/e2e/stripe-${PORT}`;
export const STRIPE_TEST_KEY = 'sk_test_e2e_fake_stripe_0123';
export const STRIPE_TEST_WEBHOOK_SECRET = 'whsec_e2e_fake_stripe_0123';
/** Price ids per plan, at the packages' monthly prices in cents (SGD 950, 1,900, 3,800). */
export const STRIPE_TEST_PRICES = {
  starter: ['price_e2e_starter', 95000],
  business: ['price_e2e_business', 190000],
  enterprise: ['price_e2e_enterprise', 380000],
} as const;

/**
 * Client data: the main server and the hosted one keep it on the test PostgreSQL (TEST_DATABASE_URL,
 * started by `npm test`; without it this config stops with how to start one), each in a database
 * of its own made new at start, so the specs can read what they stored while the server runs. The
 * others keep it in PGlite in their data folder, the embedded default.
 */
export const mainDatabaseUrl = databaseUrl(`e2e_main_${PORT}`);
export const hostedDatabaseUrl = databaseUrl(`e2e_hosted_${PORT}`);

/** The client portal on the embedded billing engine, with the test hooks (clock, failures): PORT + 500. */
export const portalURL = `http://127.0.0.1:${PORT + 500}`;
export const portalDataDir = `.cache/e2e/portal-${PORT}`;

// The visual editing overlays' bundle is built apart from Remix's build (ADR 0024): built here, by
// the run's main process before its servers start (under a second; the same sources give the same
// file), so the preview tests have it after a plain `npx remix build`; and the build's compressed
// copies (ADR 0036; a few seconds the first time, nothing when they are up to date).
if (!process.env.TEST_WORKER_INDEX)
  for (const script of ['scripts/build-overlays.mjs', 'scripts/precompress.mjs'])
    execFileSync(process.execPath, [script], { stdio: 'inherit' });

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  // One retry in CI only: a 2-core machine running three servers and two browsers now and
  // then loses a race that a person never would. A test that passes only on its retry is
  // still listed as flaky at the end of `npm test` (scripts/test-all.sh), to be fixed.
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.PW_REPORTER ? [[process.env.PW_REPORTER]] : [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    // isbot (rightly) counts HeadlessChrome as a crawler; these tests act as a person would.
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
    // The phone project runs only the tests tagged @phone (in their title): those whose subject is
    // what differs at a phone's width (layout, overflow, the phone menu, sticky and floating
    // elements, touch, RTL at phone width, accessibility scans of what a phone shows). Everything
    // else is the same bytes and behaviour at every width, and the desktop project covers it
    // (docs/developing.md, "End-to-end tests at two widths").
    { name: 'mobile', grep: /@phone/, use: { viewport: { width: 375, height: 812 }, hasTouch: true } },
  ],
  webServer: [
    {
      command: `node tests/e2e/prepare.mjs .cache/e2e/data-${PORT} && node tests/e2e/db.mjs e2e_main_${PORT} && node server.mjs ./${process.env.BUILD_NAME ? `build-${process.env.BUILD_NAME}` : 'build'}/index.js`,
      url: `${baseURL}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: String(PORT),
        HOST: '127.0.0.1',
        NODE_ENV: 'production',
        SITE_URL: 'https://www.bawaba-advisory.com',
        // A public address without Stripe keys takes no payment unless the operator opts in: the
        // marketing tests check the Subscribe forms of the demo billing engine.
        BILLING: 'demo',
        // Outside test-results/, which Playwright empties when a run starts.
        CONTENT_DATA_DIR: `.cache/e2e/data-${PORT}`,
        DATABASE_URL: mainDatabaseUrl,
        PREVIEW_SECRET: PREVIEW_SECRET,
        SANITY_WEBHOOK_SECRET: WEBHOOK_SECRET,
        // As the portal server: a test that acts from an address of its own (actAsIp, X-Forwarded-For)
        // has its own per-IP budgets, so the suite's sign-ups, questions and checkouts (20 an hour
        // from one address) do not add up across spec files; a test that sends none is 127.0.0.1.
        TRUST_PROXY: '1',
      },
    },
    {
      // A second server on its own copy of the dataset, for tests that change content.
      command: `node tests/e2e/prepare.mjs .cache/e2e/editorial-${PORT} --with-dataset && node server.mjs ./${process.env.BUILD_NAME ? `build-${process.env.BUILD_NAME}` : 'build'}/index.js`,
      url: `${editorialURL}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: String(PORT + 100),
        HOST: '127.0.0.1',
        NODE_ENV: 'production',
        SITE_URL: 'https://www.bawaba-advisory.com',
        CONTENT_DATASET_FILE: `.cache/e2e/editorial-${PORT}/production.ndjson`,
        CONTENT_DATA_DIR: `.cache/e2e/editorial-${PORT}/data`,
        PREVIEW_SECRET: PREVIEW_SECRET,
        SANITY_WEBHOOK_SECRET: WEBHOOK_SECRET,
      },
    },
    {
      // A third server in the hosted world, reading a fake Content Lake (the bundled dataset plus
      // the preview secrets the Studio would store), for the Studio's preview entry. No PREVIEW_SECRET.
      command:
        `node tests/e2e/prepare.mjs .cache/e2e/hosted-${PORT} && node tests/e2e/db.mjs e2e_hosted_${PORT} && ` +
        `(node tests/fake-lake.mjs --port ${PORT + 301} --token ${FAKE_LAKE_TOKEN} --dataset studio/dataset/production.ndjson ` +
        `--secret ${STUDIO_PREVIEW_SECRET} --expired-secret ${EXPIRED_STUDIO_PREVIEW_SECRET} &) && ` +
        `node server.mjs ./${process.env.BUILD_NAME ? `build-${process.env.BUILD_NAME}` : 'build'}/index.js`,
      url: `${hostedURL}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: String(PORT + 300),
        HOST: '127.0.0.1',
        NODE_ENV: 'production',
        SITE_URL: 'https://www.bawaba-advisory.com',
        CONTENT_DATA_DIR: `.cache/e2e/hosted-${PORT}`,
        SANITY_PROJECT_ID: 'fake',
        SANITY_DATASET: 'production',
        SANITY_API_HOST: `http://127.0.0.1:${PORT + 301}`,
        SANITY_READ_TOKEN: FAKE_LAKE_TOKEN,
        SANITY_STUDIO_URL: studioURL,
        SESSION_SECRET: 'e2e-hosted-session-secret-0123456789abcdef',
        DATABASE_URL: hostedDatabaseUrl,
      },
    },
    {
      // The client portal on the embedded billing engine. NODE_ENV=test: the test hooks (move the
      // billing clock, make invoices fail) are refused in production. TRUST_PROXY=1: each test acts
      // from an address of its own (X-Forwarded-For), so the per-IP limits do not add up across tests.
      command: `node tests/e2e/prepare.mjs ${portalDataDir} && node server.mjs ./${process.env.BUILD_NAME ? `build-${process.env.BUILD_NAME}` : 'build'}/index.js`,
      url: `${portalURL}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: String(PORT + 500),
        HOST: '127.0.0.1',
        NODE_ENV: 'test',
        SITE_URL: portalURL,
        CONTENT_DATA_DIR: portalDataDir,
        PORTAL_TEST_HOOKS: '1',
        PORTAL_JOBS_INTERVAL_SECONDS: '0',
        TRUST_PROXY: '1',
        REQUEST_LOG: '0',
      },
    },
    {
      // Stripe's stand-in: Checkout's payment page, subscriptions, schedules, invoices, signed events to the site below.
      command:
        `node tests/fake-stripe.mjs --port ${PORT + 401} --secret-key ${STRIPE_TEST_KEY} --webhook-url ${stripeURL}/api/stripe/webhook ` +
        `--webhook-secret ${STRIPE_TEST_WEBHOOK_SECRET} ` +
        Object.values(STRIPE_TEST_PRICES)
          .map(([id, cents]) => `--price ${id}=${cents}`)
          .join(' '),
      url: `${fakeStripeURL}/_fake/idle`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      // The client portal on Stripe (production mode: no test hooks), the portal state in the embedded store.
      command: `node tests/e2e/prepare.mjs ${stripeDataDir} && node server.mjs ./${process.env.BUILD_NAME ? `build-${process.env.BUILD_NAME}` : 'build'}/index.js`,
      url: `${stripeURL}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: String(PORT + 400),
        HOST: '127.0.0.1',
        NODE_ENV: 'production',
        SITE_URL: stripeURL,
        CONTENT_DATA_DIR: stripeDataDir,
        STRIPE_SECRET_KEY: STRIPE_TEST_KEY,
        STRIPE_WEBHOOK_SECRET: STRIPE_TEST_WEBHOOK_SECRET,
        STRIPE_PRICE_STARTER: STRIPE_TEST_PRICES.starter[0],
        STRIPE_PRICE_BUSINESS: STRIPE_TEST_PRICES.business[0],
        STRIPE_PRICE_ENTERPRISE: STRIPE_TEST_PRICES.enterprise[0],
        STRIPE_API_BASE: fakeStripeURL,
        PORTAL_JOBS_INTERVAL_SECONDS: '0',
        TRUST_PROXY: '1',
        REQUEST_LOG: '0',
      },
    },
  ],
});
