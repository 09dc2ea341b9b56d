import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { freshDatabase, rows } from './db.mjs';
import { at, hydrated, LOCALES, type Locale } from './helpers';
import { startOwnServer, type OwnServer } from './own-server';
import { outbox, readOutbox, schedulePlanChange, signIn, subscribe, t, waitForMail } from './portal-helpers';

/**
 * Privacy at rest (issue 27, item 10). On a fresh data folder, in English and in Arabic, people
 * with recognisable addresses and names go through the portal (subscribe by the local checkout
 * and confirm the address by its emailed code, sign out, sign in by code, schedule a plan change,
 * sign out, ask for one more code and leave it unused), ask a FAQ question and sign up for the
 * newsletter. Then, with the server stopped:
 * - no file of the data folder outside the database (`db/`, the embedded world's) and the outbox
 *   (development mail, which is meant to hold them) holds any of their addresses, nor a name or
 *   phone number they typed: every file, binary or not, in several spellings, ignoring case;
 * - a dump of the database holds no code that was emailed, nor the id a spent code's link
 *   carried. A live code's id is its row's key: alone it signs no one in (the code is derived
 *   from it with the server's secret), and it appears nowhere else.
 * Both worlds: PGlite in the data folder, and a real PostgreSQL (DATABASE_URL; then nothing of
 * theirs is in the data folder outside the outbox, and the dump is Debian's pg_dump).
 */
type Engine = 'pglite' | 'postgres';
const PG_DUMP = `${process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin'}/pg_dump`;

/** Recognisable people, one set per language; `tag` keeps the addresses of one run apart. */
const peopleOf = (tag: string) =>
  ({
    en: {
      client: { email: `Zenobia.Quillfeather.${tag}@Example.com`, name: 'Zenobia Quillfeather' },
      faq: {
        email: `Octavius.Brambleworth.${tag}@Example.org`,
        name: 'Octavius Brambleworth',
        phone: '+971 50 731 9264',
        question: 'Can a free zone company be set up without visiting in person?',
      },
      newsletter: `Perpetua.Nightingale.${tag}@Example.net`,
    },
    ar: {
      client: { email: `Narjis.Tantawi.${tag}@Example.com`, name: 'نرجس الطنطاوي' },
      faq: {
        email: `Mihyar.Bastaki.${tag}@Example.org`,
        name: 'مهيار البستكي',
        phone: '+966 55 804 1937',
        question: 'هل يمكن تأسيس شركة في منطقة حرة دون الحضور شخصيًا؟',
      },
      newsletter: `Rabab.Zarouni.${tag}@Example.net`,
    },
  }) satisfies Record<Locale, unknown>;
type People = ReturnType<typeof peopleOf>;

const forms: Record<Locale, Record<string, Record<string, string>>> = {
  en: JSON.parse(readFileSync('public/locales/en/forms.json', 'utf8')),
  ar: JSON.parse(readFileSync('public/locales/ar/forms.json', 'utf8')),
};

// ---------------------------------------------------------------------------------- the flows

async function signOut(page: Page, base: string, locale: Locale) {
  await page.goto(`${base}${at(locale, '/account')}`);
  await page.getByTestId('sign-out').click();
  await expect(page.getByLabel(t(locale, 'signIn.email'))).toBeVisible();
  await expect(page.getByTestId('sign-out')).toHaveCount(0);
}

/** The portal flows of one client, in one language, in a browser of their own. */
async function portalFlows(browser: Browser, base: string, dataDir: string, locale: Locale, people: People) {
  const { email, name } = people[locale].client;
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await subscribe(page, base, dataDir, locale, 'starter', email, name);
    await signOut(page, base, locale);
    await signIn(page, base, dataDir, locale, email);
    await page.goto(`${base}${at(locale, '/account/subscription')}`);
    await schedulePlanChange(page, locale);
    await signOut(page, base, locale);
    // One more code, never used: its row is live when the database is dumped.
    const before = outbox(dataDir, email).length;
    await page.goto(`${base}${at(locale, '/account')}`);
    await page.getByLabel(t(locale, 'signIn.email')).fill(email);
    await page.getByRole('button', { name: t(locale, 'signIn.submit') }).click();
    await expect(page).toHaveURL(/\/account\/verify/);
    await waitForMail(dataDir, email, /\b\d{6}\b/, before);
  } finally {
    await context.close();
  }
}

/** A newsletter sign-up in the footer and a FAQ question, on the FAQ page (JavaScript on). */
async function submissions(browser: Browser, base: string, locale: Locale, people: People) {
  const F = forms[locale];
  const who = people[locale];
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${base}${at(locale, '/faq')}`);
    await hydrated(page);
    const news = page.getByTestId('newsletter-footer');
    const faq = page.getByTestId('faq-form');
    await news.getByLabel(F.newsletter.emailLabel).fill(who.newsletter);
    await faq.getByLabel(F.faq.nameLabel, { exact: true }).fill(who.faq.name);
    await faq.getByLabel(F.faq.emailLabel, { exact: true }).fill(who.faq.email);
    await faq.getByLabel(F.faq.phoneLabel, { exact: true }).fill(who.faq.phone);
    await faq.getByLabel(F.faq.questionLabel, { exact: true }).fill(who.faq.question);
    // Each form's token (issued when it is first used) must be 3 s old before it is sent.
    let issued = 0;
    await expect
      .poll(
        async () => {
          const stamps = await page
            .locator('[data-testid="newsletter-footer"], [data-testid="faq-form"]')
            .locator('input[name="form_started"]')
            .evaluateAll((inputs) => inputs.map((i) => Number((i as HTMLInputElement).value.split('.')[0]) || 0));
          issued = Math.max(...stamps);
          return stamps.length === 2 && Math.min(...stamps) > 0;
        },
        { message: 'both forms have their token' },
      )
      .toBe(true);
    await page.waitForTimeout(Math.max(0, issued + 3300 - Date.now()));
    await news.getByRole('button', { name: F.newsletter.subscribe }).click();
    await expect(news).toHaveAttribute('data-state', 'subscribed');
    await faq.getByRole('button', { name: F.faq.submit }).click();
    await expect(page.getByTestId('faq-form')).toHaveAttribute('data-state', 'submitted');
    await expect(page.getByTestId('faq-form').getByRole('status')).toContainText(F.faq.submittedTitle);
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------------------------- the search

/** ASCII letters to lower case, every other byte as it is (UTF-8 sequences are left whole). */
function fold(bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  for (let i = 0; i < out.length; i++) if (out[i] >= 0x41 && out[i] <= 0x5a) out[i] += 0x20;
  return out;
}

/** `\uXXXX` for every character outside ASCII, as some JSON writers spell it. */
const jsonEscaped = (s: string) =>
  s.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

type Needle = { label: string; bytes: Buffer[] };

/** What may not be written about a person, in the spellings a file could hold it in. */
function needles(people: People): Needle[] {
  const spellings = (s: string) => {
    const forms = new Set([s, encodeURIComponent(s), jsonEscaped(s)]);
    return [
      ...[...forms].map((f) => fold(Buffer.from(f, 'utf8'))),
      // UTF-16 (a binary format may store text so).
      fold(Buffer.from(s, 'utf16le')),
    ];
  };
  const email = (label: string, address: string) => ({
    label,
    // The whole address, and its local part alone (it carries the run's tag: seen alone, it is
    // the address spelt some other way).
    bytes: [...spellings(address), ...spellings(address.split('@')[0])],
  });
  const list: Needle[] = [];
  for (const locale of LOCALES) {
    const who = people[locale];
    const digits = who.faq.phone.replace(/\D/g, '');
    list.push(
      email(`${locale} client address`, who.client.email),
      { label: `${locale} client name`, bytes: spellings(who.client.name) },
      email(`${locale} FAQ submitter address`, who.faq.email),
      { label: `${locale} FAQ submitter name`, bytes: spellings(who.faq.name) },
      { label: `${locale} FAQ submitter phone`, bytes: [...spellings(who.faq.phone), ...spellings(digits)] },
      email(`${locale} newsletter address`, who.newsletter),
    );
  }
  return list;
}

/** Every file under `dir`, binary or not, but those under the top-level folders `skip`. */
function filesUnder(dir: string, skip: string[]): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (at === dir && skip.includes(entry.name)) continue;
      if (entry.isDirectory()) walk(full);
      else found.push(full);
    }
  };
  walk(dir);
  return found;
}

/** Which needles each file holds, as "file: label". */
function search(files: string[], list: Needle[], relativeTo: string): string[] {
  const hits: string[] = [];
  for (const file of files) {
    const text = fold(readFileSync(file));
    for (const needle of list)
      if (needle.bytes.some((b) => text.includes(b))) hits.push(`${path.relative(relativeTo, file)}: ${needle.label}`);
  }
  return hits;
}

// ---------------------------------------------------------------------------------- the dump

/** A dump, by table (the text of its rows) and the rest (`(schema)`: definitions, sequences). */
type Dump = { table: string; text: string }[];

/** Every table of the PGlite database in `{dataDir}/db`, opened once its server has stopped. */
async function dumpPglite(dataDir: string): Promise<Dump> {
  const { PGlite } = await import('@electric-sql/pglite');
  const pg = await PGlite.create(path.join(dataDir, 'db'));
  try {
    const tables = (
      await pg.query<{ name: string }>(
        `select quote_ident(table_schema) || '.' || quote_ident(table_name) as name from information_schema.tables
          where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
      )
    ).rows;
    const dump: Dump = [];
    for (const { name } of tables) {
      const lines = (await pg.query<{ r: string }>(`select row_to_json(t)::text as r from ${name} t`)).rows;
      dump.push({ table: name, text: lines.map((l) => l.r).join('\n') });
    }
    return dump;
  } finally {
    await pg.close();
  }
}

/** pg_dump of a PostgreSQL database (plain SQL), cut into its tables' COPY blocks. */
function dumpPostgres(url: string): Dump {
  const text = execFileSync(PG_DUMP, ['--no-owner', '--no-privileges', '--dbname', url], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const dump: Dump = [{ table: '(schema)', text: '' }];
  let current: Dump[number] | null = null;
  for (const line of text.split('\n')) {
    const copy = /^COPY (\S+) \(/.exec(line);
    if (copy) dump.push((current = { table: copy[1], text: '' }));
    else if (current && line === '\\.') current = null;
    else (current ?? dump[0]).text += `${line}\n`;
  }
  return dump;
}

/** A 6-digit code standing alone (not inside a longer number, word, hash or a time's fraction). */
const codePattern = (code: string) => new RegExp(`(?<![0-9A-Za-z.])${code}(?![0-9A-Za-z])`);

/** The code and the link's id of every code email to these addresses (the outbox keeps them). */
function emailedCodes(dataDir: string, addresses: string[]) {
  const found: { to: string; subject: string; id: string; code: string }[] = [];
  for (const to of addresses)
    for (const mail of outbox(dataDir, to)) {
      if (!/\b\d{6}\b/.test(mail.text)) continue;
      const link = /[?&]c=([A-Za-z0-9]+)&(?:amp;)?code=(\d{6})/.exec(mail.text);
      expect(link, `the link of "${mail.subject}" to ${to}`).toBeTruthy();
      expect(mail.text, 'the code typed and the link agree').toMatch(new RegExp(`\\b${link![2]}\\b`));
      found.push({ to, subject: mail.subject, id: link![1], code: link![2] });
    }
  return found;
}

// ---------------------------------------------------------------------------------- the test

async function stop(server: OwnServer) {
  // A graceful stop first, as an operator would (whatever it writes on the way out is searched too).
  server.child.kill('SIGTERM');
  const done = await Promise.race([server.exited, new Promise((r) => setTimeout(() => r(null), 10_000))]);
  if (done === null) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
}

for (const engine of ['pglite', 'postgres'] as const satisfies readonly Engine[])
  test(`privacy at rest (${engine}): no address, name or phone in the data folder outside the database and the outbox; no emailed code in a dump of the database`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const port = Number(process.env.E2E_PORT ?? 3210) + (engine === 'pglite' ? 570 : 571);
    const dataDir = `.cache/e2e/privacy-${port}`;
    rmSync(dataDir, { recursive: true, force: true });
    const databaseUrl = engine === 'postgres' ? await freshDatabase(`e2e_privacy_${port}`) : null;
    const people = peopleOf(Date.now().toString(36));
    const server = await startOwnServer(port, dataDir, {
      NODE_ENV: 'production',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    try {
      // The two languages at once, as two people would (each in a browser of their own).
      await Promise.all(
        LOCALES.map(async (locale) => {
          await portalFlows(browser, server.base, dataDir, locale, people);
          await submissions(browser, server.base, locale, people);
        }),
      );
      // The firm is told of each question and sign-up (in the outbox, maybe after the answer):
      // wait for those emails too, before the server stops.
      const submitters = LOCALES.flatMap((l) => [people[l].faq.email, people[l].newsletter]);
      await expect
        .poll(() => readOutbox(dataDir).filter((m) => submitters.some((e) => m.text.includes(e))).length, {
          message: 'the notifications of the questions and sign-ups',
          timeout: 20_000,
        })
        .toBe(submitters.length);
    } finally {
      await stop(server);
    }

    // 1. The data folder: nothing of theirs outside the database and the outbox.
    const list = needles(people);
    const skipped = engine === 'pglite' ? ['db', 'outbox'] : ['outbox'];
    const files = filesUnder(dataDir, skipped);
    test.info().annotations.push({
      type: 'searched',
      description: files.map((f) => path.relative(dataDir, f)).join(', '),
    });
    expect(files.length, 'files searched').toBeGreaterThan(0);
    expect(search(files, list, dataDir), 'personal data in the data folder').toEqual([]);
    if (engine === 'postgres')
      expect(existsSync(path.join(dataDir, 'db')), 'a PGlite database beside DATABASE_URL').toBe(false);
    // The search finds what is there: the outbox (development mail) does hold every one of them.
    const outboxHits = search(filesUnder(path.join(dataDir, 'outbox'), []), list, dataDir);
    expect(
      list.filter((n) => !outboxHits.some((hit) => hit.endsWith(`: ${n.label}`))).map((n) => n.label),
      'what the outbox should hold and the search missed',
    ).toEqual([]);

    // 2. The database: no emailed code, no spent code's link id.
    const codes = emailedCodes(
      dataDir,
      LOCALES.map((l) => people[l].client.email),
    );
    // Per client: the checkout's confirmation, a sign-in, the unused one.
    expect(codes.length, 'codes emailed').toBe(3 * LOCALES.length);
    const dump = databaseUrl ? dumpPostgres(databaseUrl) : await dumpPglite(dataDir);
    const all = dump.map((d) => d.text).join('\n');
    // The dump holds their data (the accounts): it is a dump of the right database.
    for (const locale of LOCALES)
      expect(fold(Buffer.from(all)).includes(fold(Buffer.from(people[locale].client.email))), `${locale} account`).toBe(
        true,
      );
    const tablesWith = (test: (text: string) => boolean) => dump.filter((d) => test(d.text)).map((d) => d.table);
    for (const { to, subject, code } of codes)
      expect(
        tablesWith((text) => codePattern(code).test(text)),
        `code ${code} of "${subject}" to ${to}`,
      ).toEqual([]);
    const live = (
      databaseUrl
        ? await rows(databaseUrl, 'select id from signin_codes')
        : (dump.find((d) => d.table === 'public.signin_codes')?.text ?? '')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as { id: string })
    ).map((row) => String(row.id));
    const unused = LOCALES.map((l) => codes.filter((c) => c.to === people[l].client.email).at(-1)!.id);
    expect([...live].sort(), 'live code rows: the unused codes only').toEqual([...unused].sort());
    for (const { to, subject, id } of codes) {
      const where = tablesWith((text) => text.includes(id));
      if (unused.includes(id))
        expect(where, `the live code ${id} to ${to}: its row's key, nothing else`).toEqual(['public.signin_codes']);
      else expect(where, `the link id ${id} of "${subject}" to ${to}, spent`).toEqual([]);
    }
  });
