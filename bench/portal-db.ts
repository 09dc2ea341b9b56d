/**
 * The portal's sign-in on the database (issue 27, item 9), measured:
 *   npx vite-node --config vitest.config.ts bench/portal-db.ts [--rows N] [--signins N] [--postgres]
 * - the statements one sign-in sends (asking for a code, then typing it), counted by the driver's log;
 * - with N rows (default 1,000,000) in each of the largest tables (accounts, sessions,
 *   signin_codes, rate_limits, mail_queue): sign-in latency p50/p95 over --signins sign-ins
 *   (default 200; each: ask for a code, then type it), and, on PGlite, the time to open the
 *   data folder again (a server start's database part: open, migrations checked, imports done).
 * `--postgres` runs on TEST_DATABASE_URL (a new database, dropped at the end) instead of a PGlite
 * folder. Bounded: the row count and the sign-ins are fixed; nothing listens on the network.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '~/db/client.server';
import { createPostgresDatabase, installDatabase } from '~/db/test-support';
import type { Database } from '~/db/types.server';
import { ensureAccount } from '~/portal/accounts.server';
import { derivedCode, pseudonym } from '~/portal/crypto.server';
import { requestCode, verifyCode } from '~/portal/signin.server';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ROWS = arg('rows', 1_000_000);
const SIGNINS = arg('signins', 200);
const POSTGRES = process.argv.includes('--postgres');
process.env.SESSION_SECRET ??= 'bench-portal-db-session-secret-0123456789';
// Mail is queued but never sent here: no mailer runs, nothing leaves the process.
process.env.OUTBOX_DIR ??= path.join(tmpdir(), 'bench-portal-db-outbox');

let statements: string[] = [];
const logQuery = (query: string) => void statements.push(query);
const dir = mkdtempSync(path.join(tmpdir(), 'bench-portal-db-'));
const cleanup: { dropPostgres?: () => Promise<void> } = {};

async function open(): Promise<Database> {
  if (POSTGRES) {
    const created = await createPostgresDatabase();
    cleanup.dropPostgres = created.drop;
    return openDatabase({ kind: 'postgres', url: created.url, logQuery });
  }
  return openDatabase({ kind: 'pglite', dataDir: dir, logQuery });
}

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};
let n = 0;
/** One sign-in as a browser does it: ask for a code, then type it; returns the statements each step sent. */
async function signIn(i: number, count = false) {
  const email = `bench${i}@example.com`;
  const ip = `203.0.${(++n >> 8) & 255}.${n & 255}`;
  statements = [];
  const started = performance.now();
  const asked = await requestCode(
    new Request('https://site.example/account', { method: 'POST', headers: { 'x-bawaba-client-ip': ip } }),
    form({ email }),
    'en',
  );
  const askStatements = statements.length;
  // The email goes out off the request path: when counting, let it finish and count it apart.
  if (count) await mailSettled();
  const mailStatements = statements.length - askStatements;
  if (asked.status !== 'sent') throw new Error(`ask: ${asked.status}`);
  const cookie = asked.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  // The code the email would carry: this address's newest row, found by the index the app uses
  // (its keyed subject), and not timed: the user's time is asking plus typing.
  const asking = performance.now() - started;
  const [row] = (
    await (
      await database()
    ).db.execute<{ id: string }>(
      sql`select id from signin_codes where subject = ${pseudonym('code-address', email)} order by created_at desc limit 1`,
    )
  ).rows;
  statements = [];
  const typing = performance.now();
  const verified = await verifyCode(
    new Request('https://site.example/account/verify', {
      method: 'POST',
      headers: { 'x-bawaba-client-ip': ip, Cookie: cookie },
    }),
    form({ code: derivedCode(row!.id) }),
    'en',
  );
  if (verified.status !== 'signed-in') throw new Error(`verify: ${verified.status}`);
  return {
    ask: askStatements,
    mail: mailStatements,
    verify: statements.length,
    ms: asking + (performance.now() - typing),
  };
}

/** Waits (at most 10 s) until no email is being sent: the sender has recorded every outcome. */
async function mailSettled() {
  for (let i = 0; i < 200; i++) {
    const logged = statements.length;
    const [row] = (
      await current!.db.execute<{ n: number }>(sql`select count(*)::int as n from mail_queue where status = 'sending'`)
    ).rows;
    statements.length = logged; // the bench's own look is not the sign-in's cost
    if (!row?.n) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the sign-in emails were not sent within 10 s');
}

let current: Database | undefined;
const database = async () => current!;

/** N rows in each of the largest tables, made by the database itself (generate_series). */
async function fill(database: Database['db'], rows: number) {
  const t0 = Date.now();
  // One transaction without the pool's statement timeout (a safety limit for requests, not for this).
  await database.transaction(async (db) => {
    if (POSTGRES) await db.execute(sql`set local statement_timeout = 0`);
    await db.execute(sql`insert into accounts (customer_id, email, name, locale)
    select 'cus_fill' || g, 'fill' || g || '@example.com', 'Fill ' || g, 'en' from generate_series(1, ${rows}) g`);
    await db.execute(sql`insert into sessions (id_hash, customer_id, expires_at)
    select md5('s' || g), 'cus_fill' || g, now() + interval '30 days' from generate_series(1, ${rows}) g`);
    await db.execute(sql`insert into signin_codes (id, subject, requester, customer_id, tries_left, next, locale, expires_at)
    select 'fill' || g, md5('subject' || g), md5('req' || g), 'cus_fill' || g, 5, '/account', 'en', now() + interval '10 minutes'
    from generate_series(1, ${rows}) g`);
    await db.execute(sql`insert into rate_limits (kind, subject, window_start, count, expires_at)
    select 'signin-ip', md5('ip' || g), now(), 1, now() + interval '1 hour' from generate_series(1, ${rows}) g`);
    await db.execute(sql`insert into mail_queue (key_hash, to_address, kind, message, status, next_attempt_at, sent_at)
    select substr(md5('m' || g) || md5('n' || g), 1, 40), 'fill' || g || '@example.com', 'cancellation', null, 'sent', now(), now()
    from generate_series(1, ${rows}) g`);
  });
  await database.execute(sql`analyze`);
  return Date.now() - t0;
}

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const ms = (v: number) => `${v.toFixed(1)} ms`;

try {
  current = await open();
  installDatabase(current);
  // One client per sign-in (one address receives at most 30 codes an hour).
  for (let i = 0; i <= SIGNINS; i++)
    await ensureAccount({
      customerId: `cus_bench${i}`,
      email: `bench${i}@example.com`,
      name: 'Bench',
      company: null,
      locale: 'en',
    });
  const empty = await signIn(0, true);
  console.log(`engine: ${POSTGRES ? 'PostgreSQL (TEST_DATABASE_URL)' : 'PGlite (a data folder)'}`);
  console.log(
    `statements per sign-in: ${empty.ask + empty.verify + empty.mail} in all (target <= 6): ${empty.ask + empty.verify} ` +
      `on the request path (asking for a code ${empty.ask}, typing it ${empty.verify}) and ${empty.mail} off it to send ` +
      'the email; before: about 20 Content Lake requests (9 of them mutations) on the content store, then 7 on the request path and 3 to send ' +
      'on the database, before the limits, the email and the session were folded into single statements',
  );
  console.log(`filling ${ROWS.toLocaleString('en')} rows into each of 5 tables…`);
  console.log(`filled in ${((await fill(current.db, ROWS)) / 1000).toFixed(1)} s`);
  const times: number[] = [];
  for (let i = 1; i <= SIGNINS; i++) {
    times.push((await signIn(i)).ms);
  }
  console.log(
    `sign-in with ${ROWS.toLocaleString('en')} rows a table (${SIGNINS} sign-ins): p50 ${ms(pct(times, 50))}, ` +
      `p95 ${ms(pct(times, 95))}, max ${ms(Math.max(...times))} (target p95 <= 50 ms)`,
  );
  await mailSettled();
  if (!POSTGRES) {
    await current.close();
    const t0 = performance.now();
    current = await openDatabase({ kind: 'pglite', dataDir: dir });
    console.log(`start-up (open the data folder again): ${ms(performance.now() - t0)} (target <= 2 s)`);
  }
} finally {
  installDatabase(undefined);
  await current?.close();
  await cleanup.dropPostgres?.();
  rmSync(dir, { recursive: true, force: true });
}
