#!/usr/bin/env node
// Server CPU per uncached page, two checkouts side by side: each runs its own production server
// (its server.mjs and build/, from its own directory, so each loads its own node_modules and
// patches) with PAGE_CACHE=off, and the two are loaded in turns with autocannon, page by page,
// round by round, swapping which goes first. CPU is what the kernel counts for the server
// process (user + system, all its threads) over a run, divided by the requests it answered, so
// a noisy machine slows both sides' clocks alike but does not change the work counted.
//
//   npx remix build && node bench/cpu.mjs <before-checkout> [after-checkout] [--pages /,/ar,/blog,/ar/faq]
//   (after defaults to this checkout; both need a build: `npx remix build` in each)
//   BENCH_PORT (first of two ports, default 9620), BENCH_ROUNDS (5), BENCH_DURATION (3 s),
//   BENCH_CONNECTIONS (10). Linux only (reads /proc/<pid>/stat).
//
// Example: before = a worktree of an older commit with its own `npm ci` and build:
//   git worktree add /tmp/before <sha> && (cd /tmp/before && npm ci && npx remix build)
//   node bench/cpu.mjs /tmp/before
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ready } from './ready.mjs';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const pagesAt = args.indexOf('--pages');
const pages = pagesAt >= 0 ? args[pagesAt + 1].split(',') : ['/', '/ar', '/blog', '/ar/faq'];
const dirs = (pagesAt >= 0 ? args.slice(0, pagesAt).concat(args.slice(pagesAt + 2)) : args).slice(0, 2);
if (dirs.length === 0) {
  console.error('usage: node bench/cpu.mjs <before-checkout> [after-checkout] [--pages /,/ar]');
  process.exit(1);
}
if (dirs.length === 1) dirs.push(here);
const checkouts = dirs.map((d) => path.resolve(d));
const PORT = Number(process.env.BENCH_PORT ?? 9620);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION = Number(process.env.BENCH_DURATION ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux

for (const dir of checkouts) {
  if (!existsSync(path.join(dir, 'build/index.js')) || !existsSync(path.join(dir, 'server.mjs'))) {
    console.error(`${dir}: needs server.mjs and build/index.js (run npx remix build there)`);
    process.exit(1);
  }
}

const servers = checkouts.map((dir, i) => {
  const child = spawn(process.execPath, [path.join(dir, 'server.mjs'), path.join(dir, 'build/index.js')], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(PORT + i),
      HOST: '127.0.0.1',
      PAGE_CACHE: 'off',
      REQUEST_LOG: '0',
      CONTENT_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'bench-cpu-')),
    },
  });
  return { name: path.basename(dir), base: `http://127.0.0.1:${PORT + i}`, child };
});
const stopAll = () => servers.forEach(({ child }) => child.exitCode === null && child.kill('SIGTERM'));
process.on('exit', stopAll);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

/** CPU milliseconds the kernel has counted for a process (user + system, all threads). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
}

await Promise.all(servers.map(ready));
for (const server of servers) for (const page of pages) await fetch(server.base + page).then((r) => r.arrayBuffer());

const results = new Map(); // `${page} ${index}` -> cpu ms per request of each run
let errors = 0;
console.log(
  `bench/cpu: ${ROUNDS} round(s) × ${pages.length} page(s), ${CONNECTIONS} connections, ${DURATION} s a run, PAGE_CACHE=off`,
);
for (let round = 0; round < ROUNDS; round++) {
  for (const page of pages) {
    const order = round % 2 ? [1, 0] : [0, 1];
    for (const i of order) {
      const { base, child } = servers[i];
      const before = cpuMs(child.pid);
      const run = await autocannon({ url: base + page, connections: CONNECTIONS, duration: DURATION });
      const spent = cpuMs(child.pid) - before;
      errors += run.errors + run.timeouts + run.non2xx;
      const key = `${page} ${i}`;
      if (!results.has(key)) results.set(key, []);
      results.get(key).push(spent / Math.max(1, run.requests.total));
    }
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`\nserver CPU ms per request (median of ${ROUNDS} runs; all runs in brackets)`);
console.log(`before: ${checkouts[0]}\nafter:  ${checkouts[1]}\n`);
console.log(`${'page'.padEnd(10)} ${'before'.padStart(8)} ${'after'.padStart(8)}  after/before`);
for (const page of pages) {
  const [a, b] = [0, 1].map((i) => results.get(`${page} ${i}`));
  const runs = (values) => values.map((v) => v.toFixed(1)).join(' ');
  console.log(
    `${page.padEnd(10)} ${median(a).toFixed(1).padStart(8)} ${median(b).toFixed(1).padStart(8)}  ${(median(b) / median(a)).toFixed(2)}   [${runs(a)}] [${runs(b)}]`,
  );
}
console.log(`errors (non-2xx, timeouts): ${errors}`);
stopAll();
process.exit(errors ? 1 : 0);
