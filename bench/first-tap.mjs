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
//     and a MutationObserver set before any of the page's scripts). Widgets: also the shell's
//     deferred widgets hydrated (ADR 0012: the language menu's code is fetched once the page
//     around it has hydrated): its button hydrated, `<html data-deferred-loading>` gone. It also records the
//     page's long tasks (over 50 ms on the throttled CPU) until the widgets have hydrated: the
//     longest, and their blocking time (the part of each beyond 50 ms, as Lighthouse's TBT).
//   - menu, language (issue 43, goal 3): a tap on the phone menu's button (data-testid=
//     "menu-toggle"), or on the language menu's (data-testid="language-switcher"), at several
//     moments from first paint to hydration: at first paint, then evenly spaced until the
//     widgets' hydration time of this run's load visit of the same build and page (--moments,
//     default 4, the last at that time). Each tap is timed on the page's clock from the touch's own
//     timestamp to the paint after the page answered: the menu shown or hidden (the phone menu's
//     `hidden`, the language menu's aria-expanded or its role="menu" list), or a navigation (then
//     the new page's first paint). A tap the page has received but not answered within 3 s is
//     lost (a tap before React listens does nothing). The next tap waits for the previous one's
//     answer, so each one flips the menu. Reported per page and control: the worst delay, median
//     over runs, and how many taps were lost. Target: <= 200 ms.
//
//   node bench/first-tap.mjs --before <checkout> --after <checkout> [--runs 5] [--pages /,/ar,/pricing]
//     [--moments 4] [--skip book,menu,language]   (leave out some of the visits)
//   Each checkout needs server.mjs and build/index.js (`npm run build` there); each is started as
//   `node server.mjs build/index.js` from its own directory (so it loads its own node_modules) on
//   its own loopback port (BENCH_PORT, default 9660, and the next). Visits alternate between the
//   builds, swapping which goes first every run. Every visit is bounded (45 s), and the run is
//   bounded by runs x pages x 8 visits. Targets (issue 29): tap to view <= 1.5 s and first paint
//   to hydrated <= 1.5 s, in both languages; (issue 43) a tap during hydration answered <= 200 ms.
//   `--before-build`/`--after-build` name another server build of that checkout (a Vite build:
//   build-vite/server/index.js, ADR 0032).
// The probe and the waits below run in the page: these are the browser's globals.
/* global window, document, MutationObserver, Element, requestAnimationFrame */
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
const MOMENTS = Math.min(Math.max(Number(option('moments', 4)), 1), 10);
const SKIP = new Set(option('skip', '').split(',').filter(Boolean));
const TAP_TARGET_MS = 200;
const LOST_MS = 3000;
const CONTROLS = { menu: 'menu-toggle', language: 'language-switcher' };

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
  window.__firstTap = { longTasks: [], taps: [] };
  // Listening: when React starts to listen for clicks on the document (hydrateRoot attaches its
  // listeners to the root container, here the document). A tap before then cannot be answered.
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, ...rest) {
    if (this === document && type === 'click' && window.__firstTap.listening === undefined)
      window.__firstTap.listening = performance.now();
    return add.call(this, type, ...rest);
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.name === 'first-contentful-paint') window.__firstTap.fcp = entry.startTime;
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      window.__firstTap.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });

  // Taps on the two menus' buttons: when the touch happened (the event's own timestamp, however
  // long the main thread kept it waiting), the menu's state then, and the paint after it changed.
  const stateOf = (control) => {
    if (control === 'menu-toggle') return document.querySelector('[data-testid="mobile-menu"]')?.hidden === false;
    const button = document.querySelector('[data-testid="language-switcher"]');
    return button?.getAttribute('aria-expanded') === 'true' || document.querySelector('[role="menu"]') !== null;
  };
  const afterNextPaint = (callback) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => callback(performance.now());
      channel.port2.postMessage(null);
    });
  // Only the latest tap can be answered: one the page had not answered by the next tap's
  // pointerdown (events run in order, its click before that) was lost.
  const check = () => {
    const tap = window.__firstTap.taps.at(-1);
    {
      if (!tap || tap.respondedAt !== undefined || stateOf(tap.control) === tap.before) return;
      tap.respondedAt = performance.now();
      afterNextPaint((now) => (tap.paintAt = now));
    }
  };
  window.addEventListener(
    'pointerdown',
    (event) => {
      const target = event.target instanceof Element ? event.target.closest('[data-testid]') : null;
      const control = target?.getAttribute('data-testid');
      if (control !== 'menu-toggle' && control !== 'language-switcher') return;
      const taps = window.__firstTap.taps;
      if (taps.length && taps.at(-1).respondedAt === undefined) taps.at(-1).lost = true;
      taps.push({ control, at: event.timeStamp, seen: performance.now(), before: stateOf(control) });
    },
    true,
  );
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
  // Widgets: the shell's deferred widgets (the language menu among them, ADR 0012) have hydrated
  // too: hydrated, the language menu's button hydrated (React keeps its props on the element
  // once it has hydrated it: the server's markup alone has none), and no widget still loading
  // (<html data-deferred-loading>). Polled, as hydrating a node changes nothing in the DOM.
  const seen = () => {
    const state = window.__firstTap;
    if (state.hydrated === undefined && document.querySelector('input[name="_js"]')) state.hydrated = performance.now();
    const button = document.querySelector('[data-testid="language-switcher"]');
    if (
      state.hydrated !== undefined &&
      state.widgets === undefined &&
      button &&
      Object.keys(button).some((key) => key.startsWith('__reactProps$')) &&
      !document.documentElement.dataset.deferredLoading
    ) {
      state.widgets = performance.now();
      observer.disconnect();
      clearInterval(poll);
    }
  };
  const observer = new MutationObserver(seen);
  observer.observe(document, { childList: true, subtree: true });
  const poll = setInterval(seen, 25);
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
      () => window.__firstTap?.widgets !== undefined && window.__firstTap.fcp !== undefined,
      null,
      {
        timeout: VISIT_TIMEOUT,
        polling: 250,
      },
    );
    const { fcp, hydrated, widgets, longTasks } = await page.evaluate(() => window.__firstTap);
    // The tasks that started before the widgets had hydrated (the one that ends it included).
    const tasks = longTasks.filter((task) => task.start <= widgets);
    return {
      fcp: Math.round(fcp),
      hydrated: Math.round(hydrated),
      fcpToHydrated: Math.round(hydrated - fcp),
      fcpToWidgets: Math.round(widgets - fcp),
      longest: Math.round(Math.max(0, ...tasks.map((task) => task.duration))),
      blocking: Math.round(tasks.reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0)),
    };
  } finally {
    await context.close();
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * Taps one menu's button at MOMENTS moments from first paint to `hydratedAfterFcp` ms after it
 * (this run's load visit of the same build and page), each tap once the previous one is settled.
 * Returns one entry per tap: its moment (ms after first paint, on the page's clock), the delay
 * from the touch to the paint showing the answer (or null: lost), and whether the page had
 * hydrated by then.
 */
async function menuVisit(browser, base, pagePath, control, hydratedAfterFcp) {
  const { context, page } = await throttledPage(browser);
  const deadline = Date.now() + VISIT_TIMEOUT;
  const firstPaint = () => window.__firstTap?.fcp !== undefined;
  const clock = () => ({ timeOrigin: performance.timeOrigin, fcp: window.__firstTap.fcp, now: performance.now() });
  try {
    await page.goto(base + pagePath, { waitUntil: 'commit', timeout: VISIT_TIMEOUT });
    await page.waitForFunction(firstPaint, null, { timeout: VISIT_TIMEOUT, polling: 20 });
    const { timeOrigin, fcp } = await page.evaluate(clock);
    const box = await page.getByTestId(control).boundingBox();
    if (!box) throw new Error(`${control} is not shown`);
    const url = page.url();
    const step = MOMENTS > 1 ? hydratedAfterFcp / (MOMENTS - 1) : 0;
    let sentAt = 0;
    for (let i = 0; i < MOMENTS && page.url() === url; i++) {
      // The wall clock and the page's share the epoch: the page's time t is timeOrigin + t. A tap
      // is not held back for the previous one's answer: a visitor taps again when nothing moves.
      await sleep(timeOrigin + fcp + i * step - Date.now());
      sentAt = Date.now();
      await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    }
    // Settled: every tap received and answered (painted) or lost (a later tap came first, or the
    // last one unanswered for LOST_MS); or another page shown.
    for (;;) {
      if (Date.now() > deadline) throw new Error('the taps never settled');
      if (page.url() !== url) {
        // The answer is another page: until its first paint, from the moment the last tap was sent.
        await page.waitForFunction(firstPaint, null, { timeout: Math.max(1, deadline - Date.now()), polling: 20 });
        const next = await page.evaluate(clock);
        const moment = Math.round(sentAt - timeOrigin - fcp);
        return [{ moment, delay: Math.round(next.timeOrigin + next.fcp - sentAt), hydrated: false, via: 'page' }];
      }
      const { taps, hydrated, listening, now } = await page.evaluate(() => ({
        taps: window.__firstTap.taps,
        hydrated: window.__firstTap.widgets,
        listening: window.__firstTap.listening,
        now: performance.now(),
      }));
      const last = taps.at(-1);
      const settled =
        taps.length >= MOMENTS &&
        taps.every((t) => t.lost || t.paintAt !== undefined || (t === last && now - t.seen > LOST_MS));
      if (settled) {
        return taps.map((t) => ({
          moment: Math.round(t.at - fcp),
          hydrated: hydrated !== undefined && hydrated <= t.at,
          // During hydration: React listens, the widgets have not all hydrated yet.
          during: listening !== undefined && listening <= t.at && !(hydrated !== undefined && hydrated <= t.at),
          delay: t.paintAt === undefined ? null : Math.round(t.paintAt - t.at),
          via: t.paintAt === undefined ? 'lost' : 'menu',
        }));
      }
      await sleep(100);
    }
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
        if (!results.has(key)) results.set(key, { tap: [], via: [], load: [], menu: [], language: [] });
        const r = results.get(key);
        try {
          // The load visit first: its hydration time spaces this run's menu taps.
          const load = await loadVisit(browser, base, p);
          r.load.push(load);
          let line =
            `run ${run + 1} ${name.padEnd(6)} ${p.padEnd(9)} FCP ${String(load.fcp).padStart(5)} ms  hydrated ${String(load.hydrated).padStart(5)} ms` +
            `  FCP→hydrated ${String(load.fcpToHydrated).padStart(5)} ms  →widgets ${String(load.fcpToWidgets).padStart(5)} ms  longest task ${String(load.longest).padStart(4)} ms  blocking ${String(load.blocking).padStart(5)} ms`;
          if (!SKIP.has('book')) {
            const tap = await tapVisit(browser, base, p);
            r.tap.push(tap.tapToView);
            r.via.push(tap.via);
            line += `  tap→view ${String(tap.tapToView).padStart(5)} ms (${tap.via})`;
          }
          console.log(line);
          for (const [what, control] of Object.entries(CONTROLS)) {
            if (SKIP.has(what)) continue;
            const taps = await menuVisit(browser, base, p, control, load.fcpToWidgets);
            r[what].push(taps);
            const shown = taps.map(
              (t) =>
                `@${t.moment}${t.hydrated ? 'h' : t.during ? 'd' : ''} ${t.delay === null ? 'lost' : `${t.delay}${t.via === 'page' ? ' (page)' : ''}`}`,
            );
            console.log(
              `       ${what.padEnd(8)} tap (ms after FCP; d: during hydration, h: after) → paint: ${shown.join(', ')}`,
            );
          }
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
console.log(
  'build   page      tap→view  via (dialog/page)  FCP    hydrated  FCP→hydrated  FCP→widgets  longest task  blocking',
);
for (const [key, r] of results) {
  const [name, p] = key.split(' ');
  const tap = median(r.tap);
  const fcpToHydrated = median(r.load.map((l) => l.fcpToHydrated));
  const dialogs = r.via.filter((v) => v.startsWith('dialog')).length;
  const mark = (v) => (v <= TARGET_MS ? 'ok' : 'over');
  console.log(
    `${name.padEnd(7)} ${p.padEnd(9)} ${String(tap).padStart(5)} ${(r.tap.length ? mark(tap) : '').padEnd(4)}  ${`${dialogs}/${r.via.length - dialogs}`.padEnd(17)}  ` +
      `${String(median(r.load.map((l) => l.fcp))).padStart(5)}  ${String(median(r.load.map((l) => l.hydrated))).padStart(7)}  ` +
      `${String(fcpToHydrated).padStart(7)} ${mark(fcpToHydrated).padEnd(4)}  ${String(median(r.load.map((l) => l.fcpToWidgets))).padStart(11)}  ` +
      `${String(median(r.load.map((l) => l.longest))).padStart(12)}  ` +
      `${String(median(r.load.map((l) => l.blocking))).padStart(8)}`,
  );
}

// A visit's worst tap: the longest delay, or lost (counted as endless) if any tap was.
const worst = (taps) => (taps.some((t) => t.delay === null) ? Infinity : Math.max(...taps.map((t) => t.delay)));
const shownMs = (v) => (v === Infinity ? 'lost' : Number.isFinite(v) ? String(v) : '-');
const medianWorst = (visits) => {
  const sorted = visits.map(worst).sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? sorted[mid]
    : sorted[mid - 1] === Infinity
      ? Infinity
      : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
};
if (!SKIP.has('menu') || !SKIP.has('language')) {
  console.log(
    `\ntaps during hydration (${MOMENTS} a visit, first paint to hydrated): worst tap→paint of a visit, median over runs ` +
      `(target <= ${TAP_TARGET_MS} ms); while hydrating = the taps after React listens (hydrateRoot) and before the widgets had hydrated; lost = unanswered ${LOST_MS / 1000} s`,
  );
  console.log(
    "build   page      control   worst  worst while hydrating  answered taps' median  lost/taps  lost before React listens  lost while hydrating",
  );
  for (const [key, r] of results) {
    const [name, p] = key.split(' ');
    for (const what of Object.keys(CONTROLS)) {
      const visits = r[what];
      if (!visits.length) continue;
      const all = visits.flat();
      const answered = all.filter((t) => t.delay !== null).map((t) => t.delay);
      const whileHydrating = medianWorst(visits.map((v) => v.filter((t) => t.during)).filter((v) => v.length));
      const during = all.filter((t) => t.during);
      const early = all.filter((t) => !t.during && !t.hydrated);
      const lostOf = (taps) => `${taps.filter((t) => t.delay === null).length}/${taps.length}`;
      console.log(
        `${name.padEnd(7)} ${p.padEnd(9)} ${what.padEnd(9)} ${shownMs(medianWorst(visits)).padStart(5)}  ${shownMs(whileHydrating).padStart(21)}  ` +
          `${shownMs(median(answered)).padStart(21)}  ${`${all.length - answered.length}/${all.length}`.padStart(9)}` +
          `  ${lostOf(early).padStart(25)}  ${lostOf(during).padStart(20)}`,
      );
    }
  }
}
if (failures) {
  console.log(`${failures} visit(s) failed`);
  process.exitCode = 1;
}
