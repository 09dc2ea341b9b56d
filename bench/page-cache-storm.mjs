#!/usr/bin/env node
// The rendered-page cache under a storm of misses (issue 40, item 4), two checkouts in turn in one
// run: the baseline (before) and this one (after), each its own production server (its server.mjs
// and build/, PAGE_CACHE on, a fresh data folder). For each: 8 popular pages are asked for 3 times
// (kept), then two storms, each of --misses requests at --concurrency, with one request of a popular
// page after every 10 of the storm's (round robin):
//   A. `/?utm_x=<random>` (tracking parameters: the storm);
//   B. `/about?x=<random>` (addresses that are pages of their own: misses whatever the key).
// Printed per server and storm: the storm's answers by X-Page-Cache and its rate, the popular
// pages' hits during it, how many popular pages are still kept after it, and the server's RSS
// (VmRSS) before the storms and at its peak, and after each storm, once a full garbage collection
// has run (bench/page-cache-storm.probe.mjs), what it keeps: V8's heap in use plus the memory
// outside it (buffers: the kept pages' bodies). Growth is against before the storms.
//
//   npx remix build && node bench/page-cache-storm.mjs <before-checkout> [after-checkout] [--misses 2000] [--concurrency 4]
//   (after defaults to this checkout; each needs `npx remix build`). BENCH_PORT (default 9640,
//   and +1). Bounded: each storm stops at --misses requests or after 90 s, whichever comes first.
//   Loopback only; Linux (reads /proc/<pid>/status).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ready } from './ready.mjs';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const MISSES = option('misses', 2000);
const CONCURRENCY = option('concurrency', 4);
const STORM_SECONDS = 90;
const dirs = args.filter((arg, i) => !arg.startsWith('--') && !args[i - 1]?.startsWith('--')).slice(0, 2);
if (dirs.length === 0) {
  console.error('usage: node bench/page-cache-storm.mjs <before-checkout> [after-checkout] [--misses 2000]');
  process.exit(1);
}
if (dirs.length === 1) dirs.push(here);
const checkouts = dirs.map((d) => path.resolve(d));
for (const dir of checkouts)
  if (!existsSync(path.join(dir, 'build/index.js')) || !existsSync(path.join(dir, 'server.mjs'))) {
    console.error(`${dir}: needs server.mjs and build/index.js (run npx remix build there)`);
    process.exit(1);
  }
const PORT = Number(process.env.BENCH_PORT ?? 9640);
const POPULAR = ['/', '/ar', '/services', '/ar/services', '/pricing', '/ar/pricing', '/blog', '/ar/blog'];
const HEADERS = { 'accept-encoding': 'gzip, deflate, br', 'user-agent': 'bench' };

let current = null;
process.on('exit', () => current?.child.exitCode === null && current.child.kill('SIGTERM'));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

/** What the server keeps, in MB, after a full garbage collection: heap in use + external (the probe's line). */
async function keptMb(child) {
  const line = new Promise((resolve) => {
    let text = '';
    const read = (chunk) => {
      text += chunk;
      const m = /\[page-cache-storm\] (\{.*\})\n/.exec(text);
      if (!m) return;
      child.stdout.off('data', read);
      resolve(JSON.parse(m[1]));
    };
    child.stdout.on('data', read);
  });
  child.kill('SIGUSR2');
  const usage = await line;
  return (usage.heapUsed + usage.external) / 2 ** 20;
}

/** The server's resident memory in MB. */
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

async function ask(base, pathname) {
  const response = await fetch(base + pathname, { headers: HEADERS });
  await response.arrayBuffer();
  return response.headers.get('x-page-cache') ?? `status ${response.status}`;
}

async function storm(server, label, missPath) {
  const stormStates = {};
  const popular = { hits: 0, asked: 0 };
  let sent = 0;
  let peak = rssMb(server.child.pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.child.pid))), 100);
  const started = Date.now();
  const until = started + STORM_SECONDS * 1000;
  const worker = async () => {
    while (sent < MISSES && Date.now() < until) {
      const n = sent++;
      const state = await ask(server.base, missPath());
      stormStates[state] = (stormStates[state] ?? 0) + 1;
      if (n % 10 === 9) {
        popular.asked++;
        if ((await ask(server.base, POPULAR[((n / 10) % POPULAR.length) | 0])) === 'hit') popular.hits++;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  clearInterval(sampler);
  const seconds = (Date.now() - started) / 1000;
  let kept = 0;
  for (const page of POPULAR) if ((await ask(server.base, page)) === 'hit') kept++;
  const total = Object.values(stormStates).reduce((a, b) => a + b, 0);
  return { label, total, seconds, stormStates, popular, kept, peak, after: await keptMb(server.child) };
}

const results = [];
for (const [i, dir] of checkouts.entries()) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-storm-'));
  const probe = path.join(here, 'bench/page-cache-storm.probe.mjs');
  const child = spawn(process.execPath, ['--expose-gc', '--import', probe, 'server.mjs', 'build/index.js'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(PORT + i),
      HOST: '127.0.0.1',
      REQUEST_LOG: '0',
      CONTENT_DATA_DIR: dataDir,
    },
  });
  child.stdout.setEncoding('utf8');
  child.stdout.resume();
  current = { name: i ? 'after' : 'before', base: `http://127.0.0.1:${PORT + i}`, child };
  await ready(current);
  for (let round = 0; round < 3; round++) for (const page of POPULAR) await ask(current.base, page);
  const before = await keptMb(child);
  const rssBefore = rssMb(child.pid);
  const random = () => Math.random().toString(36).slice(2, 10);
  const storms = [
    await storm(current, 'A /?utm_x=<random>', () => `/?utm_x=${random()}`),
    await storm(current, 'B /about?x=<random>', () => `/about?x=${random()}`),
  ];
  results.push({ name: current.name, dir, before, rssBefore, storms });
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}

console.log(`bench/page-cache-storm: ${MISSES} storm requests (or ${STORM_SECONDS} s) at ${CONCURRENCY} at once,`);
console.log(`a popular page after every 10 (8 pages, round robin); MB; kept = heap in use + external after a GC\n`);
for (const { name, dir, before, rssBefore, storms } of results) {
  console.log(`${name}: ${dir} (before the storms: kept ${before.toFixed(0)}, RSS ${rssBefore.toFixed(0)})`);
  for (const s of storms) {
    const states = Object.entries(s.stormStates)
      .map(([state, n]) => `${state} ${n}`)
      .join(', ');
    console.log(
      `  ${s.label.padEnd(22)} ${String(s.total).padStart(5)} in ${s.seconds.toFixed(1).padStart(5)} s ` +
        `(${(s.total / s.seconds).toFixed(0)}/s: ${states}); popular pages during it: ${s.popular.hits}/${s.popular.asked} hits; ` +
        `kept after: ${s.kept}/8; RSS peak ${s.peak.toFixed(0)} (+${(s.peak - rssBefore).toFixed(0)}); kept after a GC ${s.after.toFixed(0)} (+${(s.after - before).toFixed(0)})`,
    );
  }
}
process.exit(0);
