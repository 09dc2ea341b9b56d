#!/usr/bin/env node
// Lighthouse (mobile, simulated throttling) on the twelve pages that stand for the site: home,
// services, pricing, FAQ, one article and one case study, in English and in Arabic. Builds
// nothing: run `npm run build` first. Starts the production server on 127.0.0.1 with an empty
// data folder (as the e2e servers do), runs each page N times (`--runs 3` by default) in headless
// Chromium and prints, per page, the median performance score, the other three categories, LCP,
// total blocking time, the bytes transferred and Lighthouse's CPU index of the machine, then the Arabic/English transfer ratio of each pair.
//   node bench/lighthouse.mjs [--runs N] [--only /ar,/faq] [--save DIR (each run's report, JSON)]
//                             [--without-scripts | --both] [--baseline DIR] [--explain] [--applied]
// --baseline DIR runs the same pages, interleaved run by run, against a second checkout (another
// commit, built there with `npm run build`) on its own port, and prints both medians per page:
// a same-run A/B, since single figures on a shared machine swing with its load.
// --without-scripts measures the same pages with their client scripts taken out (a proxy in
// this script removes every <script> and module preload from the HTML and passes everything else
// on, gzipped as the server does): the score the pages' HTML, CSS, fonts and images allow, so
// the distance to it is what the hydration scripts cost. --both measures each build both ways,
// interleaved, and prints one table with each build's distance (issue 43, goal 1).
// --explain takes each run's simulated LCP apart with Lighthouse's own model (Lantern, on that
// run's trace): which requests its LCP graph holds, by kind and size, the first paint the run
// observed against the time its first-load scripts finished arriving, and the LCP the same
// model gives without those scripts (had they arrived after the paint). Lantern counts every
// request that ended before the observed paint, and an ES module's evaluation carries no URL in
// the trace, so it cannot tell the modules were not needed for the paint.
// --applied throttles the load itself rather than simulating it (below, at `throttlingMethod`).
// Bounded: a page load may take at most 45 s and the whole run at most 25 minutes (twice that
// with --both, and again twice with --applied, whose loads take longer).
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { getComputationDataParams } from 'lighthouse/core/computed/metrics/lantern-metric.js';
import * as Lantern from 'lighthouse/core/lib/lantern/lantern.js';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    only: { type: 'string' },
    save: { type: 'string' },
    'without-scripts': { type: 'boolean', default: false },
    applied: { type: 'boolean', default: false },
    baseline: { type: 'string' },
    explain: { type: 'boolean', default: false },
    both: { type: 'boolean', default: false },
  },
});
const RUNS = Math.max(1, Number(args.runs) || 3);
const PORT = Number(process.env.BENCH_PORT ?? 11_700);
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = '.cache/bench/lighthouse-data';
// 25 minutes for a run of one or two arms; --both doubles the arms, and the bound with them.
const TOTAL_LIMIT_MS = (args.both ? 2 : 1) * (args.applied ? 2 : 1) * 25 * 60_000;

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

/** One production server of the checkout in `cwd`, with an empty data folder of its own. */
function startServer(cwd, port, dataDir, build = process.env.BENCH_BUILD ?? 'build/index.js') {
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  return spawn(process.execPath, ['server.mjs', build], {
    cwd,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', CONTENT_DATA_DIR: dataDir },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
const servers = [startServer(process.cwd(), PORT, DATA_DIR)];
const BASELINE = args.baseline ? `http://127.0.0.1:${PORT + 2}` : null;
// BENCH_BASELINE_BUILD: the baseline's server build when it is not BENCH_BUILD's (a classic build
// against a Vite one, ADR 0032).
if (args.baseline)
  servers.push(
    startServer(
      resolve(args.baseline),
      PORT + 2,
      resolve(DATA_DIR) + '-baseline',
      process.env.BENCH_BASELINE_BUILD ?? process.env.BENCH_BUILD ?? 'build/index.js',
    ),
  );
let chrome;
const stop = () => {
  for (const server of servers) server.kill('SIGTERM');
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

for (const base of [BASE, BASELINE].filter(Boolean)) {
  let up = false;
  for (let i = 0; i < 100 && !up; i++) {
    try {
      up = (await fetch(`${base}/`)).ok;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  if (!up) throw new Error(`the server did not answer on ${base}`);
  for (const p of pages) {
    const res = await fetch(base + p.path); // warm the server's caches; a 404 here is a wrong page list
    if (!res.ok) throw new Error(`${base}${p.path} answered ${res.status}`);
  }
}

/** The page's HTML without its client scripts (inline and module) and their preloads. */
const withoutScripts = (html) =>
  html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '').replace(/<link rel="modulepreload"[^>]*>/g, '');

/** --without-scripts: a proxy in front of a server (`upstream`) that strips the scripts from every page. */
async function startScriptlessProxy(upstreamBase, port) {
  const compressed = new Map();
  const proxy = createServer(async (req, res) => {
    try {
      const upstream = await fetch(upstreamBase + req.url, {
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
      // Compressed as the server sends it (its pages and build files are brotli at quality 11,
      // made once), so that this arm gets no more bytes than the other; kept per URL, as the
      // server keeps its own, so the proxy adds no compression time to each load either.
      const coding = /\bbr\b/.test(req.headers['accept-encoding'])
        ? 'br'
        : /gzip/.test(req.headers['accept-encoding'])
          ? 'gzip'
          : null;
      if (coding && /^(text\/|application\/(json|javascript)|image\/svg)/.test(type)) {
        const key = `${coding} ${req.url}`;
        if (!compressed.has(key))
          compressed.set(
            key,
            coding === 'br'
              ? brotliCompressSync(body, {
                  params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
                })
              : gzipSync(body, { level: 9 }),
          );
        body = compressed.get(key);
        headers['content-encoding'] = coding;
      }
      res.writeHead(upstream.status, headers).end(body);
    } catch (error) {
      res.writeHead(502).end(String(error));
    }
  });
  await new Promise((resolve) => proxy.listen(port, '127.0.0.1', resolve));
  return `http://127.0.0.1:${port}`;
}
// With --baseline, the baseline's pages go through a proxy of their own too (PORT + 3), so both
// arms are measured the same way.
if (args['without-scripts'] && !args.both)
  console.log('without scripts: each page as its HTML, CSS, fonts and images alone');

chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
const flags = {
  port: chrome.port,
  output: 'json',
  logLevel: 'error',
  formFactor: 'mobile',
  // --applied: Lighthouse's "devtools" throttling, the same phone (150 ms round trip times 3.75,
  // 1.6 Mbit/s times 0.9, CPU 4x) applied to the browser while it loads, instead of simulated
  // afterwards from an unthrottled load: slower and noisier, but what it reports was observed,
  // so the loopback race of ADR 0026 (scripts arriving before or after the first paint) cannot
  // decide the LCP.
  throttlingMethod: args.applied ? 'devtools' : 'simulate',
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
/** One Lighthouse run of a URL, retried twice when a busy machine spoils its trace (NO_NAVSTART, ...). */
async function runOnce(url, saveAs) {
  let lhr;
  let artifacts;
  for (let attempt = 0; attempt < 3; attempt++) {
    ({ lhr, artifacts } = await lighthouse(url, flags));
    if (!lhr.runtimeError) break;
    console.error(`${url}: ${lhr.runtimeError.code}, ${attempt < 2 ? 'again' : 'giving up'}`);
  }
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  if (args.save) {
    mkdirSync(args.save, { recursive: true });
    writeFileSync(`${args.save}/${saveAs}.json`, JSON.stringify(lhr));
  }
  return {
    perf: score(lhr, 'performance'),
    a11y: score(lhr, 'accessibility'),
    bp: score(lhr, 'best-practices'),
    seo: score(lhr, 'seo'),
    lcp: lhr.audits['largest-contentful-paint'].numericValue,
    tbt: lhr.audits['total-blocking-time'].numericValue,
    // Lighthouse's own measure of this machine's CPU at the time (higher is faster): the
    // simulated blocking time scales with it, so runs on a busy machine say so.
    cpu: lhr.environment.benchmarkIndex,
    bytes: lhr.audits['total-byte-weight'].numericValue,
    failed: Object.values(lhr.categories)
      .flatMap((c) => c.auditRefs.filter((r) => c.id !== 'performance' && r.weight > 0))
      .filter((r) => (lhr.audits[r.id].score ?? 1) < 1)
      .map((r) => r.id),
    explained: args.explain ? await explainLcp(lhr, artifacts) : null,
  };
}

/**
 * --explain: the run's simulated LCP recomputed with Lantern (the model Lighthouse used), its
 * graph's requests by kind, and the same LCP with the page's scripts left out of the graph.
 */
async function explainLcp(lhr, artifacts) {
  const { FirstContentfulPaint, LargestContentfulPaint } = Lantern.Metrics;
  const settings = lhr.configSettings;
  const data = {
    trace: artifacts.Trace,
    devtoolsLog: artifacts.DevtoolsLog,
    gatherContext: artifacts.GatherContext,
    settings,
    URL: artifacts.URL,
    SourceMaps: artifacts.SourceMaps,
    simulator: null,
  };
  const params = await getComputationDataParams(data, { computedCache: new Map(), settings });
  const fcpResult = FirstContentfulPaint.compute(params);
  const kind = (node) => (node.type === 'network' ? node.request.resourceType : 'cpu');
  /** LCP as Lantern computes it, with the requests `leaveOut` accepts taken out of both its graphs. */
  const lcpWithout = (leaveOut) => {
    class Lcp extends LargestContentfulPaint {
      static getOptimisticGraph(graph, navigation) {
        return FirstContentfulPaint.getFirstPaintBasedGraph(graph, {
          cutoffTimestamp: navigation.timestamps.largestContentfulPaint,
          treatNodeAsRenderBlocking: (n) => LargestContentfulPaint.isNotLowPriorityImageNode(n) && !leaveOut(n),
        });
      }
      static getPessimisticGraph(graph, navigation) {
        return FirstContentfulPaint.getFirstPaintBasedGraph(graph, {
          cutoffTimestamp: navigation.timestamps.largestContentfulPaint,
          treatNodeAsRenderBlocking: (n) => !leaveOut(n),
          additionalCpuNodesToTreatAsRenderBlocking: (n) => n.didPerformLayout(),
        });
      }
    }
    return Lcp.compute(params, { fcpResult });
  };
  const full = LargestContentfulPaint.compute(params, { fcpResult });
  const graphKb = {};
  for (const node of full.pessimisticEstimate.nodeTimings.keys()) {
    if (node.type !== 'network') continue;
    const k = kind(node);
    graphKb[k] = (graphKb[k] ?? 0) + node.request.transferSize / 1024;
  }
  // Both on the trace's clock, from the navigation's start: the paint Lantern cuts its graph at,
  // and the end of the last first-load module (fetched at low priority; the shell's widgets,
  // loaded after hydration, come at high priority).
  const { timeOrigin, largestContentfulPaint } = params.processedNavigation.timestamps;
  let scriptsIn = 0;
  params.graph.traverse((node) => {
    if (kind(node) === 'Script' && node.request.priority === 'Low') scriptsIn = Math.max(scriptsIn, node.endTime);
  });
  return {
    lcp: full.timing,
    lcpWithoutScripts: lcpWithout((n) => kind(n) === 'Script').timing,
    graphKb,
    observedPaint: (largestContentfulPaint - timeOrigin) / 1000,
    scriptsIn: (scriptsIn - timeOrigin) / 1000,
  };
}
const summary = (runs) => ({
  perf: median(runs.map((x) => x.perf)),
  a11y: Math.min(...runs.map((x) => x.a11y)),
  bp: Math.min(...runs.map((x) => x.bp)),
  seo: Math.min(...runs.map((x) => x.seo)),
  lcp: median(runs.map((x) => x.lcp)),
  tbt: median(runs.map((x) => x.tbt)),
  cpu: median(runs.map((x) => x.cpu)),
  bytes: median(runs.map((x) => x.bytes)),
  failed: [...new Set(runs.flatMap((x) => x.failed))],
  all: runs.map((x) => x.perf).join('/'),
  explained: runs.map((x) => x.explained).filter(Boolean),
});
const line = (label, r) =>
  `${label.padEnd(38)} perf ${String(r.perf).padStart(3)} (${r.all})  a11y ${r.a11y}  bp ${r.bp}  seo ${r.seo}` +
  `  LCP ${(r.lcp / 1000).toFixed(2)} s  TBT ${String(Math.round(r.tbt)).padStart(4)} ms` +
  `  ${(r.bytes / 1024).toFixed(0).padStart(4)} KB  cpu index ${Math.round(r.cpu)}` +
  (r.failed.length ? `  failing: ${r.failed.join(', ')}` : '');

/** --explain's lines for one page: each run, then the medians. */
function explanation(r) {
  if (!r.explained.length) return '';
  const kb = (o) =>
    Object.entries(o)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(', ');
  const runs = r.explained.map(
    (e, i) =>
      `    run ${i + 1}: LCP ${(e.lcp / 1000).toFixed(2)} s, without the scripts ${(e.lcpWithoutScripts / 1000).toFixed(2)} s;` +
      ` paint observed at ${Math.round(e.observedPaint)} ms, first-load scripts all in at ${Math.round(e.scriptsIn)} ms;` +
      ` LCP graph KB: ${kb(e.graphKb)}`,
  );
  const med = (f) => (median(r.explained.map(f)) / 1000).toFixed(2);
  return `\n${runs.join('\n')}\n    median: LCP ${med((e) => e.lcp)} s, without the scripts ${med((e) => e.lcpWithoutScripts)} s`;
}

// The arms measured, interleaved run by run so that each sees the same machine: this checkout,
// and with --baseline the other one; each with its scripts, or without them (--without-scripts),
// or both ways (--both: issue 43's goal 1 compares a build with and without its scripts).
const arms = [];
for (const [build, base, label] of [
  ['this', BASE, ''],
  ['baseline', BASELINE, 'baseline'],
]) {
  if (!base) continue;
  const scriptless = args.both || args['without-scripts'];
  if (args.both || !args['without-scripts']) arms.push({ build, label: label || 'this', target: base, scripts: true });
  if (scriptless)
    arms.push({
      build,
      label: `${label || 'this'}${args.both ? ', no scripts' : ''}`,
      target: await startScriptlessProxy(base, build === 'this' ? PORT + 1 : PORT + 3),
      scripts: false,
    });
}
const results = new Map();
const baselineResults = new Map();
/** Per page, per arm: its summary. */
const table = new Map();
for (const p of pages) {
  const runs = arms.map(() => []);
  const name = `${p.lang}-${p.name.replace(' ', '-')}`;
  for (let i = 0; i < RUNS; i++)
    for (const [a, arm] of arms.entries())
      runs[a].push(
        await runOnce(arm.target + p.path, `${arm.label.replace(/\W+/g, '-')}-${name}-${i + 1}`.replace(/^this-/, '')),
      );
  const row = arms.map((arm, a) => summary(runs[a]));
  table.set(p.path, row);
  for (const [a, arm] of arms.entries()) {
    console.log(line(a === 0 ? p.path : `  ${arm.label}`, row[a]) + explanation(row[a]));
    if (arm.build === 'this' && (arm.scripts || !args.both)) results.set(p.path, row[a]);
    if (arm.build === 'baseline' && (arm.scripts || !args.both)) baselineResults.set(p.path, row[a]);
  }
}
if (arms.length > 1) {
  // One table of every arm: perf median (TBT median), and with --both each build's distance from
  // its own pages without scripts (goal 1: at most 2 points and 150 ms).
  const cell = (r) => `${r.perf} (${Math.round(r.tbt)} ms)`;
  console.log(
    `\n| page | ${arms.map((a) => a.label).join(' | ')} |${args.both ? ' gap, this |' : ''}${args.both && BASELINE ? ' gap, baseline |' : ''}`,
  );
  console.log(
    `|---|${arms.map(() => '---|').join('')}${args.both ? '---|' : ''}${args.both && BASELINE ? '---|' : ''}`,
  );
  for (const [path, row] of table) {
    const gap = (w, wo) => `${row[wo].perf - row[w].perf} pts, ${Math.round(row[w].tbt - row[wo].tbt)} ms`;
    console.log(
      `| \`${path}\` | ${row.map(cell).join(' | ')} |` +
        (args.both ? ` ${gap(0, 1)} |` : '') +
        (args.both && BASELINE ? ` ${gap(2, 3)} |` : ''),
    );
  }
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
