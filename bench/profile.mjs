#!/usr/bin/env node
// Where the server's CPU goes when it renders a page: starts the production build under
// `node --cpu-prof` with the page cache off, warms it, pauses, sends BENCH_REQUESTS (600)
// requests to one page at 10 connections, stops the server and summarises the profile.
//
//   npx remix build && node bench/profile.mjs [path]        (default /)
//   node bench/profile.mjs --summary file.cpuprofile          (summarise an existing profile)
//   BENCH_PORT (default 9610), BENCH_REQUESTS (600), BENCH_BUILD (default build), BENCH_TOP (25)
//
// Prints: CPU ms per request measured by the kernel (user + system time of the server process
// over the load), requests/s, and from the profile (samples before the pause are dropped, so
// start-up is not counted) the top functions by self and by total time, and self time by package.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TOP = Number(process.env.BENCH_TOP ?? 25);
const PAUSE_MS = 1500;

/** The package (or part of the app) a profile frame belongs to. */
function packageOf(url) {
  if (!url) return '(native/V8)';
  if (url.startsWith('node:')) return 'node internals';
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1];
  if (/\/build[^/]*\/index\.js$/.test(url)) return 'app (server bundle)';
  return path.relative(root, url.replace(/^file:\/\//, ''));
}

function summarise(profile, requests) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const key = (n) => {
    const { functionName, url, lineNumber } = n.callFrame;
    return `${functionName || '(anonymous)'} ${packageOf(url)}${url && lineNumber >= 0 ? `:${lineNumber + 1}` : ''}`;
  };
  // Keep what lies between the pause before the load and the next long idle stretch (the end).
  const pauses = [];
  for (let i = 0, runStart = -1, runTime = 0; i < profile.samples.length; i++) {
    if (nodes.get(profile.samples[i]).callFrame.functionName === '(idle)') {
      if (runStart < 0) {
        runStart = i;
        runTime = 0;
      }
      runTime += profile.timeDeltas[i] ?? 0;
      if (runTime >= 1_000_000 && pauses.at(-1)?.[0] !== runStart) pauses.push([runStart, 0]);
      if (pauses.at(-1)?.[0] === runStart) pauses.at(-1)[1] = i + 1;
    } else runStart = -1;
  }
  const start = pauses[0]?.[1] ?? 0;
  const end = pauses[1]?.[0] ?? profile.samples.length;
  const self = new Map();
  const total = new Map();
  const byPackage = new Map();
  let busy = 0;
  for (let i = start; i < end; i++) {
    const dt = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0) / 1000; // ms until the next sample
    const node = nodes.get(profile.samples[i]);
    const name = node.callFrame.functionName;
    if (name === '(idle)') continue;
    busy += dt;
    self.set(key(node), (self.get(key(node)) ?? 0) + dt);
    const pkg = name === '(garbage collector)' || name === '(program)' ? name : packageOf(node.callFrame.url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + dt);
    const seen = new Set();
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const k = key(nodes.get(id));
      if (seen.has(k) || k.startsWith('(root)')) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + dt);
    }
  }
  const per = requests ? ` (${(busy / requests).toFixed(1)} ms per request over ${requests})` : '';
  console.log(`profile: ${busy.toFixed(0)} ms sampled busy time after the pause${per}`);
  const table = (title, map, n) => {
    console.log(`\n${title}`);
    for (const [k, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n))
      console.log(`${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / busy).toFixed(1).padStart(5)}%  ${k}`);
  };
  table('self time by package', byPackage, 15);
  table('self time by function', self, TOP);
  table('total time by function (callers included)', total, TOP);
}

if (process.argv[2] === '--summary') {
  summarise(JSON.parse(readFileSync(process.argv[3], 'utf8')), Number(process.argv[4] ?? 0));
  process.exit(0);
}

const PORT = Number(process.env.BENCH_PORT ?? 9610);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 600);
const page = process.argv[2] ?? '/';
const base = `http://127.0.0.1:${PORT}`;
const dir = mkdtempSync(path.join(tmpdir(), 'bench-profile-'));
const server = spawn(
  process.execPath,
  ['--cpu-prof', `--cpu-prof-dir=${dir}`, 'server.mjs', path.join(process.env.BENCH_BUILD ?? 'build', 'index.js')],
  {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      PAGE_CACHE: 'off',
      REQUEST_LOG: '0',
      CONTENT_DATA_DIR: 'test-results/bench-data-profile',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
process.on('exit', () => server.exitCode === null && server.kill('SIGKILL'));
const cpuTicks = () => {
  const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime, in 1/100 s
};

for (let i = 0; ; i++) {
  if (i === 150 || server.exitCode !== null) throw new Error('the server did not start');
  try {
    if ((await fetch(base + page)).ok) break;
  } catch {
    // not listening yet
  }
  await new Promise((r) => setTimeout(r, 200));
}
for (let i = 0; i < 20; i++) await fetch(base + page).then((r) => r.arrayBuffer());
await new Promise((r) => setTimeout(r, PAUSE_MS));
const before = cpuTicks();
const result = await autocannon({
  url: base + page,
  connections: 10,
  amount: REQUESTS,
  headers: { 'user-agent': 'bench', accept: 'text/html' },
});
const cpuMs = (cpuTicks() - before) * 10;
const errors = result.errors + result.timeouts + result.non2xx;
console.log(
  `${page}: ${result.requests.total} requests, ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${errors} errors`,
);
console.log(
  `server CPU (kernel): ${cpuMs} ms, ${(cpuMs / result.requests.total).toFixed(1)} ms per request (profiler overhead included)`,
);
server.kill('SIGINT');
await new Promise((r) => server.once('exit', r));
const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error(`no profile written in ${dir}`);
console.log(`profile file: ${path.join(dir, file)}`);
summarise(JSON.parse(readFileSync(path.join(dir, file), 'utf8')), result.requests.total);
