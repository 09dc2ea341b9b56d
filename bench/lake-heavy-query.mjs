#!/usr/bin/env node
// The public site's `/` while an editor's heavy GROQ query runs on the local Content Lake (issue 40,
// ADR 0025 "Limits"): the latency of `/` alone, then with the query running (as many at once
// as the lake has query workers, each repeated until the window ends), in one server run; then how
// fast the lake refuses the 20,000-term query and 60,000-mutation transaction.
// Needs a build (`npx remix build`) and a PostgreSQL (TEST_DATABASE_URL; a throwaway database is
// made in it and dropped). Bounded: 2 windows of BENCH_SECONDS (default 5) of sequential requests.
//   TEST_DATABASE_URL=postgres://… node bench/lake-heavy-query.mjs   (BENCH_PORT, default 3950)
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { request } from 'node:https';
import { availableParallelism } from 'node:os';
import pg from 'pg';
import { ready } from './ready.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 3950);
const LAKE_PORT = PORT + 443;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
// As many heavy queries as the lake has query workers (QUERY_POOL_LIMITS, app/lake/query-pool.server.ts).
const WORKERS = Math.min(4, Math.max(1, availableParallelism() - 1));
const DATA = 'test-results/bench-lake-data';
const admin = process.env.TEST_DATABASE_URL;
if (!admin) throw new Error('set TEST_DATABASE_URL (bash scripts/test-postgres.sh start …)');
const dbName = `bench_lake_${randomBytes(4).toString('hex')}`;
const adminClient = new pg.Client({ connectionString: admin });
await adminClient.connect();
await adminClient.query(`create database ${dbName}`);
const url = new URL(admin);
url.pathname = `/${dbName}`;

rmSync(DATA, { recursive: true, force: true });
const base = `http://127.0.0.1:${PORT}`;
const server = spawn(process.execPath, ['server.mjs', 'build/index.js'], {
  env: {
    ...process.env,
    PORT: String(PORT),
    LAKE_PORT: String(LAKE_PORT),
    CONTENT_DATA_DIR: DATA,
    DATABASE_URL: url.href,
    PAGE_CACHE: 'off',
    REQUEST_LOG: '0',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
let token;
try {
  await ready({ name: 'site', base, child: server });
  // An editor's session, as the sign-in page makes one (the demo editor exists on a loopback site).
  token = `lk1.${randomBytes(32)
    .toString('base64url')
    .replace(/[^A-Za-z0-9]/g, 'a')
    .slice(0, 43)}`;
  const db = new pg.Client({ connectionString: url.href });
  await db.connect();
  for (let i = 0; i < 50; i++) {
    const found = await db
      .query(`select 1 from lake_editors where email = 'editor@example.com'`)
      .then((r) => r.rows.length > 0)
      .catch(() => false); // not migrated yet
    if (found) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await db.query(
    `insert into lake_editor_sessions (id_hash, email, expires_at) values ($1, 'editor@example.com', now() + interval '1 hour')`,
    [createHash('sha256').update(token).digest('hex')],
  );
  await db.end();

  const lake = (path, body) =>
    new Promise((resolve) => {
      const t = performance.now();
      const req = request(
        {
          host: '127.0.0.1',
          port: LAKE_PORT,
          path,
          method: body ? 'POST' : 'GET',
          rejectUnauthorized: false,
          headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - t, text }));
        },
      );
      req.on('error', () => resolve({ status: 0, ms: performance.now() - t, text: '' }));
      req.end(body);
    });
  // Warm: the lake is up and its workers started.
  for (let i = 0; i < 50 && (await lake('/v1/data/query/production?query=count(*)')).status !== 200; i++)
    await new Promise((r) => setTimeout(r, 200));

  const window = async () => {
    const times = [];
    let errors = 0;
    const end = performance.now() + SECONDS * 1000;
    while (performance.now() < end) {
      const t = performance.now();
      const res = await fetch(`${base}/`).catch(() => null);
      if (!res?.ok) errors++;
      await res?.arrayBuffer();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const at = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(1);
    return { requests: times.length, errors, p50: at(0.5), p95: at(0.95), max: times.at(-1).toFixed(1) };
  };
  for (let i = 0; i < 20; i++) await (await fetch(`${base}/`)).arrayBuffer();
  const baseline = await window();

  const HEAVY = `/v1/data/query/production?query=${encodeURIComponent("count(*[]{'a': *[]{'b': *[]{_id}}})")}`;
  let running = true;
  const heavy = [];
  const loops = Array.from({ length: WORKERS }, async () => {
    while (running) heavy.push(await lake(HEAVY));
  });
  await new Promise((r) => setTimeout(r, 300));
  const during = await window();
  running = false;
  await Promise.all(loops);

  const terms = Array.from({ length: 20_000 }, (_, i) => `_id == $p${i}`).join(' || ');
  const params = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`p${i}`, `x${i}`]));
  const wide = await lake('/v1/data/query/production', JSON.stringify({ query: `*[${terms}]`, params }));
  const mutations = Array.from({ length: 60_000 }, (_, i) => ({ createOrReplace: { _id: `b${i}`, _type: 'faqItem' } }));
  const bulk = await lake('/v1/data/mutate/production', JSON.stringify({ mutations }));

  console.log(`/ (PAGE_CACHE=off, one connection, ${SECONDS} s each), ms:`);
  console.table({ 'no heavy query': baseline, [`${WORKERS} heavy queries running`]: during });
  const statuses = heavy.reduce((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {});
  const longest = Math.max(...heavy.map((r) => r.ms));
  console.log(
    `heavy query answers: ${JSON.stringify(statuses)}, each stopped after at most ${(longest / 1000).toFixed(1)} s`,
  );
  console.log(`20,000-term query: ${wide.status} in ${wide.ms.toFixed(0)} ms`);
  console.log(`60,000 createOrReplace in one transaction: ${bulk.status} in ${bulk.ms.toFixed(0)} ms`);
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  await adminClient.query(`drop database if exists ${dbName}`).catch(() => {});
  await adminClient.end();
}
