#!/usr/bin/env node
// Lighthouse (mobile, simulated throttling) on the twelve pages that stand for the site: home,
// services, pricing, FAQ, one article and one case study, in English and in Arabic. Builds
// nothing: run `npm run build` first. Starts the production server on 127.0.0.1 with an empty
// data folder (as the e2e servers do), runs each page N times (`--runs 3` by default) in headless
// Chromium and prints, per page, the median performance score, the other three categories, LCP
// and the bytes transferred, then the Arabic/English transfer ratio of each pair.
//   node bench/lighthouse.mjs [--runs N] [--only /ar,/faq] [--save DIR (each run's report, JSON)]
//                             [--without-scripts]
// --without-scripts measures the same pages with their client scripts taken out (a proxy in
// this script removes every <script> and module preload from the HTML and passes everything else
// on, gzipped as the server does): the score the pages' HTML, CSS, fonts and images allow, so
// the distance to it is what the hydration scripts cost.
// Bounded: a page load may take at most 45 s and the whole run at most 25 minutes.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    only: { type: 'string' },
    save: { type: 'string' },
    'without-scripts': { type: 'boolean', default: false },
  },
});
const RUNS = Math.max(1, Number(args.runs) || 3);
const PORT = Number(process.env.BENCH_PORT ?? 11_700);
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = '.cache/bench/lighthouse-data';
const TOTAL_LIMIT_MS = 25 * 60_000;

const pairs = [
  ['home', '/'],
  ['services', '/services'],
  ['pricing', '/pricing'],
  ['faq', '/faq'],
  ['article', '/blog/uae-corporate-tax-explained'],
  ['case study', '/case-studies/fintech-launch-uae'],
];
const only = args.only ? new Set(args.only.split(',')) : null;
const pages = pairs
  .flatMap(([name, path]) => [
    { name, lang: 'en', path },
    { name, lang: 'ar', path: path === '/' ? '/ar' : `/ar${path}` },
  ])
  .filter((p) => !only || only.has(p.path));

rmSync(DATA_DIR, { recursive: true, force: true });
mkdirSync(DATA_DIR, { recursive: true });
const server = spawn(process.execPath, ['server.mjs', process.env.BENCH_BUILD ?? 'build/index.js'], {
  env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', NODE_ENV: 'production', CONTENT_DATA_DIR: DATA_DIR },
  stdio: ['ignore', 'ignore', 'inherit'],
});
let chrome;
const stop = () => {
  server.kill('SIGTERM');
  try {
    chrome?.kill();
  } catch {
    /* already gone */
  }
};
process.on('exit', stop);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
setTimeout(() => {
  console.error(`stopped: over ${TOTAL_LIMIT_MS / 60_000} minutes`);
  process.exit(1);
}, TOTAL_LIMIT_MS).unref();

let up = false;
for (let i = 0; i < 100 && !up; i++) {
  try {
    up = (await fetch(`${BASE}/`)).ok;
  } catch {
    await new Promise((r) => setTimeout(r, 200));
  }
}
if (!up) throw new Error(`the server did not answer on ${BASE}`);
for (const p of pages) {
  const res = await fetch(BASE + p.path); // warm the server's caches; a 404 here is a wrong page list
  if (!res.ok) throw new Error(`${p.path} answered ${res.status}`);
}

/** The page's HTML without its client scripts (inline and module) and their preloads. */
const withoutScripts = (html) =>
  html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '').replace(/<link rel="modulepreload"[^>]*>/g, '');

/** --without-scripts: a proxy in front of the server that strips the scripts from every page. */
async function startScriptlessProxy() {
  const proxy = createServer(async (req, res) => {
    try {
      const upstream = await fetch(BASE + req.url, {
        redirect: 'manual',
        headers: { accept: req.headers.accept ?? '*/*', 'user-agent': req.headers['user-agent'] ?? '' },
      });
      const type = upstream.headers.get('content-type') ?? '';
      let body = Buffer.from(await upstream.arrayBuffer());
      if (type.startsWith('text/html')) body = Buffer.from(withoutScripts(body.toString('utf8')));
      const headers = {};
      for (const [name, value] of upstream.headers)
        if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name))
          headers[name] = value;
      if (
        /^(text\/|application\/(json|javascript)|image\/svg)/.test(type) &&
        /gzip/.test(req.headers['accept-encoding'])
      ) {
        body = gzipSync(body);
        headers['content-encoding'] = 'gzip';
      }
      res.writeHead(upstream.status, headers).end(body);
    } catch (error) {
      res.writeHead(502).end(String(error));
    }
  });
  await new Promise((resolve) => proxy.listen(PORT + 1, '127.0.0.1', resolve));
  return `http://127.0.0.1:${PORT + 1}`;
}
const target = args['without-scripts'] ? await startScriptlessProxy() : BASE;
if (args['without-scripts']) console.log('without scripts: each page as its HTML, CSS, fonts and images alone');

chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
const flags = {
  port: chrome.port,
  output: 'json',
  logLevel: 'error',
  formFactor: 'mobile',
  throttlingMethod: 'simulate',
  screenEmulation: { mobile: true, width: 412, height: 823, deviceScaleFactor: 1.75, disabled: false },
  onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
  maxWaitForLoad: 45_000,
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const score = (lhr, id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
const results = new Map();
for (const p of pages) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    // A busy machine now and then spoils a trace (NO_NAVSTART, ...): such a run is retried twice.
    let lhr;
    for (let attempt = 0; attempt < 3; attempt++) {
      ({ lhr } = await lighthouse(target + p.path, flags));
      if (!lhr.runtimeError) break;
      console.error(`${p.path}: ${lhr.runtimeError.code}, ${attempt < 2 ? 'again' : 'giving up'}`);
    }
    if (lhr.runtimeError) throw new Error(`${p.path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    if (args.save) {
      mkdirSync(args.save, { recursive: true });
      writeFileSync(`${args.save}/${p.lang}-${p.name.replace(' ', '-')}-${i + 1}.json`, JSON.stringify(lhr));
    }
    runs.push({
      perf: score(lhr, 'performance'),
      a11y: score(lhr, 'accessibility'),
      bp: score(lhr, 'best-practices'),
      seo: score(lhr, 'seo'),
      lcp: lhr.audits['largest-contentful-paint'].numericValue,
      bytes: lhr.audits['total-byte-weight'].numericValue,
      failed: Object.values(lhr.categories)
        .flatMap((c) => c.auditRefs.filter((r) => c.id !== 'performance' && r.weight > 0))
        .filter((r) => (lhr.audits[r.id].score ?? 1) < 1)
        .map((r) => r.id),
    });
  }
  const r = {
    perf: median(runs.map((x) => x.perf)),
    a11y: Math.min(...runs.map((x) => x.a11y)),
    bp: Math.min(...runs.map((x) => x.bp)),
    seo: Math.min(...runs.map((x) => x.seo)),
    lcp: median(runs.map((x) => x.lcp)),
    bytes: median(runs.map((x) => x.bytes)),
    failed: [...new Set(runs.flatMap((x) => x.failed))],
    all: runs.map((x) => x.perf).join('/'),
  };
  results.set(p.path, r);
  console.log(
    `${p.path.padEnd(38)} perf ${String(r.perf).padStart(3)} (${r.all})  a11y ${r.a11y}  bp ${r.bp}  seo ${r.seo}` +
      `  LCP ${(r.lcp / 1000).toFixed(2)} s  ${(r.bytes / 1024).toFixed(0).padStart(4)} KB` +
      (r.failed.length ? `  failing: ${r.failed.join(', ')}` : ''),
  );
}

console.log(`\n${'pair'.padEnd(12)} ${'en KB'.padStart(7)} ${'ar KB'.padStart(7)} ${'ar/en'.padStart(6)}`);
for (const [name, path] of pairs) {
  const en = results.get(path);
  const ar = results.get(path === '/' ? '/ar' : `/ar${path}`);
  if (!en || !ar) continue;
  console.log(
    `${name.padEnd(12)} ${(en.bytes / 1024).toFixed(0).padStart(7)} ${(ar.bytes / 1024).toFixed(0).padStart(7)} ${(ar.bytes / en.bytes).toFixed(2).padStart(6)}`,
  );
}
process.exit(0);
