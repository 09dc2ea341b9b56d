#!/usr/bin/env node
// The first tap on a throttled phone, two builds in one interleaved run (issue 29, item 2).
//
// A first visit (empty cache) in headless Chromium at a phone's size, with CDP throttling as
// Lighthouse's mobile run simulates it: 150 ms latency, 1.6 Mbit/s down, 750 Kbit/s up, CPU 4x
// slower. For each build, page and run it makes two visits:
//
//   - tap: taps Book a Consultation (the hero's, data-testid="book-hero") as soon as it is
//     visible, and times from the tap to the booking view showing: the scheduling frame
//     (data-testid="booking-frame") visible, in the dialog if the page had hydrated, else on the
//     booking page the link leads to. It says which.
//   - load: no tap; times first contentful paint and hydration. Hydrated means the newsletter
//     form's JavaScript marker (input[name="_js"]) is in the page: the form adds it in an effect,
//     which React runs only once it has hydrated the page's tree (the e2e tests' `hydrated` waits
//     for the same marker). Both times come from the page's own clock (a buffered paint observer
//     and a MutationObserver set before any of the page's scripts).
//
//   node bench/first-tap.mjs --before <checkout> --after <checkout> [--runs 5] [--pages /,/ar,/pricing]
//   Each checkout needs server.mjs and build/index.js (`npm run build` there); each is started as
//   `node server.mjs build/index.js` from its own directory (so it loads its own node_modules) on
//   its own loopback port (BENCH_PORT, default 9660, and the next). Visits alternate between the
//   builds, swapping which goes first every run. Every visit is bounded (45 s), and the run is
//   bounded by runs x pages x 4 visits. Targets (issue 29): tap to view <= 1.5 s and first paint
//   to hydrated <= 1.5 s, in both languages. `--before-build`/`--after-build` name another server
//   build of that checkout (a Vite build: build-vite/server/index.js, ADR 0032).
// The probe and the waits below run in the page: these are the browser's globals.
/* global window, document, MutationObserver */
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ready } from './ready.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const before = option('before');
const after = option('after');
if (!before || !after) {
  console.error('usage: node bench/first-tap.mjs --before <checkout> --after <checkout> [--runs 5] [--pages /,/ar]');
  process.exit(1);
}
const RUNS = Math.min(Number(option('runs', 5)), 20);
const PAGES = option('pages', '/,/ar').split(',');
const PORT = Number(process.env.BENCH_PORT ?? 9660);
const VISIT_TIMEOUT = 45_000;
const TARGET_MS = 1500;
const PHONE = { width: 390, height: 844 };

const builds = [
  ['before', before, option('before-build', 'build/index.js')],
  ['after', after, option('after-build', 'build/index.js')],
].map(([name, dir, build], i) => {
  dir = path.resolve(dir);
  if (!existsSync(path.join(dir, build)) || !existsSync(path.join(dir, 'server.mjs'))) {
    console.error(`${dir}: needs server.mjs and ${build} (npm run build there)`);
    process.exit(1);
  }
  const child = spawn(process.execPath, ['server.mjs', build], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(PORT + i),
      HOST: '127.0.0.1',
      REQUEST_LOG: '0',
      CONTENT_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'bench-first-tap-')),
    },
  });
  return { name, dir, base: `http://127.0.0.1:${PORT + i}`, child };
});
const stopAll = () => builds.forEach(({ child }) => child.exitCode === null && child.kill('SIGTERM'));
process.on('exit', stopAll);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

// Runs in the page before its own scripts: the first contentful paint and the moment the
// hydration marker appears, both on the page's clock (ms since navigation start).
const probe = () => {
  window.__firstTap = {};
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.name === 'first-contentful-paint') window.__firstTap.fcp = entry.startTime;
  }).observe({ type: 'paint', buffered: true });
  const seen = () => {
    if (window.__firstTap.hydrated === undefined && document.querySelector('input[name="_js"]')) {
      window.__firstTap.hydrated = performance.now();
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(seen);
  observer.observe(document, { childList: true, subtree: true });
};

async function throttledPage(browser) {
  const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
  // The scheduler and WhatsApp are answered here: the machine sends nothing outside loopback.
  await context.route('https://calendly.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>stub</title><p>stub calendar</p>' }),
  );
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) =>
    route.request().url().startsWith('https://calendly.com/') ? route.fallback() : route.abort(),
  );
  await context.addInitScript(probe);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  return { context, page };
}

async function tapVisit(browser, base, pagePath) {
  const { context, page } = await throttledPage(browser);
  try {
    await page.goto(base + pagePath, { waitUntil: 'commit', timeout: VISIT_TIMEOUT });
    const hero = page.getByTestId('book-hero');
    await hero.waitFor({ state: 'visible', timeout: VISIT_TIMEOUT }).catch((error) => {
      throw new Error(`Book a Consultation never showed: ${error.message}`, { cause: error });
    });
    const box = await hero.boundingBox();
    const tappedAt = Date.now();
    const frame = page.getByTestId('booking-frame').first();
    // A bare touch at the control's centre: Playwright's own actionability checks would run on
    // the throttled CPU first and count against the page. A tap that shows nothing within 10 s is
    // repeated, as a visitor would (at most three); the time still runs from the first.
    let taps = 0;
    for (;;) {
      taps++;
      await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
      try {
        await frame.waitFor({ state: 'visible', timeout: taps < 3 ? 10_000 : VISIT_TIMEOUT });
        break;
      } catch (error) {
        if (taps >= 3) throw new Error(`no booking view after ${taps} taps: ${error.message}`, { cause: error });
      }
    }
    const tapToView = Date.now() - tappedAt;
    const via = new URL(page.url()).pathname.endsWith('/book') ? 'page' : 'dialog';
    return { tapToView, via: taps > 1 ? `${via}, ${taps} taps` : via };
  } finally {
    await context.close();
  }
}

async function loadVisit(browser, base, pagePath) {
  const { context, page } = await throttledPage(browser);
  try {
    await page.goto(base + pagePath, { waitUntil: 'commit', timeout: VISIT_TIMEOUT });
    await page.waitForFunction(
      () => window.__firstTap?.hydrated !== undefined && window.__firstTap.fcp !== undefined,
      null,
      {
        timeout: VISIT_TIMEOUT,
        polling: 250,
      },
    );
    const { fcp, hydrated } = await page.evaluate(() => window.__firstTap);
    return { fcp: Math.round(fcp), hydrated: Math.round(hydrated), fcpToHydrated: Math.round(hydrated - fcp) };
  } finally {
    await context.close();
  }
}

const median = (values) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
};

await Promise.all(builds.map(ready));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
const results = new Map(); // `${build} ${page}` -> { tap: [], load: [] }
let failures = 0;
try {
  // One warm-up request per build and page, so neither pays its server's first render.
  for (const { base } of builds) for (const p of PAGES) await fetch(base + p).then((r) => r.arrayBuffer());
  console.log(`first tap, throttled phone (150 ms, 1.6 Mbit/s down, 750 Kbit/s up, CPU 4x), ${RUNS} runs`);
  for (let run = 0; run < RUNS; run++) {
    const order = run % 2 ? [...builds].reverse() : builds;
    for (const p of PAGES) {
      for (const { name, base } of order) {
        const key = `${name} ${p}`;
        if (!results.has(key)) results.set(key, { tap: [], via: [], load: [] });
        const r = results.get(key);
        try {
          const tap = await tapVisit(browser, base, p);
          const load = await loadVisit(browser, base, p);
          r.tap.push(tap.tapToView);
          r.via.push(tap.via);
          r.load.push(load);
          console.log(
            `run ${run + 1} ${name.padEnd(6)} ${p.padEnd(9)} tap→view ${String(tap.tapToView).padStart(5)} ms (${tap.via.padEnd(6)})` +
              `  FCP ${String(load.fcp).padStart(5)} ms  hydrated ${String(load.hydrated).padStart(5)} ms  FCP→hydrated ${String(load.fcpToHydrated).padStart(5)} ms`,
          );
        } catch (error) {
          failures++;
          console.log(`run ${run + 1} ${name} ${p}: failed (${error.message.split('\n')[0]})`);
        }
      }
    }
  }
} finally {
  await browser.close();
  stopAll();
}

console.log(`\nmedians (target: tap→view and FCP→hydrated <= ${TARGET_MS} ms)`);
console.log('build   page      tap→view  via (dialog/page)  FCP    hydrated  FCP→hydrated');
for (const [key, r] of results) {
  const [name, p] = key.split(' ');
  const tap = median(r.tap);
  const fcpToHydrated = median(r.load.map((l) => l.fcpToHydrated));
  const dialogs = r.via.filter((v) => v.startsWith('dialog')).length;
  const mark = (v) => (v <= TARGET_MS ? 'ok' : 'over');
  console.log(
    `${name.padEnd(7)} ${p.padEnd(9)} ${String(tap).padStart(5)} ${mark(tap).padEnd(4)}  ${`${dialogs}/${r.via.length - dialogs}`.padEnd(17)}  ` +
      `${String(median(r.load.map((l) => l.fcp))).padStart(5)}  ${String(median(r.load.map((l) => l.hydrated))).padStart(7)}  ` +
      `${String(fcpToHydrated).padStart(7)} ${mark(fcpToHydrated)}`,
  );
}
if (failures) {
  console.log(`${failures} visit(s) failed`);
  process.exitCode = 1;
}
