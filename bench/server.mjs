#!/usr/bin/env node
// Server-side rendering throughput and latency on loopback, bounded in time and requests.
// Starts the production build on 127.0.0.1, warms it, then runs autocannon on a few pages
// in both languages (10 connections, at most 5 s and 2000 requests each) and prints figures.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';

const PORT = Number(process.env.BENCH_PORT ?? 3900);
const base = `http://127.0.0.1:${PORT}`;
const pages = process.argv.slice(2).length ? process.argv.slice(2) : ['/', '/ar', '/services', '/blog', '/ar/faq'];

const server = spawn(process.execPath, ['server.mjs', 'build/index.js'], {
  env: {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    CONTENT_DATA_DIR: 'test-results/bench-data',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const stop = () => server.kill('SIGTERM');
process.on('exit', stop);
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    stop();
    process.exit(130);
  });

for (let i = 0; i < 50; i++) {
  try {
    if ((await fetch(`${base}/`)).ok) break;
  } catch {
    /* not up yet */
  }
  await new Promise((r) => setTimeout(r, 200));
}
console.log(
  `${'page'.padEnd(14)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'errors'.padStart(7)}`,
);
for (const page of pages) {
  await fetch(base + page); // warm the caches
  const r = await autocannon({
    url: base + page,
    connections: 10,
    duration: 5,
    amount: 2000,
    headers: { 'user-agent': 'bench' },
  });
  console.log(
    `${page.padEnd(14)} ${r.requests.average.toFixed(0).padStart(8)} ${String(r.latency.p50).padStart(8)} ${String(r.latency.p99).padStart(8)} ${String(r.errors + r.non2xx).padStart(7)}`,
  );
}
stop();
process.exit(0);
