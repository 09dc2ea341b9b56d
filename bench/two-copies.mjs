/**
 * Two server copies on one PostgreSQL (issue 27, item 9), under a steady load of sign-ups,
 * sign-ins and plan changes:
 *   npm run build && node bench/two-copies.mjs [--seconds 60] [--workers 8] [--interval 2]
 * Two `node server.mjs build/index.js` processes share one database (DATABASE_URL) and one
 * SESSION_SECRET, as two copies behind a load balancer would; each has its own data folder (the
 * embedded content world locks its folder even when client data is in PostgreSQL, so a second
 * copy on the same folder exits at once) and so its own outbox. The benchmark plays the load
 * balancer and the clients (plain HTTP, no browser), for --seconds: each of --workers clients in
 * turn subscribes (pricing, the local checkout, the code emailed to confirm the address), signs
 * in on another device by an emailed code, and walks plan changes, cancellations, resumptions and
 * withdrawals. Every request goes to one copy or the other, a code is always typed into the copy
 * other than the one it was asked of (or that took the payment), and every other step (and one
 * confirmation in three) is posted twice at once, to both copies: a double click landing on two
 * servers.
 * Then, from the database and both outboxes:
 * - lost: an acknowledged sign-up without its one customer, account, subscription and paid
 *   invoice; an acknowledged step missing from the final state, from the subscription's events
 *   or from the emails; a sign-in whose session the other copy did not accept;
 * - doubled: an invoice number, customer, account or subscription twice; more events or emails
 *   than acknowledged steps; an email sent by both copies (in both outboxes);
 * - the periodic jobs (PORTAL_JOBS_INTERVAL_SECONDS=--interval in both copies): every run and
 *   skipped attempt per copy (bench/two-copies.probe.mjs reports them from inside each server;
 *   the server records no run); doubled: a run overlapping another, more runs than intervals, or
 *   two runs less than half an interval apart (once per interval between the copies, not per copy);
 * - then the billing clock moves 31 days on: the copies' jobs renew every subscription, apply the
 *   scheduled changes and end the cancelled ones, each exactly once (one new invoice, no number twice).
 * Prints requests sent per kind, acknowledged, latency p50/p95, lost, doubled and the job runs; exits
 * 1 if anything was lost or doubled. PostgreSQL: TEST_DATABASE_URL (a fresh database in it, dropped
 * at the end), or a throwaway cluster of its own (scripts/test-postgres.sh, port BENCH_PG_PORT,
 * default 55443). Loopback only; servers on BENCH_PORT and BENCH_PORT+1 (default 6550, 6551; +2
 * for the refused copy); bounded: --seconds of load (at most 400 clients), then at most 30 s for
 * the last emails and 60 s for the renewals. BENCH_BUILD=build-x/index.js runs another build.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = arg('seconds', 60);
const WORKERS = arg('workers', 8);
const INTERVAL = arg('interval', 2);
const MAX_CLIENTS = 400;
const BUILD = process.env.BENCH_BUILD ?? 'build/index.js';
const PORT = Number(process.env.BENCH_PORT ?? 6550);
const PG_PORT = Number(process.env.BENCH_PG_PORT ?? 55443);
/** The address both copies call their own (the balancer's): loopback, so the local checkout runs. */
const SITE_URL = `http://localhost:${PORT + 9}`;
const SESSION_SECRET = 'two-copies-bench-session-secret-0123456789abcdef';

if (!existsSync(BUILD)) {
  console.error(`${BUILD} not found: run \`npm run build\` first`);
  process.exit(2);
}

// ------------------------------------------------------------------------------ PostgreSQL

const work = mkdtempSync(path.join(tmpdir(), 'two-copies-'));
const cleanups = [];
async function cleanUp() {
  for (const undo of cleanups.reverse()) await undo().catch((e) => console.error(`clean-up: ${String(e)}`));
  rmSync(work, { recursive: true, force: true });
}
process.once('SIGINT', () => void cleanUp().then(() => process.exit(130)));

async function openPostgres() {
  let admin = process.env.TEST_DATABASE_URL;
  if (!admin) {
    // Beside the work folder, not in it: as root the cluster runs as `postgres`, which cannot enter a 0700 folder.
    const dir = path.join(tmpdir(), `pg-two-copies-${process.pid}`);
    const started = spawnSync('bash', ['scripts/test-postgres.sh', 'start', dir, String(PG_PORT)], {
      encoding: 'utf8',
    });
    if (started.status !== 0) throw new Error(`PostgreSQL did not start: ${started.stderr}`);
    cleanups.push(async () => void spawnSync('bash', ['scripts/test-postgres.sh', 'stop', dir]));
    admin = /TEST_DATABASE_URL=(\S+)/.exec(started.stdout)[1];
  }
  const name = `two_copies_${process.pid}_${Date.now().toString(36)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  });
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.href;
}

// ------------------------------------------------------------------------------ the copies

/** One server copy: its own data folder and outbox, the shared database and secret. */
async function startCopy(label, port, databaseUrl, folder = label) {
  const dataDir = path.join(work, `copy-${folder}`);
  mkdirSync(dataDir, { recursive: true });
  const env = { ...process.env };
  for (const key of [
    'SANITY_PROJECT_ID',
    'SANITY_WRITE_TOKEN',
    'STRIPE_SECRET_KEY',
    'SMTP_URL',
    'OUTBOX_DIR',
    'BILLING',
  ])
    delete env[key];
  Object.assign(env, {
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    SITE_URL,
    CONTENT_DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SESSION_SECRET,
    TRUST_PROXY: '1',
    PORTAL_JOBS_INTERVAL_SECONDS: String(INTERVAL),
    REQUEST_LOG: '0',
  });
  const child = spawn(process.execPath, ['--import', './bench/two-copies.probe.mjs', 'server.mjs', BUILD], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const copy = { label, base: `http://127.0.0.1:${port}`, dataDir, child, log: [], jobs: [] };
  let partial = '';
  const take = (chunk) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop();
    for (const line of lines) {
      copy.log.push(line);
      const m = /^\[two-copies\] jobs (ran|skipped|done) (\d+) (\d+)$/.exec(line);
      if (m) copy.jobs.push({ what: m[1], asked: Number(m[2]), at: Number(m[3]) });
    }
  };
  child.stdout.setEncoding('utf8').on('data', take);
  child.stderr.setEncoding('utf8').on('data', take);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`copy ${label} exited (${child.exitCode}):\n${copy.log.join('\n')}`);
    try {
      if ((await fetch(`${copy.base}/`)).ok) return copy;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`copy ${label} did not answer within 30 s:\n${copy.log.join('\n')}`);
}

// ------------------------------------------------------------------------------ HTTP, timed

const sent = {};
const acked = {};
const latencies = [];
const failures = [];
const count = (table, kind) => (table[kind] = (table[kind] ?? 0) + 1);

class Jar {
  cookies = new Map();
  take(res) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const at = pair.indexOf('=');
      const value = pair.slice(at + 1);
      if (/Max-Age=0/i.test(c) || !value) this.cookies.delete(pair.slice(0, at));
      else this.cookies.set(pair.slice(0, at), value);
    }
  }
  get header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** One request, timed and counted under `kind`; never throws (a network error is status 0). */
async function request(kind, copy, pathname, { form, jar, ip } = {}) {
  count(sent, kind);
  const started = performance.now();
  try {
    const res = await fetch(`${copy.base}${pathname}`, {
      method: form ? 'POST' : 'GET',
      body: form ? new URLSearchParams(form) : undefined,
      headers: { 'X-Forwarded-For': ip, ...(jar?.cookies.size ? { Cookie: jar.header } : {}) },
      redirect: 'manual',
      signal: AbortSignal.timeout(20_000),
    });
    const body = await res.text();
    latencies.push(performance.now() - started);
    return { status: res.status, location: res.headers.get('location') ?? '', body, res };
  } catch (error) {
    return { status: 0, location: '', body: String(error.cause ?? error), res: null };
  }
}

/** The path and query of a redirect (the location names SITE_URL, the balancer; the bench picks the copy). */
const pathOf = (location) => {
  const url = new URL(location, SITE_URL);
  return url.pathname + url.search;
};

// ------------------------------------------------------------------------------ the outboxes

/** Every email either copy wrote, read once per file; by address. */
const mail = { files: new Map(), byTo: new Map() };
function scanOutboxes(copies) {
  for (const copy of copies) {
    const dir = path.join(copy.dataDir, 'outbox');
    let names;
    try {
      names = readdirSync(dir).filter((f) => f.endsWith('.json'));
    } catch {
      continue;
    }
    for (const name of names) {
      const key = `${copy.label}/${name}`;
      if (mail.files.has(key)) continue;
      const m = { ...JSON.parse(readFileSync(path.join(dir, name), 'utf8')), copy: copy.label };
      mail.files.set(key, m);
      const list = mail.byTo.get(m.to) ?? [];
      list.push(m);
      mail.byTo.set(m.to, list);
    }
  }
}

/** The code of the first email to `to` with a 6-digit code not in `seen` (polls both outboxes up to 20 s). */
async function waitForCode(copies, to, seen) {
  for (const started = Date.now(); Date.now() - started < 20_000;) {
    scanOutboxes(copies);
    const found = (mail.byTo.get(to) ?? []).find((m) => !seen.has(m.messageId) && /\b\d{6}\b/.test(m.text));
    if (found) {
      seen.add(found.messageId);
      return /\b(\d{6})\b/.exec(found.text)[1];
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return null;
}

// ------------------------------------------------------------------------------ clients

const messages = {
  en: JSON.parse(readFileSync('public/locales/en/portal.json', 'utf8')).messages,
  ar: JSON.parse(readFileSync('public/locales/ar/portal.json', 'utf8')).messages,
};
const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#x27;');
/** The success message of a step in the page, its {{values}} as wildcards. */
const success = (locale, intent) => {
  const key = { change: 'changeScheduled', cancel: 'cancelled', resume: 'resumed', withdraw: 'changeWithdrawn' }[
    intent
  ];
  const parts = escapeHtml(messages[locale][key]).split(/\{\{\s*\w+\s*\}\}/);
  return new RegExp(parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+?'));
};

/** A cycle of steps, each allowed after the one before; the state each leaves. */
const STEPS = [
  { intent: 'change', plan: 'enterprise', after: { cancelling: false, scheduled: 'enterprise' } },
  { intent: 'cancel', after: { cancelling: true, scheduled: null } },
  { intent: 'resume', after: { cancelling: false, scheduled: null } },
  { intent: 'change', plan: 'business', after: { cancelling: false, scheduled: 'business' } },
  { intent: 'withdraw', after: { cancelling: false, scheduled: null } },
];
/** The emails a step's change of state sends (a cancellation also withdraws the change it drops). */
const emailsOf = (before, after) => [
  ...(after.cancelling && !before.cancelling ? ['cancellation'] : []),
  ...(after.scheduled && after.scheduled !== before.scheduled ? ['plan-changed'] : []),
  ...(before.scheduled && !after.scheduled ? ['change-withdrawn'] : []),
];
const EMAIL_KINDS = ['cancellation', 'plan-changed', 'change-withdrawn'];

let ipCounter = 0;
/** A new client address each time: the per-IP limits are the clients', not the benchmark's. */
const nextIp = () => {
  const n = ++ipCounter;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};
const pick = (copies, n) => copies[n % 2];

/**
 * One client, start to end: subscribes (checkout on one copy, the confirmation typed into the
 * other, sometimes into both at once), then twice: signs in on a new device (code asked on one
 * copy, typed into the other, the session checked on the first) and walks up to five steps.
 */
async function runClient(copies, n, deadline) {
  const locale = n % 3 === 2 ? 'ar' : 'en';
  const at = (p) => (locale === 'ar' ? `/ar${p}` : p);
  const email = `two.copies.${n}.${Date.now().toString(36)}@example.com`;
  const client = {
    n,
    email,
    locale,
    subscribed: false,
    signIns: 0,
    steps: [],
    state: { cancelling: false, scheduled: null },
  };
  const seen = new Set();
  const fail = (what, r) =>
    failures.push(
      `${email} ${what}: ${r.status} ${r.body
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .slice(0, 160)}`,
    );
  const buyer = new Jar();
  let ip = nextIp();
  let r = await request('subscribe', pick(copies, n), at('/pricing'), {
    form: { intent: 'subscribe', plan: 'starter' },
    jar: buyer,
    ip,
  });
  if (r.status !== 302 || !/\/checkout\/cs_/.test(r.location)) return (fail('subscribe', r), client);
  count(acked, 'subscribe');
  buyer.take(r.res);
  const checkoutForm = {
    email,
    name: `Client ${n}`,
    company: '',
    cardNumber: '4242 4242 4242 4242',
    expiry: '12/34',
    cvc: '123',
  };
  r = await request('checkout', pick(copies, n + 1), pathOf(r.location), { form: checkoutForm, jar: buyer, ip });
  if (r.status !== 302 || !/\/account\/verify/.test(r.location)) return (fail('checkout', r), client);
  count(acked, 'checkout');
  buyer.take(r.res);
  const confirmation = await waitForCode(copies, email, seen);
  if (!confirmation) return (failures.push(`${email}: no confirmation email`), client);
  // Typed into the copy that did not take the payment; one in three twice at once, into both.
  const twice = n % 3 === 0;
  const answers = await Promise.all(
    (twice ? copies : [pick(copies, n)]).map((copy) =>
      request('confirm', copy, at('/account/verify'), { form: { code: confirmation }, jar: buyer, ip }),
    ),
  );
  const confirmed = answers.find((a) => a.status === 302 && /\/account\/subscription/.test(a.location));
  if (!confirmed) return (fail('confirm', answers[0]), client);
  count(acked, 'confirm');
  client.subscribed = true;

  for (let round = 0; round < 2 && Date.now() < deadline; round++) {
    const device = new Jar();
    ip = nextIp();
    const asked = pick(copies, n + round);
    r = await request('request-code', asked, at('/account'), {
      form: { intent: 'request-code', email },
      jar: device,
      ip,
    });
    if (r.status !== 302) return (fail('request a code', r), client);
    count(acked, 'request-code');
    device.take(r.res);
    const code = await waitForCode(copies, email, seen);
    if (!code) return (failures.push(`${email}: no sign-in email`), client);
    r = await request('verify', pick(copies, n + round + 1), at('/account/verify'), {
      form: { code },
      jar: device,
      ip,
    });
    if (r.status !== 302) return (fail('verify', r), client);
    count(acked, 'verify');
    device.take(r.res);
    // The session works on the copy that did not start it.
    r = await request('page', asked, at('/account/subscription?step=cancel'), { jar: device, ip });
    const csrf = /name="csrf"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="csrf"/.exec(r.body);
    if (r.status !== 200 || !csrf)
      return (failures.push(`${email}: signed in on one copy, not on the other (${r.status})`), client);
    count(acked, 'page');
    client.signIns++;
    // Five steps, then one to five: clients end in every state (the renewals then have changes to apply and ends).
    for (let s = 0; s < (round === 0 ? 5 : 1 + (n % 5)) && Date.now() < deadline; s++) {
      const step = STEPS[client.steps.length % STEPS.length];
      const form = { intent: step.intent, csrf: csrf[1] ?? csrf[2], ...(step.plan ? { plan: step.plan } : {}) };
      const double = client.steps.length % 2 === 1;
      const targets = double ? copies : [pick(copies, n + s)];
      const results = await Promise.all(
        targets.map((copy) => request(step.intent, copy, at('/account/subscription'), { form, jar: device, ip })),
      );
      if (!results.some((a) => a.status === 200 && success(locale, step.intent).test(a.body))) {
        fail(step.intent, results[0]);
        return client;
      }
      for (const a of results)
        if (!(a.status === 200 && success(locale, step.intent).test(a.body)))
          fail(`${step.intent} (the other click)`, a);
      count(acked, step.intent);
      client.steps.push({ intent: step.intent, double, emails: emailsOf(client.state, step.after) });
      client.state = step.after;
    }
  }
  return client;
}

// ------------------------------------------------------------------------------ checks

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
};

async function main() {
  const databaseUrl = await openPostgres();
  console.log(
    `two copies on one PostgreSQL (${new URL(databaseUrl).pathname.slice(1)}): ${SECONDS} s of load, ${WORKERS} clients at a time, jobs every ${INTERVAL} s in each copy`,
  );
  // One copy first, so the migrations and the demo clients are done once; then the second.
  const a = await startCopy('A', PORT, databaseUrl);
  // Why each copy has a folder of its own: a copy on A's folder is refused (the content world's lock).
  const refused = await startCopy('A2', PORT + 2, databaseUrl, 'A').then(
    () => null,
    (error) => /is in use by another process/.exec(String(error)),
  );
  if (!refused) throw new Error("a second copy on copy A's data folder was not refused");
  console.log(
    `a copy started on copy A's data folder exits at once ("[data] … is in use by another process …"): each copy has its own`,
  );
  const b = await startCopy('B', PORT + 1, databaseUrl);
  const copies = [a, b];
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  cleanups.push(() => db.end());

  const loadStarted = Date.now();
  const deadline = loadStarted + SECONDS * 1000;
  const clients = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (Date.now() < deadline && next < MAX_CLIENTS) clients.push(await runClient(copies, next++, deadline));
    }),
  );
  const loadSeconds = (Date.now() - loadStarted) / 1000;

  // The events not yet delivered and the emails still queued go with the next job runs (either copy).
  for (let waited = 0; waited < 30_000; waited += 250) {
    const { rows } = await db.query(
      `select (select count(*) from mail_queue where status in ('pending', 'sending'))
            + (select count(*) from billing_events where delivered_at is null) as n`,
    );
    if (Number(rows[0].n) === 0) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  scanOutboxes(copies);

  const lost = [];
  const doubled = [];
  const q = async (text, params = []) => (await db.query(text, params)).rows;
  const invoiceDuplicates = await q(`select number from billing_invoices group by number having count(*) > 1`);
  for (const d of invoiceDuplicates) doubled.push(`invoice number ${d.number} twice`);
  const mails = await q(`select key_hash, kind, status, to_address from mail_queue`);
  const outboxCopies = new Map();
  for (const m of mail.files.values())
    outboxCopies.set(m.messageId, [...(outboxCopies.get(m.messageId) ?? []), m.copy]);
  for (const [id, where] of outboxCopies)
    if (where.length > 1) doubled.push(`email ${id} sent by ${where.join(' and ')}`);
  for (const m of mails)
    if (m.status === 'sent' && !outboxCopies.has(`<portal.mail.${m.key_hash}@localhost>`))
      lost.push(`${m.kind} email to ${m.to_address}: marked sent, in no outbox`);

  for (const c of clients.filter((x) => x.subscribed)) {
    const customers = await q(`select id from billing_customers where email = $1`, [c.email]);
    const accounts = await q(`select customer_id from accounts where email = $1`, [c.email]);
    if (customers.length !== 1)
      (customers.length ? doubled : lost).push(`${c.email}: ${customers.length} billing customers`);
    if (accounts.length !== 1) (accounts.length ? doubled : lost).push(`${c.email}: ${accounts.length} accounts`);
    if (!customers.length) continue;
    const subs = await q(`select * from billing_subscriptions where customer_id = $1`, [customers[0].id]);
    if (subs.length !== 1) (subs.length ? doubled : lost).push(`${c.email}: ${subs.length} subscriptions`);
    if (!subs.length) continue;
    const sub = subs[0];
    const invoices = await q(`select number, status from billing_invoices where subscription_id = $1`, [sub.id]);
    if (invoices.length !== 1 || invoices[0].status !== 'paid')
      (invoices.length > 1 ? doubled : lost).push(`${c.email}: invoices ${JSON.stringify(invoices)}`);
    const stored = { cancelling: sub.cancel_at_period_end, scheduled: sub.scheduled_plan };
    if (stored.cancelling !== c.state.cancelling || stored.scheduled !== c.state.scheduled)
      lost.push(`${c.email}: stored ${JSON.stringify(stored)}, acknowledged ${JSON.stringify(c.state)}`);
    const updates = await q(
      `select count(*)::int as n, count(delivered_at)::int as delivered from billing_events
        where type = 'customer.subscription.updated' and event->'subscription'->>'id' = $1`,
      [sub.id],
    );
    const steps = c.steps.length;
    if (updates[0].n !== steps)
      (updates[0].n > steps ? doubled : lost).push(`${c.email}: ${updates[0].n} update events for ${steps} steps`);
    if (updates[0].delivered !== updates[0].n)
      lost.push(`${c.email}: ${updates[0].n - updates[0].delivered} events never delivered`);
    for (const kind of EMAIL_KINDS) {
      const expected = c.steps.flatMap((s) => s.emails).filter((k) => k === kind).length;
      const got = mails.filter((m) => m.to_address === c.email && m.kind === kind);
      if (got.length !== expected)
        (got.length > expected ? doubled : lost).push(`${c.email}: ${got.length} ${kind} emails for ${expected} steps`);
      for (const m of got) if (m.status !== 'sent') lost.push(`${c.email}: ${kind} email ${m.status}`);
    }
  }
  const handledTwice = await q(`select event_id from handled_events group by event_id having count(*) > 1`);
  for (const h of handledTwice) doubled.push(`event ${h.event_id} handled twice`);

  // Renewals: the billing clock moves 31 days on; the copies' timers do the rest.
  const due = await q(
    `select id, cancel_at_period_end, scheduled_plan, plan, period_index,
       (select count(*)::int from billing_invoices i where i.subscription_id = s.id) as invoices
       from billing_subscriptions s where status <> 'canceled'`,
  );
  await db.query(
    `insert into billing_clock (id, offset_ms) values (1, $1) on conflict (id) do update set offset_ms = billing_clock.offset_ms + excluded.offset_ms`,
    [31 * 24 * 3600 * 1000],
  );
  const renewStarted = Date.now();
  let pendingRenewals = due.length;
  for (; Date.now() - renewStarted < 60_000 && pendingRenewals > 0;) {
    await new Promise((r) => setTimeout(r, 500));
    const now = await q(`select id, status, period_index from billing_subscriptions where id = any($1)`, [
      due.map((s) => s.id),
    ]);
    const before = new Map(due.map((s) => [s.id, s.period_index]));
    pendingRenewals = now.filter((s) => s.status !== 'canceled' && s.period_index === before.get(s.id)).length;
  }
  const renewSeconds = (Date.now() - renewStarted) / 1000;
  // The runs still going print their reports when they end.
  const open = () =>
    copies.some((c) => c.jobs.filter((j) => j.what === 'ran').length > c.jobs.filter((j) => j.what === 'done').length);
  for (let waited = 0; waited < 20_000 && open(); waited += 100) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 200));
  let renewed = 0;
  let changed = 0;
  let ended = 0;
  for (const s of due) {
    const [now] = await q(`select status, plan, period_index from billing_subscriptions where id = $1`, [s.id]);
    const invoices = await q(`select period_start from billing_invoices where subscription_id = $1`, [s.id]);
    if (s.cancel_at_period_end) {
      if (now.status === 'canceled') ended++;
      else lost.push(`subscription ${s.id}: cancelled, not ended after the period`);
      if (invoices.length !== s.invoices)
        doubled.push(`subscription ${s.id}: ${invoices.length - s.invoices} invoices at its end`);
      continue;
    }
    const periods = now.period_index - s.period_index;
    if (periods !== 1) (periods > 1 ? doubled : lost).push(`subscription ${s.id}: ${periods} periods renewed for one`);
    else renewed++;
    const added = invoices.length - s.invoices;
    if (added !== 1) (added > 1 ? doubled : lost).push(`subscription ${s.id}: ${added} invoices for one renewal`);
    if (s.scheduled_plan) {
      if (now.plan === s.scheduled_plan) changed++;
      else lost.push(`subscription ${s.id}: ${now.plan}, ${s.scheduled_plan} scheduled`);
    }
  }
  for (const d of await q(`select number from billing_invoices group by number having count(*) > 1`))
    if (!invoiceDuplicates.some((x) => x.number === d.number))
      doubled.push(`invoice number ${d.number} twice (renewals)`);
  const reported = { renewed: 0, changed: 0, ended: 0 };
  for (const copy of copies)
    for (const line of copy.log) {
      const m = /^\[portal jobs\] (.*)$/.exec(line);
      if (!m) continue;
      for (const part of m[1].split(', ')) {
        const [k, v] = part.split(' ');
        if (k in reported) reported[k] += Number(v);
      }
    }

  // The jobs, as the probe saw them: runs per copy, overlaps across copies, runs per interval.
  const jobsEnd = Date.now();
  const runs = [];
  for (const copy of copies) {
    const { jobs } = copy;
    for (let i = 0; i < jobs.length; i++)
      if (jobs[i].what === 'ran') {
        const done = jobs.slice(i + 1).find((j) => j.what === 'done');
        // From the lock's grant as the copy received it to the moment it asked for the release:
        // a run that starts before the other's end started before the other had even asked to
        // let go (event-loop delays on a loaded machine move only the edges this leaves out).
        runs.push({
          copy: copy.label,
          start: jobs[i].at,
          end: done?.asked ?? jobsEnd,
          length: (done?.at ?? jobsEnd) - jobs[i].at,
        });
      }
  }
  runs.sort((x, y) => x.start - y.start);
  let overlaps = 0;
  for (let i = 1; i < runs.length; i++) if (runs[i].start < runs[i - 1].end) overlaps++;
  if (overlaps) doubled.push(`${overlaps} job runs overlapped another copy's run`);
  // From the start of the load to the end of the renewals. Once per interval between the two
  // copies: at most one run per interval (one more for the intervals cut at each end), and no
  // run soon after another. The timers claim an interval at least 0.9 of one after the last
  // claim (claimTimerRun, app/portal/jobs.server.ts); a run is seen starting when its copy
  // receives the lock, a round trip or two after its claim, which a loaded machine delays: two
  // runs less than half an interval apart are one interval's jobs run twice.
  const inWindow = runs.filter((r) => r.start >= loadStarted);
  const windowSeconds = (jobsEnd - loadStarted) / 1000;
  const intervals = windowSeconds / INTERVAL;
  if (inWindow.length > Math.ceil(intervals) + 1)
    doubled.push(`${inWindow.length} job runs in ${intervals.toFixed(1)} intervals (the copies together)`);
  let tooClose = 0;
  for (let i = 1; i < inWindow.length; i++) if (inWindow[i].start - inWindow[i - 1].start < INTERVAL * 500) tooClose++;
  if (tooClose)
    doubled.push(`${tooClose} job runs less than half an interval after the one before (the copies together)`);

  // ------------------------------------------------------------------------------ figures
  const kinds = [
    'subscribe',
    'checkout',
    'confirm',
    'request-code',
    'verify',
    'page',
    'change',
    'cancel',
    'resume',
    'withdraw',
  ];
  const total = (t) => Object.values(t).reduce((s, n) => s + n, 0);
  console.log(
    `\nload: ${loadSeconds.toFixed(1)} s, ${clients.length} clients (${clients.filter((c) => c.subscribed).length} subscribed, ${clients.reduce((s, c) => s + c.signIns, 0)} sign-ins on another device, ${clients.reduce((s, c) => s + c.steps.length, 0)} steps, ${clients.reduce((s, c) => s + c.steps.filter((x) => x.double).length, 0)} of them posted to both copies at once)`,
  );
  console.log('requests      sent  acknowledged');
  for (const k of kinds)
    console.log(`${k.padEnd(13)} ${String(sent[k] ?? 0).padStart(4)}  ${String(acked[k] ?? 0).padStart(4)}`);
  console.log(
    `${'all'.padEnd(13)} ${String(total(sent)).padStart(4)}  ${String(total(acked)).padStart(4)}  (a double click sends 2, acknowledged once)`,
  );
  console.log(
    `latency: p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms, max ${percentile(latencies, 100).toFixed(0)} ms over ${latencies.length} answers; ${total(sent) / loadSeconds > 0 ? (latencies.length / loadSeconds).toFixed(1) : 0} requests/s`,
  );
  console.log(
    `emails: ${mails.length} queued, ${mails.filter((m) => m.status === 'sent').length} sent, in the outboxes A ${[...mail.files.values()].filter((m) => m.copy === 'A').length}, B ${[...mail.files.values()].filter((m) => m.copy === 'B').length}`,
  );
  console.log(
    `jobs (a timer every ${INTERVAL} s in each copy; ${windowSeconds.toFixed(1)} s from the load's start to the renewals' end = ${intervals.toFixed(1)} intervals):`,
  );
  for (const copy of copies)
    console.log(
      `  copy ${copy.label}: ${copy.jobs.filter((j) => j.what === 'ran').length} runs, ${copy.jobs.filter((j) => j.what === 'skipped').length} skipped (the other copy was running them)`,
    );
  console.log(
    `  ${inWindow.length} runs in all, ${(inWindow.length / intervals).toFixed(2)} per interval; ${tooClose} less than half an interval after the one before; ${overlaps} overlapping; run length p50 ${percentile(
      runs.map((r) => r.length),
      50,
    )} ms, max ${Math.max(0, ...runs.map((r) => r.length))} ms`,
  );
  console.log(
    `renewals (clock +31 days): ${due.length} subscriptions due, ${renewed} renewed (${changed} to their scheduled plan), ${ended} ended, in ${renewSeconds.toFixed(1)} s; the jobs' logs report renewed ${reported.renewed}, changed ${reported.changed}, ended ${reported.ended}`,
  );
  if (reported.renewed !== renewed || reported.ended !== ended)
    doubled.push(
      `the jobs reported renewed ${reported.renewed}/ended ${reported.ended}, the database shows ${renewed}/${ended}`,
    );
  console.log(`refused or failed answers: ${failures.length}`);
  for (const f of failures.slice(0, 10)) console.log(`  ${f}`);
  console.log(`lost: ${lost.length}`);
  for (const l of lost.slice(0, 20)) console.log(`  ${l}`);
  console.log(`doubled: ${doubled.length}`);
  for (const d of doubled.slice(0, 20)) console.log(`  ${d}`);
  return lost.length + doubled.length === 0 && failures.length === 0;
}

let ok = false;
try {
  ok = await main();
} catch (error) {
  console.error(error);
} finally {
  await cleanUp();
}
process.exit(ok ? 0 : 1);
