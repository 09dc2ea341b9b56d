#!/usr/bin/env node
// Content at scale: the blog pages with the bundled 9 posts against a generated dataset of
// 1,000 published posts (each with its Arabic, a category, 2-4 tags and a full-length body).
//
//   npx remix build && node bench/content-scale.mjs [posts]
//   node bench/content-scale.mjs --write DIR [posts]   (only writes the dataset to DIR; then
//     CONTENT_DATASET_FILE=DIR/production.ndjson npm start runs the site on it)
//
// Writes the generated dataset to a temp folder (its images/ is a link to the bundled one),
// starts the production build twice on 127.0.0.1 (CONTENT_DATASET_FILE picks the dataset,
// PAGE_CACHE=off so every request renders), then requests each page from both servers in
// turn, one request at a time, so both see the same machine load. Prints median and p95
// latency per page and dataset, the ratio of medians (goal: at most 1.5) and each server's
// memory (RSS now and at its peak, from /proc). BENCH_QUERY_CACHE=off also turns off the
// query cache (CONTENT_CACHE_SECONDS=0), so every request runs its GROQ over the dataset.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
const writeTo = args.includes('--write') ? args[args.indexOf('--write') + 1] : null;
const POSTS = Number(args.find((a) => /^\d+$/.test(a)) ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const BASE_PORT = Number(process.env.BENCH_PORT ?? 3910);
const bundled = path.resolve('studio/dataset/production.ndjson');

/** The bundled dataset plus generated posts up to POSTS published ones; deterministic. */
function generate(dir) {
  const lines = readFileSync(bundled, 'utf8').split('\n').filter(Boolean);
  const docs = lines.map((l) => JSON.parse(l));
  const templates = docs.filter((d) => d._type === 'blogPost' && !d._id.startsWith('drafts.'));
  const categories = docs.filter((d) => d._type === 'blogCategory').map((d) => d._id);
  const tags = docs.filter((d) => d._type === 'blogTag').map((d) => d._id);
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = (list) => list[Math.floor(random() * list.length)];
  const out = [...lines];
  const start = Date.parse('2018-01-01T06:00:00Z');
  const span = Date.parse('2026-03-01T06:00:00Z') - start;
  for (let i = templates.length; i < POSTS; i++) {
    const t = structuredClone(pick(templates));
    const n = String(i).padStart(4, '0');
    const slug = `${t.slug.current}-${n}`;
    t._id = `blogPost-${slug}`;
    t.slug = { _type: 'slug', current: slug };
    t.title = { ...t.title, en: `${t.title.en} (${n})`, ar: `${t.title.ar} (${n})` };
    t.publishedAt = new Date(start + Math.floor(random() * span)).toISOString();
    t.featured = false;
    t.category = { _type: 'reference', _ref: pick(categories) };
    const own = new Set(Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(tags)));
    t.tags = [...own].map((ref, k) => ({ _type: 'reference', _ref: ref, _key: `t${n}${k}` }));
    out.push(JSON.stringify(t));
  }
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'production.ndjson');
  writeFileSync(file, out.join('\n') + '\n');
  symlinkSync(path.resolve('studio/dataset/images'), path.join(dir, 'images'));
  return file;
}

function startServer(port, datasetFile, dataDir) {
  const child = spawn(process.execPath, ['server.mjs', 'build/index.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      PAGE_CACHE: 'off',
      CONTENT_DATASET_FILE: datasetFile,
      CONTENT_DATA_DIR: dataDir,
      ...(process.env.BENCH_QUERY_CACHE === 'off' ? { CONTENT_CACHE_SECONDS: '0' } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { port, child, base: `http://127.0.0.1:${port}` };
}

async function waitUp(server) {
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${server.base}/blog`)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server on ${server.port} did not start`);
}

function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function timed(url) {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { 'user-agent': 'bench' } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return performance.now() - t0;
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

if (writeTo) {
  // Only write the dataset (and its images link) to a folder, e.g. to run the site on it.
  console.log(generate(path.resolve(writeTo)));
  process.exit(0);
}

const work = mkdtempSync(path.join(tmpdir(), 'content-scale-'));
const generated = generate(work);
const servers = [
  { label: 'bundled 9', ...startServer(BASE_PORT, bundled, path.join(work, 'data-small')) },
  { label: `${POSTS} posts`, ...startServer(BASE_PORT + 1, generated, path.join(work, 'data-large')) },
];
const stop = () => {
  for (const s of servers) s.child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
};
process.on('exit', stop);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

await Promise.all(servers.map(waitUp));
const pages = [
  '/blog',
  '/ar/blog',
  '/blog?page=2',
  '/blog/category/finance',
  '/blog/tag/uae',
  '/ar/blog/tag/uae',
  '/blog/uae-corporate-tax-explained',
  '/ar/blog/uae-corporate-tax-explained',
];
// Warm both servers (module loading, query parsing, JIT).
for (let i = 0; i < 5; i++) for (const page of pages) for (const s of servers) await timed(s.base + page);

console.log(
  `${ROUNDS} sequential requests per page and dataset, interleaved; page cache off, query cache ${process.env.BENCH_QUERY_CACHE === 'off' ? 'off' : 'on'}`,
);
console.log(
  `${'page'.padEnd(40)} ${'9: p50'.padStart(8)} ${'p95'.padStart(7)} ${`${POSTS}: p50`.padStart(10)} ${'p95'.padStart(7)} ${'ratio'.padStart(6)}`,
);
const ratios = [];
for (const page of pages) {
  const times = servers.map(() => []);
  for (let i = 0; i < ROUNDS; i++) for (const [k, s] of servers.entries()) times[k].push(await timed(s.base + page));
  const [small, large] = times.map((t) => ({ p50: quantile(t, 0.5), p95: quantile(t, 0.95) }));
  const ratio = large.p50 / small.p50;
  ratios.push(ratio);
  const f = (x) => x.toFixed(1);
  console.log(
    `${page.padEnd(40)} ${f(small.p50).padStart(8)} ${f(small.p95).padStart(7)} ${f(large.p50).padStart(10)} ${f(large.p95).padStart(7)} ${ratio.toFixed(2).padStart(6)}`,
  );
}
for (const s of servers) {
  const m = memory(s.child.pid);
  console.log(`server memory, ${s.label}: RSS ${m.rss.toFixed(0)} MB, peak ${m.peak.toFixed(0)} MB`);
}
console.log(`worst ratio ${Math.max(...ratios).toFixed(2)} (goal ≤ 1.5)`);
process.exit(0);
