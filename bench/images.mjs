#!/usr/bin/env node
// The image route under a flood, on loopback, bounded in requests and time.
// Starts the production build on 127.0.0.1 with a fresh data folder (a cold image cache), times
// the home page alone, then runs three floods of 50 image requests at once, each while the home
// page is fetched in both languages one after the other:
//   avif     50 × the hero at ?w=4000&fm=avif (the security probe's case)
//   jpeg     50 × the hero at ?w=4000&fm=jpg
//   distinct 50 different variants (every image of the home page, several widths, crops, avif)
// and prints page latency p50/p95/max during each, image answers by status, resizes done vs
// requests, the peak RSS of the server and of its resize process, and the total time.
//   node bench/images.mjs            (BENCH_BUILD=build-x to use another build, BENCH_PORT, BENCH_FLOODS=avif,jpeg,distinct)
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';

const PORT = Number(process.env.BENCH_PORT ?? 3901);
const BUILD = process.env.BENCH_BUILD ?? 'build';
const DATA = 'test-results/bench-images-data';
const base = `http://127.0.0.1:${PORT}`;
const ACCEPT = 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8';
const CONCURRENCY = 50;
const started = performance.now();

rmSync(DATA, { recursive: true, force: true });
const server = spawn(process.execPath, ['server.mjs', `${BUILD}/index.js`], {
  env: {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    CONTENT_DATA_DIR: DATA,
    REQUEST_LOG: '0',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let log = '';
server.stdout.on('data', (b) => (log += b.toString()));
const stop = () => server.kill('SIGTERM');
process.on('exit', stop);
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    stop();
    process.exit(130);
  });

// Peak resident memory (Linux: VmHWM) of the server and of its resize process (its child).
const peakRss = (pid) => {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
};
const children = () => {
  try {
    return readFileSync(`/proc/${server.pid}/task/${server.pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
};

for (let i = 0; i < 75; i++) {
  try {
    if ((await fetch(`${base}/`)).ok) break;
  } catch {
    /* not up yet */
  }
  await new Promise((r) => setTimeout(r, 200));
}

const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
};
const ms = (v) => `${Math.round(v)}`.padStart(6);
const resizeCount = () => (log.match(/\[images\] resized /g) ?? []).length;

async function timePage(path) {
  const t = performance.now();
  const response = await fetch(base + path, { signal: AbortSignal.timeout(120_000) });
  await response.text();
  return performance.now() - t;
}

const hero = `${createHash('sha1').update(readFileSync('studio/dataset/images/home-hero.jpg')).digest('hex')}-3200x2000.jpg`;
const homeHtml = (await (await fetch(`${base}/`)).text()).replace(/&amp;/g, '&');
const names = [
  ...new Set(
    [...homeHtml.matchAll(/\/images\/embedded\/production\/([0-9a-f]{40}-\d+x\d+\.(?:jpg|png))/g)].map((m) => m[1]),
  ),
];
const img = (name, query) => `/images/embedded/production/${name}?${query}`;
const WIDTHS = [4000, 2048, 1440, 1024, 720, 480, 360];
const distinct = Array.from({ length: CONCURRENCY }, (_, i) => {
  const name = names[i % names.length];
  const w = WIDTHS[Math.floor(i / names.length) % WIDTHS.length];
  const crop = Math.floor(i / (names.length * WIDTHS.length)) % 2 ? `&h=${Math.round(w / 1.5)}&fit=crop` : '';
  return img(name, `w=${w}${crop}&fm=avif`);
});
const scenarios = [
  { name: 'avif', urls: Array(CONCURRENCY).fill(img(hero, 'w=4000&fm=avif')) },
  { name: 'jpeg', urls: Array(CONCURRENCY).fill(img(hero, 'w=4000&fm=jpg')) },
  { name: 'distinct', urls: distinct },
];

// BENCH_FLOODS=jpeg,distinct runs only those.
const only = process.env.BENCH_FLOODS?.split(',');
if (only) scenarios.splice(0, scenarios.length, ...scenarios.filter((s) => only.includes(s.name)));

// The page alone first.
await timePage('/');
const alone = [];
for (let i = 0; i < 20; i++) alone.push(await timePage(i % 2 ? '/ar' : '/'));

console.log(
  `images: ${names.length} on the home page; ${CONCURRENCY} image requests at once per flood; build ${BUILD}`,
);
console.log(
  `${'flood'.padEnd(9)} ${'pages'.padStart(5)} ${'p50 ms'.padStart(6)} ${'p95 ms'.padStart(6)} ${'max ms'.padStart(6)}  ${'images by status'.padEnd(22)} ${'resizes'.padStart(7)} ${'slowest image ms'.padStart(16)} ${'flood ms'.padStart(8)}`,
);
console.log(
  `${'(none)'.padEnd(9)} ${String(alone.length).padStart(5)} ${ms(pct(alone, 50))} ${ms(pct(alone, 95))} ${ms(Math.max(...alone))}`,
);

for (const scenario of scenarios) {
  const resizesBefore = resizeCount();
  const statuses = {};
  const imageTimes = [];
  let running = true;
  const t0 = performance.now();
  const flood = Promise.all(
    scenario.urls.map(async (url) => {
      const t = performance.now();
      let status;
      try {
        const response = await fetch(base + url, { headers: { accept: ACCEPT }, signal: AbortSignal.timeout(120_000) });
        await response.arrayBuffer();
        status = response.status === 503 && response.headers.get('retry-after') ? '503+RA' : String(response.status);
      } catch (error) {
        status = error?.name === 'TimeoutError' ? 'timeout' : 'error';
      }
      imageTimes.push(performance.now() - t);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }),
  ).finally(() => (running = false));
  const pages = [];
  while (running) pages.push(await timePage(pages.length % 2 ? '/ar' : '/'));
  await flood;
  const floodMs = performance.now() - t0;
  const byStatus = Object.entries(statuses)
    .map(([s, n]) => `${s}:${n}`)
    .join(' ');
  console.log(
    `${scenario.name.padEnd(9)} ${String(pages.length).padStart(5)} ${ms(pct(pages, 50))} ${ms(pct(pages, 95))} ${ms(Math.max(...pages))}  ${byStatus.padEnd(22)} ${`${resizeCount() - resizesBefore}/${scenario.urls.length}`.padStart(7)} ${ms(Math.max(...imageTimes)).padStart(16)} ${ms(floodMs).padStart(8)}`,
  );
}

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const kids = children();
console.log(
  `peak RSS: server ${mb(peakRss(server.pid))}${kids.map((pid) => `, resize process ${mb(peakRss(pid))}`).join('')}; ` +
    `total ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
stop();
process.exit(0);
