import { createHash } from 'node:crypto';
import { appendFileSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFormToken } from '../../app/features/forms/spam-check';
import { faqQuestionSchema, newsletterSchema } from '../../app/features/forms/validation';
import { databaseUrl, freshDatabase, rows } from './db.mjs';
import { kill, startOwnServer, type OwnServer } from './own-server';

/**
 * Abuse of the public forms (FAQ question, newsletter), against production servers this file
 * starts itself (own data folder under .cache/e2e/abuse-*, a free port in 3800-3899, loopback):
 * generated junk, bursts, one address at once, one IP's limits, a crash mid-burst, forged and
 * reused tokens, oversized and trickling bodies. Every case has its own time budget. The servers
 * trust one proxy (TRUST_PROXY=1), so a test names each sender's IP in X-Forwarded-For: cases
 * whose point is not the per-IP limits send from many IPs, as many visitors would.
 */
// One worker, in order: each case starts its own server and they share a 2-core machine.
test.describe.configure({ mode: 'default' });

const WRITES = 'content-writes.ndjson';
const EN = JSON.parse(readFileSync('public/locales/en/forms.json', 'utf8'));
const AR = JSON.parse(readFileSync('public/locales/ar/forms.json', 'utf8'));
/** The English error messages a visitor could be shown (top-level strings and the newsletter's). */
const ENGLISH_ERRORS: string[] = [
  ...Object.entries(EN)
    .filter(([k, v]) => typeof v === 'string' && k !== 'honeypotLabel')
    .map(([, v]) => v as string),
  EN.newsletter.errorTitle,
  EN.newsletter.error,
];
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufeff]/;

type Server = OwnServer & { port: number; dir: string; databaseUrl: string };
const running = new Set<Server>();
const usedPorts = new Set<number>();

async function freePort(): Promise<number> {
  for (let port = 3800; port < 3900; port++) {
    if (usedPorts.has(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer().once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) {
      usedPorts.add(port);
      return port;
    }
  }
  throw new Error('no free port in 3800-3899');
}

async function startServer(
  dir: string,
  { fresh = true, env = {} as Record<string, string>, port = 0 } = {},
): Promise<Server> {
  if (fresh) rmSync(dir, { recursive: true, force: true });
  // The submissions go to a database of this server's own on the test PostgreSQL, kept across a restart.
  const database = `e2e_${path.basename(dir).replace(/[^a-z0-9]/g, '_')}_${process.env.E2E_PORT ?? 3210}`;
  const url = fresh ? await freshDatabase(database) : databaseUrl(database);
  const p = port || (await freePort());
  const own = await startOwnServer(p, dir, {
    NODE_ENV: 'production',
    SITE_URL: 'https://www.bawaba-advisory.com',
    DATABASE_URL: url,
    TRUST_PROXY: '1',
    ...env,
  });
  const server: Server = { ...own, port: p, dir, databaseUrl: url };
  running.add(server);
  return server;
}

async function stopServer(server: Server, signal: NodeJS.Signals = 'SIGTERM') {
  await kill(server, signal);
  running.delete(server);
}

test.afterAll(async () => {
  for (const server of [...running]) await stopServer(server, 'SIGKILL');
});

const secretOf = (server: Server) => readFileSync(path.join(server.dir, 'session-secret'), 'utf8').trim();
/** Tokens start 10 s before this file loaded, each a millisecond earlier than the last: all distinct, all old enough. */
const TOKEN_BASE = Date.now() - 10_000;
let tokenSeq = 0;
const nextStart = () => TOKEN_BASE - tokenSeq++;
/** A token as the server would issue it (signed with the secret in its data folder). */
const tokenFor = (server: Server, startedAt = nextStart()) => createFormToken(startedAt, secretOf(server));

/** Every stored submission in the server's database (FAQ questions and newsletter sign-ups), read while it runs. */
async function storedDocs(server: Server): Promise<{ docs: Record<string, unknown>[] }> {
  const questions = await rows(
    server.databaseUrl,
    `select 'faqQuestion' as "_type", id::text as "_id", name, email, phone, question, locale, page from faq_questions`,
  );
  const signups = await rows(
    server.databaseUrl,
    `select 'newsletterSignup' as "_type", id::text as "_id", email, locale, page from newsletter_signups`,
  );
  return { docs: [...questions, ...signups] };
}

const faqBody = (token: string, fields: Record<string, string>) =>
  new URLSearchParams({ hp_leave_empty: '', form_started: token, ...fields });
const QUESTION = {
  name: 'Layla Haddad',
  phone: '+971 50 123 4567',
  question: 'How long does a mainland licence take?',
};

let ipSeq = 0;
/** A sender's address of its own (documentation ranges), for the servers' X-Forwarded-For. */
const nextIp = () => `10.${(++ipSeq >> 16) & 255}.${(ipSeq >> 8) & 255}.${ipSeq & 255}`;
const from = (ip?: string): Record<string, string> => (ip ? { 'X-Forwarded-For': ip } : {});

async function postFaq(server: Server, lang: 'en' | 'ar', body: URLSearchParams, ip?: string) {
  const res = await fetch(`${server.base}${lang === 'ar' ? '/ar/faq' : '/faq'}`, {
    method: 'POST',
    body,
    headers: from(ip),
    redirect: 'manual',
  });
  return { status: res.status, text: await res.text() };
}

async function postNewsletter(
  server: Server,
  token: string,
  email: string,
  lang: 'en' | 'ar' = 'en',
  ip?: string,
  js = true,
) {
  const body = new URLSearchParams({
    hp_leave_empty: '',
    form_started: token,
    email,
    return_to: lang === 'ar' ? '/ar/about' : '/about',
    form_id: 'footer',
    ...(js ? { _js: '1' } : {}),
  });
  const res = await fetch(`${server.base}/api/newsletter`, {
    method: 'POST',
    body,
    headers: from(ip),
    redirect: 'manual',
  });
  return { status: res.status, text: await res.text(), location: res.headers.get('location') };
}

/** The notification emails the server wrote to its outbox (none yet: no folder). */
/**
 * The firm's notification emails in the outbox: a newsletter sign-up also emails its own address
 * a confirmation link (every address these tests submit is @example.com), which is not one.
 */
function outboxMails(server: Server): string[] {
  try {
    const dir = path.join(server.dir, 'outbox');
    return readdirSync(dir).filter(
      (f) =>
        f.endsWith('.json') &&
        !(JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { to: string }).to.endsWith('@example.com'),
    );
  } catch {
    return [];
  }
}

const submitted = (r: { status: number; text: string }) =>
  r.status === 200 &&
  (r.text.includes(EN.faq.submittedTitle) || r.text.includes(AR.faq.submittedTitle) || r.text.includes('"subscribed"'));

/** Runs tasks with at most `limit` in flight. */
async function pool<T>(items: T[], limit: number, run: (item: T, i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        await run(items[i]!, i);
      }
    }),
  );
}

// ---------------------------------------------------------------- generated junk

/** A small seeded generator, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `arabic`: the server can tell the page is Arabic (the URL, or the newsletter's intact return_to / Referer); null: it cannot. */
type Case = {
  arabic: boolean | null;
  url: string;
  init: RequestInit & { headers: Record<string, string> };
  json: boolean;
  label: string;
};

function junkString(r: () => number, maxLen: number): string {
  const pools = [
    'abcdefghijklmnopqrstuvwxyz ABCDEFG 0123456789',
    'مرحبا بكم في بوابة للاستشارات سؤال عن الرخصة ٠١٢٣٤٥٦٧٨٩',
    '\u0000\u0001\u0007\u0008\u000b\u000c\u001b\u007f\u0085\u009b\r\n\t',
    '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff\u200f\u200e',
    '<script>alert(1)</script>"\'`;--{}[]%00%0d%0a\\',
    '😀🇦🇪𝕏\ud800\udfff',
  ];
  const len = r() < 0.05 ? Math.floor(r() * maxLen) : Math.floor(r() * 80);
  let out = '';
  while (out.length < len) {
    const p = pools[Math.floor(r() * pools.length)]!;
    out += p.slice(Math.floor(r() * p.length), Math.floor(r() * p.length) + 1 + Math.floor(r() * 8));
  }
  return out.slice(0, len);
}

function junkCase(r: () => number, token: () => string, i: number): Case {
  const lang = r() < 0.5 ? 'ar' : 'en';
  const faq = r() < 0.5;
  const url = faq ? (lang === 'ar' ? '/ar/faq' : '/faq') : '/api/newsletter';
  const js = !faq && r() < 0.6;
  // Start from a plausible submission, then break it.
  const fields: [string, string][] = faq
    ? [
        ['name', r() < 0.5 ? 'Ann Lee' : 'ليلى حداد'],
        ['email', `fuzz${i}@example.com`],
        ['phone', r() < 0.5 ? '+971 50 123 4567' : '+٩٧١ ٥٠ ١٢٣ ٤٥٦٧'],
        ['question', 'What does a licence cost?'],
      ]
    : [
        ['email', `fuzz${i}@example.com`],
        ['return_to', lang === 'ar' ? '/ar/about' : '/about'],
        ['form_id', 'footer'],
      ];
  fields.push(
    ['hp_leave_empty', r() < 0.05 ? 'http://spam.example' : ''],
    ['form_started', r() < 0.1 ? `${Date.now()}.forged${'A'.repeat(40)}` : token()],
  );
  if (js) fields.push(['_js', '1']);
  const mutations = 1 + Math.floor(r() * 3);
  for (let m = 0; m < mutations; m++) {
    const which = Math.floor(r() * fields.length);
    const roll = r();
    if (roll < 0.45) fields[which]![1] = junkString(r, 20_000);
    else if (roll < 0.6) fields[which]![1] = fields[which]![1] + junkString(r, 200);
    else if (roll < 0.7) fields.splice(which, 1);
    else if (roll < 0.8) fields.push([fields[which]![0], junkString(r, 100)]);
    else if (roll < 0.9) fields.push([junkString(r, 30), junkString(r, 100)]);
    else fields[which]![1] = '';
  }
  const headers: Record<string, string> = {};
  const referer = r() < 0.3;
  if (referer) headers.Referer = `https://www.bawaba-advisory.com${lang === 'ar' ? '/ar/blog' : '/blog'}`;
  let body: BodyInit;
  const kind = r();
  let label: string;
  if (kind < 0.55) {
    label = 'urlencoded';
    body = new URLSearchParams(fields);
  } else if (kind < 0.75) {
    label = 'multipart';
    const fd = new FormData();
    for (const [k, v] of fields) {
      if (r() < 0.1) fd.append(k, new Blob([v], { type: 'application/octet-stream' }), 'x.bin');
      else fd.append(k, v);
    }
    body = fd;
  } else if (kind < 0.83) {
    label = 'json';
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(Object.fromEntries(fields));
  } else if (kind < 0.88) {
    label = 'text/plain';
    headers['Content-Type'] = 'text/plain;charset=UTF-8';
    body = fields.map(([k, v]) => `${k}=${v}`).join('\r\n');
  } else if (kind < 0.94) {
    label = 'broken multipart';
    headers['Content-Type'] = r() < 0.5 ? 'multipart/form-data; boundary=XyZ' : 'multipart/form-data';
    body = `--XyZ\r\nContent-Disposition: form-data; name="email"\r\n\r\n${junkString(r, 100)}\r\n--Xy`;
  } else {
    label = 'odd type';
    headers['Content-Type'] = [
      'application/xml',
      'image/png',
      'application/x-www-form-urlencoded; charset=utf-16',
      '*/*',
      '',
    ][Math.floor(r() * 5)]!;
    body = new URLSearchParams(fields).toString();
  }
  // The newsletter knows the page from its return_to (the first one; JSON keeps the last), else the Referer.
  const returns = label === 'broken multipart' ? [] : fields.filter(([k]) => k === 'return_to').map(([, v]) => v);
  const returnTo = label === 'json' ? returns.at(-1) : returns[0];
  const arabic = faq
    ? lang === 'ar'
    : returnTo === '/ar/about'
      ? true
      : returnTo === undefined && referer
        ? lang === 'ar'
        : null;
  return { arabic, url, init: { method: 'POST', body, headers, redirect: 'manual' }, json: js, label };
}

test('fuzz: 1,000 generated inputs over both forms and languages: no 5xx, nothing invalid stored, refusals localized, no error logs', async () => {
  test.setTimeout(120_000);
  const server = await startServer('.cache/e2e/abuse-fuzz');
  const secret = secretOf(server);
  const tokens: string[] = [];
  for (let i = 0; i < 1000; i++) tokens.push(await createFormToken(nextStart(), secret));
  const r = rng(20261123);
  let t = 0;
  const cases = Array.from({ length: 1000 }, (_, i) => junkCase(r, () => tokens[t++ % tokens.length]!, i));
  const problems: string[] = [];
  const statuses = new Map<number, number>();
  const started = Date.now();
  await pool(cases, 8, async (c, i) => {
    // Each generated request from a sender of its own: the per-IP limits are not this test's point.
    const res = await fetch(`${server.base}${c.url}`, { ...c.init, headers: { ...c.init.headers, ...from(nextIp()) } });
    const text = await res.text();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    if (res.status >= 500) problems.push(`#${i} ${c.label} ${c.url}: ${res.status} ${text.slice(0, 200)}`);
    if (c.arabic && res.status >= 400) {
      const english = ENGLISH_ERRORS.find((m) => text.includes(m));
      if (english) problems.push(`#${i} ${c.label} ${c.url}: Arabic page answered "${english}"`);
    }
    if (c.json && res.status >= 400 && res.headers.get('content-type')?.includes('json')) {
      const body = JSON.parse(text);
      if (
        Object.keys(body).sort().join() !== 'formError,status,token' ||
        Object.keys(body.formError).sort().join() !== 'messageKey,titleKey'
      )
        problems.push(`#${i}: JSON refusal shape ${text}`);
    }
  });
  const elapsed = Date.now() - started;
  expect(problems, problems.slice(0, 10).join('\n')).toEqual([]);
  expect(elapsed).toBeLessThan(90_000);

  const { docs } = await storedDocs(server);
  // Some generated inputs were valid: the check below is not vacuous.
  expect(docs.length).toBeGreaterThan(10);
  for (const doc of docs) {
    if (doc._type === 'faqQuestion') {
      const parsed = faqQuestionSchema.safeParse({
        name: doc.name,
        email: doc.email,
        phone: doc.phone,
        question: doc.question,
      });
      expect(parsed.success, JSON.stringify(doc)).toBe(true);
      for (const f of ['name', 'email', 'phone'] as const)
        expect(String(doc[f]), `${f} of ${doc._id}`).not.toMatch(UNSAFE);
    } else {
      expect(newsletterSchema.safeParse({ email: doc.email }).success, JSON.stringify(doc)).toBe(true);
      expect(String(doc.email)).not.toMatch(UNSAFE);
    }
  }
  // Expected refusals are answers, not faults: nothing written as an error.
  const log = server.output.join('');
  expect(log).not.toMatch(/ErrorResponse|Unexpected Server Error|^\s+at /m);
  console.log(
    `fuzz: 1000 requests in ${elapsed} ms, statuses ${JSON.stringify(Object.fromEntries(statuses))}, ${docs.length} stored`,
  );
  await stopServer(server);
});

// ---------------------------------------------------------------- bursts

test('300 concurrent valid submissions (distinct addresses and IPs): all stored exactly once; the firm is emailed once for each', async () => {
  test.setTimeout(90_000);
  const server = await startServer('.cache/e2e/abuse-burst');
  const started = Date.now();
  const results = await Promise.all(
    Array.from({ length: 300 }, async (_, i) => {
      const email = `burst${i}@example.com`;
      const token = await tokenFor(server);
      const ip = nextIp();
      const res =
        i % 2
          ? await postFaq(server, i % 4 === 1 ? 'ar' : 'en', faqBody(token, { ...QUESTION, email }), ip)
          : await postNewsletter(server, token, email, 'en', ip);
      return { email, ok: submitted(res), status: res.status };
    }),
  );
  const elapsed = Date.now() - started;
  expect(results.filter((r) => !r.ok).map((r) => `${r.email}: ${r.status}`)).toEqual([]);
  const { docs } = await storedDocs(server);
  const byEmail = new Map<string, number>();
  for (const d of docs) byEmail.set(String(d.email), (byEmail.get(String(d.email)) ?? 0) + 1);
  for (const r of results) expect(byEmail.get(r.email), r.email).toBe(1);
  expect(docs).toHaveLength(300);
  // Each sender is under the per-IP notification limit: one email to the firm per submission.
  await expect.poll(() => outboxMails(server).length, { timeout: 15_000 }).toBe(300);
  expect(elapsed).toBeLessThan(60_000);
  console.log(`burst: 300 submissions in ${elapsed} ms, ${outboxMails(server).length} notification emails`);
  await stopServer(server);
});

test('50 concurrent questions from one address (each from another IP): exactly 5 stored, the rest refused with 429', async () => {
  test.setTimeout(60_000);
  const server = await startServer('.cache/e2e/abuse-one-address');
  const email = 'same.person@example.com';
  const started = Date.now();
  const results = await Promise.all(
    Array.from({ length: 50 }, async (_, i) =>
      postFaq(
        server,
        'en',
        faqBody(await tokenFor(server), { ...QUESTION, email, question: `Question number ${i}` }),
        nextIp(),
      ),
    ),
  );
  expect(results.filter(submitted)).toHaveLength(5);
  expect(results.filter((r) => r.status === 429)).toHaveLength(45);
  expect((await storedDocs(server)).docs.filter((d) => d.email === email)).toHaveLength(5);
  expect(Date.now() - started).toBeLessThan(30_000);
  await stopServer(server);
});

test("one IP's limits on storing: 20 questions, 20 sign-ups and 20 checkouts an hour, then a localized 429 and nothing stored, in both languages; other IPs go on", async () => {
  test.setTimeout(120_000);
  const server = await startServer('.cache/e2e/abuse-one-ip', { env: { BILLING: 'demo' } });
  const flood = nextIp();
  const other = nextIp();
  const started = Date.now();

  // FAQ: 40 valid questions at once from one IP, each from its own address, in both languages.
  const faq = await Promise.all(
    Array.from({ length: 40 }, async (_, i) =>
      postFaq(
        server,
        i % 2 ? 'ar' : 'en',
        faqBody(await tokenFor(server), { ...QUESTION, email: `one-ip-${i}@example.com` }),
        flood,
      ),
    ),
  );
  expect(faq.filter(submitted)).toHaveLength(20);
  expect(faq.filter((r) => r.status === 429)).toHaveLength(20);
  for (const lang of ['en', 'ar'] as const) {
    const refused = await postFaq(
      server,
      lang,
      faqBody(await tokenFor(server), { ...QUESTION, email: `one-ip-late-${lang}@example.com` }),
      flood,
    );
    expect(refused.status).toBe(429);
    expect(refused.text).toContain((lang === 'ar' ? AR : EN).spamRateLimited);
    if (lang === 'ar') expect(refused.text).not.toContain(EN.spamRateLimited);
  }
  const questions = async () =>
    (await storedDocs(server)).docs.filter((d) => d._type === 'faqQuestion' && String(d.email).startsWith('one-ip-'));
  expect(await questions()).toHaveLength(20);

  // Newsletter: 40 sign-ups at once from the same IP (the form with JavaScript: JSON answers).
  const signups = await Promise.all(
    Array.from({ length: 40 }, async (_, i) =>
      postNewsletter(server, await tokenFor(server), `list-${i}@example.com`, i % 2 ? 'ar' : 'en', flood),
    ),
  );
  expect(signups.filter(submitted)).toHaveLength(20);
  const refusedSignups = signups.filter((r) => r.status === 429);
  expect(refusedSignups).toHaveLength(20);
  for (const r of refusedSignups)
    expect(JSON.parse(r.text)).toEqual({
      status: 'rejected',
      formError: { titleKey: 'forms:spamTitle', messageKey: 'forms:spamRateLimited' },
      token: expect.any(String),
    });
  // Without JavaScript: back to the page, which says why in its language.
  for (const lang of ['en', 'ar'] as const) {
    const plain = await postNewsletter(
      server,
      await tokenFor(server),
      `list-plain-${lang}@example.com`,
      lang,
      flood,
      false,
    );
    expect(plain.status).toBe(303);
    expect(plain.location).toMatch(new RegExp(`^${lang === 'ar' ? '/ar' : ''}/about\\?newsletter=rateLimited&`));
    const page = await (await fetch(`${server.base}${plain.location}`)).text();
    expect(page).toContain((lang === 'ar' ? AR : EN).spamRateLimited);
    if (lang === 'ar') expect(page).not.toContain(EN.spamRateLimited);
  }
  const lists = async () =>
    (await storedDocs(server)).docs.filter(
      (d) => d._type === 'newsletterSignup' && String(d.email).startsWith('list-'),
    );
  expect(await lists()).toHaveLength(20);
  // 40 submissions stored from one IP, 20 emails to the firm (its own per-IP limit on notifications).
  await expect.poll(() => outboxMails(server).length, { timeout: 10_000 }).toBe(20);

  // Checkouts: Subscribe posted 30 times at once from the same IP, in both languages.
  const subscribe = (lang: 'en' | 'ar', ip: string) =>
    fetch(`${server.base}${lang === 'ar' ? '/ar/pricing' : '/pricing'}`, {
      method: 'POST',
      body: new URLSearchParams({ intent: 'subscribe', plan: 'starter' }),
      headers: from(ip),
      redirect: 'manual',
    });
  const starts = await Promise.all(
    Array.from({ length: 30 }, (_, i) => subscribe(i % 2 ? 'ar' : 'en', flood).then((r) => r.status)),
  );
  expect(starts.filter((s) => s === 302)).toHaveLength(20);
  expect(starts.filter((s) => s === 429)).toHaveLength(10);
  for (const lang of ['en', 'ar'] as const) {
    const refused = await subscribe(lang, flood);
    expect(refused.status).toBe(429);
    const text = await refused.text();
    expect(text).toContain((lang === 'ar' ? AR : EN).spamRateLimited);
    if (lang === 'ar') expect(text).not.toContain(EN.spamRateLimited);
  }
  const checkouts = async () =>
    Number((await rows(server.databaseUrl, 'select count(*)::int as n from billing_checkouts'))[0]!.n);
  expect(await checkouts()).toBe(20);
  const elapsed = Date.now() - started;

  // Another visitor is not held up by that one.
  expect(
    submitted(
      await postFaq(
        server,
        'ar',
        faqBody(await tokenFor(server), { ...QUESTION, email: 'neighbour@example.com' }),
        other,
      ),
    ),
  ).toBe(true);
  expect(submitted(await postNewsletter(server, await tokenFor(server), 'neighbour@example.com', 'en', other))).toBe(
    true,
  );
  const theirs = await subscribe('en', other);
  expect(theirs.status).toBe(302);
  expect(theirs.headers.get('location')).toMatch(/\/checkout\/cs_[A-Za-z0-9]+$/);
  expect(await checkouts()).toBe(21);
  const log = server.output.join('');
  expect(log).not.toMatch(/Unexpected Server Error|^\s+at /m);
  console.log(`one IP: 40 questions, 40 sign-ups and 30 checkouts sent at once in ${elapsed} ms: 20, 20 and 20 stored`);
  await stopServer(server);
});

test('kill -9 during a burst of 200: every acknowledged submission survives a restart; a torn last line of the write log is skipped and reported', async () => {
  test.setTimeout(90_000);
  const dir = '.cache/e2e/abuse-crash';
  const server = await startServer(dir);
  const secret = secretOf(server);
  const acknowledged: string[] = [];
  let killed = false;
  const burst = Array.from({ length: 200 }, async (_, i) => {
    const email = `crash${i}@example.com`;
    const token = await createFormToken(nextStart(), secret);
    const ip = nextIp();
    try {
      const res =
        i % 2
          ? await postFaq(server, 'en', faqBody(token, { ...QUESTION, email }), ip)
          : await postNewsletter(server, token, email, 'en', ip);
      if (submitted(res)) acknowledged.push(email);
    } catch {
      // the connection died with the server
    }
    if (!killed && acknowledged.length >= 40) {
      killed = true;
      process.kill(server.child.pid!, 'SIGKILL');
    }
  });
  await Promise.all(burst);
  await stopServer(server, 'SIGKILL');
  expect(acknowledged.length).toBeGreaterThanOrEqual(40);
  // As if the crash had cut a write in half.
  appendFileSync(path.join(dir, WRITES), '{"_id":"submission.faqQuestion.torn","_type":"faqQuestion","name":"Half');

  const again = await startServer(dir, { fresh: false });
  // The restarted server answers, took the log in and said what it skipped.
  await expect.poll(() => again.output.join(''), { timeout: 10_000 }).toMatch(/skipped an incomplete line/);
  const stored = new Set((await storedDocs(again)).docs.map((d) => String(d.email)));
  expect(acknowledged.filter((e) => !stored.has(e))).toEqual([]);
  // Every record written after the torn line loads cleanly on the next start (none is glued onto it).
  const afterToken = await tokenFor(again);
  const after = await postNewsletter(again, afterToken, 'after.crash@example.com');
  expect(submitted(after)).toBe(true);
  await stopServer(again);
  const third = await startServer(dir, { fresh: false, port: again.port });
  const latest = (await storedDocs(third)).docs.map((d) => String(d.email));
  expect(latest).toContain('after.crash@example.com');
  // The token that carried it is recorded in the database (by its hash), and the write log the
  // crash had torn is whole again: the torn line was cut off, every line left is whole JSON.
  const tokenHash = createHash('sha256').update(afterToken).digest('hex').slice(0, 40);
  expect(await rows(third.databaseUrl, 'select form from form_tokens where token_hash = $1', [tokenHash])).toEqual([
    { form: 'newsletter' },
  ]);
  const log = readFileSync(path.join(dir, WRITES), 'utf8');
  expect(log.endsWith('\n') || log === '').toBe(true);
  for (const line of log.split('\n').filter(Boolean)) expect(() => JSON.parse(line), line.slice(0, 80)).not.toThrow();
  expect(third.output.join('')).not.toMatch(/^\s+at /m);
  await stopServer(third);
});

// ---------------------------------------------------------------- tokens

test('forged, expired and reused tokens are refused; a retried identical submission is one success', async () => {
  test.setTimeout(60_000);
  const server = await startServer('.cache/e2e/abuse-tokens');
  const secret = secretOf(server);
  const ago = Date.now() - 10_000;
  const forged = [
    ['the old built-in secret', await createFormToken(ago, 'local-development-secret-change-me')],
    ['a wrong secret', await createFormToken(ago, 'x'.repeat(48))],
    ['dated 1970', await createFormToken(1000, secret)],
    ['older than two hours', await createFormToken(Date.now() - 2 * 3600_000 - 60_000, secret)],
    ['from the future', await createFormToken(Date.now() + 60_000, secret)],
  ] as const;
  for (const [label, token] of forged) {
    for (const lang of ['en', 'ar'] as const) {
      const r = await postFaq(server, lang, faqBody(token, { ...QUESTION, email: `forged-${lang}@example.com` }));
      expect(r.status, label).toBe(400);
      expect(r.text, label).toContain((lang === 'ar' ? AR : EN).spamExpired);
    }
    const n = await postNewsletter(server, token, 'forged@example.com', 'ar');
    expect(n.status, label).toBe(400);
    // The refusal carries a fresh token for the next try (pages carry none), never the refused one.
    const refused = JSON.parse(n.text);
    expect(refused, label).toEqual({
      status: 'rejected',
      formError: { titleKey: 'forms:spamTitle', messageKey: 'forms:spamExpired' },
      token: expect.any(String),
    });
    expect(refused.token, label).not.toBe(token);
  }
  expect((await storedDocs(server)).docs).toHaveLength(0);

  // One genuine token: the submission, its retry (the answer was lost), then other content.
  const token = await createFormToken(ago, secret);
  const body = faqBody(token, { ...QUESTION, email: 'retry@example.com' });
  const first = await postFaq(server, 'ar', body);
  const retry = await postFaq(server, 'ar', body);
  expect(first.status).toBe(200);
  expect(first.text).toContain(AR.faq.submittedTitle);
  expect(retry.status).toBe(200);
  expect(retry.text).toContain(AR.faq.submittedTitle);
  const reused = await postFaq(
    server,
    'ar',
    faqBody(token, { ...QUESTION, email: 'retry@example.com', question: 'Something else entirely' }),
  );
  expect(reused.status).toBe(400);
  expect(reused.text).toContain(AR.spamExpired);
  expect(reused.text).not.toContain(EN.spamExpired);
  const reusedNews = await postNewsletter(server, token, 'other@example.com');
  const reusedAnswer = JSON.parse(reusedNews.text);
  expect(reusedAnswer).toEqual({
    status: 'rejected',
    formError: { titleKey: 'forms:spamTitle', messageKey: 'forms:spamExpired' },
    token: expect.any(String),
  });
  expect(reusedAnswer.token).not.toBe(token);
  const docs = (await storedDocs(server)).docs;
  expect(docs.map((d) => d.email)).toEqual(['retry@example.com']);
  expect(docs[0]).toMatchObject({ question: QUESTION.question, locale: 'ar' });

  // Not a form: a localized refusal, nothing stored (and the newsletter's 415 is not "Unexpected Server Error").
  const json = await fetch(`${server.base}/api/newsletter`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      email: 'json@example.com',
      return_to: '/ar/about',
      form_started: await createFormToken(nextStart(), secret),
    }),
  });
  expect(json.status).toBe(415);
  expect(await json.text()).toBe(`${AR.spamTitle} - ${AR.badRequest}\n`);
  const plain = await fetch(`${server.base}/api/newsletter`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain', Referer: 'https://www.bawaba-advisory.com/blog' },
    body: 'email=plain@example.com',
  });
  expect(plain.status).toBe(415);
  expect(await plain.text()).toBe(`${EN.spamTitle} - ${EN.badRequest}\n`);
  expect((await storedDocs(server)).docs).toHaveLength(1);
  await stopServer(server);
});

// ---------------------------------------------------------------- bodies

function rawRequest(
  port: number,
  head: string,
  onSocket: (socket: net.Socket) => void,
): Promise<{ response: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let response = '';
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(head);
      onSocket(socket);
    });
    socket.on('data', (b) => (response += b.toString()));
    socket.on('error', () => {});
    socket.on('close', () => resolve({ response, ms: Date.now() - started }));
    setTimeout(() => reject(new Error('still open after 45 s')), 45_000).unref();
  });
}

test('oversized bodies get 413 at once; a body trickling a byte a second is cut off', async () => {
  test.setTimeout(60_000);
  // The whole-request timeout is 30 s in production; here it is 5 s (SERVER_TEST_REQUEST_TIMEOUT_MS) to keep the run short.
  const server = await startServer('.cache/e2e/abuse-bodies', { env: { SERVER_TEST_REQUEST_TIMEOUT_MS: '5000' } });
  const declared = await rawRequest(
    server.port,
    'POST /api/newsletter HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 104857600\r\n\r\nemail=a',
    () => {},
  );
  expect(declared.response).toMatch(/^HTTP\/1\.1 413 /);
  expect(declared.ms).toBeLessThan(3000);

  const started = Date.now();
  const big = await fetch(`${server.base}/ar/faq`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `question=${'x'.repeat(200 * 1024)}`,
  });
  expect(big.status).toBe(413);
  expect(Date.now() - started).toBeLessThan(3000);

  let timer: NodeJS.Timeout | undefined;
  const trickle = await rawRequest(
    server.port,
    'POST /faq HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n',
    (socket) => {
      timer = setInterval(() => socket.writable && socket.write('a'), 1000);
    },
  );
  clearInterval(timer);
  expect(trickle.ms).toBeLessThan(40_000);
  expect(trickle.ms).toBeGreaterThanOrEqual(4_000);
  expect((await storedDocs(server)).docs).toHaveLength(0);
  console.log(`bodies: 100 MB declared answered in ${declared.ms} ms; trickle cut off after ${trickle.ms} ms`);
  await stopServer(server);
});
