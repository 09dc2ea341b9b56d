#!/usr/bin/env node
// The site's server rendering against a bare Remix v2 app (bench/bare: same versions, classic
// compiler, one page of 40 short records), interleaved in one run on loopback.
//
// Three servers run side by side: the bare app (remix-serve), the site as deployed ("warm": its
// page cache on) and the site with PAGE_CACHE=off ("cold": every page rendered). For each round
// and page, the bare page, the warm page and the cold page are loaded one after the other with
// autocannon at 10 connections, bounded by BENCH_DURATION seconds (or exactly BENCH_AMOUNT requests,
// if set); a page's ratio is its requests/s over the bare page's in the same round, so the machine's
// noise hits both sides alike. The X-Page-Cache header values seen are printed, so a "warm" run
// that was not served from the cache says so.
//
// A fourth server, "prepared", is a bare node:http server in its own process sending the very
// answer the warm site sends for `/` to a browser that takes gzip (its headers and gzip buffer,
// fetched once from the warm site): the floor of what sending a kept page costs. In every round
// the warm site's gzipped `/` and the prepared server are loaded one after the other and their
// ratio printed (goal: the site at 0.5x or more, ADR 0023).
//
//   npx remix build && node bench/compare.mjs [paths…]
//   BENCH_PORT (first of four ports, default 9600), BENCH_ROUNDS (2), BENCH_DURATION (3 s),
//   BENCH_AMOUNT (unset), BENCH_CONNECTIONS (10), BENCH_BUILD (the site's build dir, default build),
//   BENCH_WARMUP (2 s of load per server and page before the first round, not counted; 0: none).
import autocannon from 'autocannon';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ready } from './ready.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bareDir = path.join(root, 'bench/bare');
const PORT = Number(process.env.BENCH_PORT ?? 9600);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const DURATION = Number(process.env.BENCH_DURATION ?? 3);
// autocannon's amount overrides its duration, so a run is bounded by time only unless BENCH_AMOUNT is set.
const AMOUNT = process.env.BENCH_AMOUNT ? Number(process.env.BENCH_AMOUNT) : undefined;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const siteBuild = path.join(root, process.env.BENCH_BUILD ?? 'build', 'index.js');
const pages = process.argv.slice(2).length ? process.argv.slice(2) : ['/', '/ar', '/blog', '/ar/faq'];
const GOALS = { warm: 0.8, cold: 0.25, warmP99: 100, prepared: 0.5 };

if (!existsSync(siteBuild)) {
  console.error(`No site build at ${path.relative(root, siteBuild)}: run npx remix build first.`);
  process.exit(1);
}
// The bare app is built here when its build is missing (it takes about a second).
if (!existsSync(path.join(bareDir, 'build/index.js'))) {
  const remixCli = path.join(root, 'node_modules/@remix-run/dev/dist/cli.js');
  const built = spawnSync(process.execPath, [remixCli, 'build'], {
    cwd: bareDir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const children = [];
function start(name, port, args, options) {
  const child = spawn(process.execPath, args, {
    ...options,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', ...options.env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return { name, base: `http://127.0.0.1:${port}`, child };
}
const stopAll = () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
};
process.on('exit', stopAll);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

const dataDir = (name) => {
  const dir = path.join(root, 'test-results', `bench-data-${name}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};
const bare = start('bare', PORT, [path.join(root, 'node_modules/@remix-run/serve/dist/cli.js'), 'build/index.js'], {
  cwd: bareDir,
  env: {},
});
const site = (name, env) =>
  start(name, PORT + (name === 'warm' ? 1 : 2), [path.join(root, 'server.mjs'), siteBuild], {
    cwd: root,
    env: { CONTENT_DATA_DIR: dataDir(name), REQUEST_LOG: '0', ...env },
  });
const warm = site('warm', {});
const cold = site('cold', { PAGE_CACHE: 'off' });

const started = Date.now();
await Promise.all([bare, warm, cold].map(ready));

/** One GET with the bytes as sent (fetch would decode gzip): status, raw headers and body. */
const rawGet = (url, headers) =>
  new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.rawHeaders, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });

// The warm site's answer for `/` to a browser that takes gzip, as sent (the second request: the
// first one stores the page), handed to the prepared server through a file.
const GZIP = { 'accept-encoding': 'gzip' };
await rawGet(`${warm.base}/`, GZIP);
const homeAnswer = await rawGet(`${warm.base}/`, GZIP);
const perConnection = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
const homeHeaders = [];
for (let i = 0; i < homeAnswer.headers.length; i += 2)
  if (!perConnection.has(homeAnswer.headers[i].toLowerCase()))
    homeHeaders.push(homeAnswer.headers[i], homeAnswer.headers[i + 1]);
const preparedDir = dataDir('prepared');
writeFileSync(path.join(preparedDir, 'home.body'), homeAnswer.body);
writeFileSync(path.join(preparedDir, 'home.headers.json'), JSON.stringify(homeHeaders));
const homeEncoding =
  homeAnswer.headers[homeAnswer.headers.findIndex((h) => h.toLowerCase() === 'content-encoding') + 1];
// The whole server: the same status, headers and bytes for every request.
const PREPARED_SERVER = `
import { readFileSync } from 'node:fs';
import http from 'node:http';
const dir = process.env.PREPARED_DIR;
const body = readFileSync(dir + '/home.body');
const headers = JSON.parse(readFileSync(dir + '/home.headers.json', 'utf8'));
http.createServer((req, res) => { res.writeHead(200, headers); res.end(body); })
  .listen(Number(process.env.PORT), process.env.HOST);
`;
const prepared = start('prepared', PORT + 3, ['--input-type=module', '-e', PREPARED_SERVER], {
  cwd: root,
  env: { PREPARED_DIR: preparedDir },
});
await ready(prepared);
console.log(`servers ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(
  `prepared: ${homeAnswer.body.length} bytes (${homeEncoding ?? 'identity'}) and ${homeHeaders.length / 2} headers of the warm site's / (status ${homeAnswer.status})`,
);

// One bounded load run: `seconds` long, or exactly `amount` requests if one is given.
const load = (url, seconds = DURATION, amount = AMOUNT, extraHeaders = {}) =>
  autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    ...(amount ? { amount } : {}),
    headers: { 'user-agent': 'bench', accept: 'text/html', ...extraHeaders },
  });
/** The bare app has one page; the two site servers serve the page asked for. */
const urlOf = (server, page) => (server === bare ? `${server.base}/` : server.base + page);

// autocannon does not expose response headers cheaply: the cache header is sampled with a few
// plain requests right before and after each run instead.
async function sampleCacheHeader(url, into) {
  for (let i = 0; i < 3; i++) {
    const response = await fetch(url, { headers: { 'user-agent': 'bench' } });
    await response.arrayBuffer();
    const value = response.headers.get('x-page-cache') ?? '(none)';
    into[value] = (into[value] ?? 0) + 1;
  }
}

const preparedRows = { prepared: [], warm: [], headers: {} };
const rows = new Map(); // page -> { bare: [], warm: [], cold: [], headers: { warm: {}, cold: {} } }
const entry = (page) => {
  if (!rows.has(page)) rows.set(page, { bare: [], warm: [], cold: [], headers: { warm: {}, cold: {} } });
  return rows.get(page);
};
const summary = (r) => ({
  rps: r.requests.average,
  p50: r.latency.p50,
  p99: r.latency.p99,
  errors: r.errors + r.timeouts + r.non2xx,
  total: r.requests.total,
});

// Warm-up, not counted: each server serves each page under load for WARMUP seconds first, so
// that no side is measured while V8 is still compiling its hot code (the bare page, measured first
// in every row, otherwise sped up by 10-15 % over a run and made later rows' ratios look worse).
if (WARMUP > 0) {
  for (const page of pages) for (const server of [bare, warm, cold]) await load(urlOf(server, page), WARMUP, 0); // by time only
  for (const server of [prepared, warm]) await load(`${server.base}/`, WARMUP, 0, GZIP);
  console.log(`warm-up: ${WARMUP} s per server and page, not counted`);
}

console.log(
  `bench/compare: ${ROUNDS} round(s) × ${pages.length} page(s), ${CONNECTIONS} connections, ${AMOUNT ? `${AMOUNT} requests` : `${DURATION} s`} a run`,
);
for (let round = 1; round <= ROUNDS; round++) {
  // The warm site's gzipped / against the bare server sending its prepared answer.
  for (const server of [prepared, warm]) {
    if (server === warm) await sampleCacheHeader(`${warm.base}/`, preparedRows.headers);
    const result = summary(await load(`${server.base}/`, DURATION, AMOUNT, GZIP));
    preparedRows[server.name].push(result);
    process.stdout.write(
      `  round ${round} ${'/ (gzip)'.padEnd(8)} ${server.name.padEnd(8)} ${result.rps.toFixed(0).padStart(6)} req/s  p99 ${result.p99} ms\n`,
    );
  }
  for (const page of pages) {
    const row = entry(page);
    for (const server of [bare, warm, cold]) {
      const url = urlOf(server, page);
      const t0 = Date.now();
      await fetch(url).then((r) => r.arrayBuffer()); // fill whatever caches the server has
      if (server !== bare) await sampleCacheHeader(url, row.headers[server.name]);
      const t1 = Date.now();
      const result = summary(await load(url));
      if (process.env.BENCH_VERBOSE) console.log(`    (warm-up ${t1 - t0} ms, load ${Date.now() - t1} ms)`);
      row[server.name].push(result);
      process.stdout.write(
        `  round ${round} ${page.padEnd(8)} ${server.name.padEnd(5)} ${result.rps.toFixed(0).padStart(6)} req/s  p99 ${result.p99} ms\n`,
      );
    }
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const pad = (value, width) => String(value).padStart(width);
console.log('');
console.log(
  `${'page'.padEnd(9)}${'mode'.padEnd(6)}${pad('req/s', 8)}${pad('bare', 8)}${pad('ratio', 7)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('errors', 8)}  X-Page-Cache   goal`,
);
let failed = 0;
for (const [page, row] of rows) {
  for (const mode of ['warm', 'cold']) {
    // Ratio per round (against that round's bare run), then the median over rounds.
    const ratios = row[mode].map((r, i) => r.rps / row.bare[i].rps);
    const ratio = median(ratios);
    const p99 = Math.max(...row[mode].map((r) => r.p99));
    const errors = row[mode].reduce((sum, r) => sum + r.errors, 0);
    const headers = Object.entries(row.headers[mode])
      .map(([value, count]) => `${value}×${count}`)
      .join(' ');
    const goals =
      mode === 'warm'
        ? ratio >= GOALS.warm && p99 < GOALS.warmP99 && errors === 0
        : ratio >= GOALS.cold && errors === 0;
    if (!goals) failed++;
    const goalText = mode === 'warm' ? `≥${GOALS.warm}, p99<${GOALS.warmP99}` : `≥${GOALS.cold}`;
    console.log(
      `${page.padEnd(9)}${mode.padEnd(6)}${pad(median(row[mode].map((r) => r.rps)).toFixed(0), 8)}${pad(median(row.bare.map((r) => r.rps)).toFixed(0), 8)}` +
        `${pad(ratio.toFixed(2), 7)}${pad(median(row[mode].map((r) => r.p50)), 8)}${pad(p99, 8)}${pad(errors, 8)}  ${headers.padEnd(14)} ${goals ? 'met' : 'MISSED'} (${goalText})`,
    );
  }
}
{
  const ratios = preparedRows.warm.map((r, i) => r.rps / preparedRows.prepared[i].rps);
  const ratio = median(ratios);
  const errors = [...preparedRows.warm, ...preparedRows.prepared].reduce((sum, r) => sum + r.errors, 0);
  const headers = Object.entries(preparedRows.headers)
    .map(([value, count]) => `${value}×${count}`)
    .join(' ');
  const met = ratio >= GOALS.prepared && errors === 0;
  if (!met) failed++;
  console.log('');
  console.log(
    `/ gzipped: site (warm) ${median(preparedRows.warm.map((r) => r.rps)).toFixed(0)} req/s, bare node:http with the same bytes ` +
      `${median(preparedRows.prepared.map((r) => r.rps)).toFixed(0)} req/s: ratio ${ratio.toFixed(2)} ` +
      `(per round ${ratios.map((r) => r.toFixed(2)).join(', ')}), ${errors} errors, X-Page-Cache ${headers}  ` +
      `${met ? 'met' : 'MISSED'} (≥${GOALS.prepared})`,
  );
}
const bareErrors = [...rows.values()].reduce((sum, row) => sum + row.bare.reduce((s, r) => s + r.errors, 0), 0);
console.log(`bare page: ${bareErrors} errors; ${failed === 0 ? 'all goals met' : `${failed} goal(s) missed`}`);
stopAll();
process.exit(0);
