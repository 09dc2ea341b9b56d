import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { expect, request, test, type Page } from '@playwright/test';
import { kill, startOwnServer, type OwnServer } from './own-server';
import { signIn, subscribe, uniqueEmail, waitForMail, outbox } from './portal-helpers';

/**
 * Backups while the site runs (issue 44, ADR 0031): a client subscribes (an account, a paid
 * invoice) and an editor publishes through the local Content Lake; then `npm run backup` runs
 * while visitors load pages and the editor keeps publishing (bounded: 8 concurrent requests);
 * the backup is restored (`npm run restore`) into a new folder and a second server started on
 * it: the client signs in and finds the invoice, the published edits are on the page, and every
 * edit the lake had acknowledged before the backup started is there.
 */
const port = Number(process.env.E2E_PORT ?? 3210) + 570;
const restoredPort = port + 2;
const dataDir = `.cache/e2e/backup-${port}`;
const restoredDir = `.cache/e2e/backup-${port}-restored`;
const backupDir = `.cache/e2e/backup-${port}-backups`;
const QUESTION = 'faqItem-bank-account';

test.describe.configure({ mode: 'default' });

const servers: OwnServer[] = [];
test.afterAll(async () => {
  for (const s of servers.splice(0)) await kill(s);
});

/** An operator's command (vite-node, as `npm run` runs it) with the server's settings. */
function command(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; out: string }>((resolve) => {
    execFile(
      process.execPath,
      ['node_modules/vite-node/vite-node.mjs', '--config', 'vitest.config.ts', `scripts/${script}.ts`, ...args],
      { env: { ...process.env, ...env }, encoding: 'utf8' },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

/** The Studio's sign-in as the demo editor: the token the sign-in hands the Studio. */
async function editorToken(page: Page, base: string, dir: string): Promise<string> {
  const email = 'editor@example.com';
  const before = outbox(dir, email).length;
  await page.goto(`${base}/studio/sign-in`);
  await page.getByLabel('Your editor email address').fill(email);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  const mail = await waitForMail(dir, email, /\b\d{6}\b/, before);
  await page.getByLabel('6-digit code').fill(/\b(\d{6})\b/.exec(mail.text)![1]!);
  const redirected = page.waitForResponse((r) => r.request().method() === 'POST' && r.status() === 302);
  await page.getByRole('button', { name: 'Sign in to the Studio' }).click();
  const location = (await redirected).headers().location ?? '';
  expect(location).toMatch(/#token=lk1\./);
  return location.split('#token=')[1]!;
}

test('a backup made during traffic restores into a new folder with every record and every published edit', async ({
  page,
}) => {
  test.setTimeout(300_000);
  for (const dir of [dataDir, restoredDir, backupDir]) rmSync(dir, { recursive: true, force: true });
  const env = { LAKE_PORT: String(port + 1), BACKUP_DIR: backupDir };
  const server = await startOwnServer(port, dataDir, env);
  servers.push(server);
  await expect.poll(() => server.output.join(''), { timeout: 60_000 }).toMatch(/\[lake\] local Content Lake/);

  // A client's account and invoice.
  const client = uniqueEmail('backup');
  await subscribe(page, server.base, dataDir, 'en', 'starter', client, 'Backup Client');
  const invoice = /BWB-\d{4}-\d{4}/.exec((await waitForMail(dataDir, client, /BWB-\d{4}-\d{4}/)).text)![0];

  // An editor's published edit, through the lake's API.
  const token = await editorToken(page, server.base, dataDir);
  const lake = await request.newContext({
    baseURL: `https://127.0.0.1:${port + 1}`,
    ignoreHTTPSErrors: true,
    extraHTTPHeaders: { Authorization: `Bearer ${token}` },
  });
  const publish = async (n: number) => {
    const res = await lake.post('/v2025-02-19/data/mutate/production', {
      data: { mutations: [{ patch: { id: QUESTION, set: { 'question.en': `Backup edit ${n}?` } } }] },
    });
    expect(res.status()).toBe(200);
  };
  await publish(0);
  await expect.poll(async () => (await fetch(`${server.base}/faq`)).text()).toContain('Backup edit 0?');

  // The backup, during traffic: 7 visitors loading pages and the editor publishing, one request
  // each at a time, until the command is done.
  let acknowledged = 0;
  let running = true;
  let pages = 0;
  const failures: string[] = [];
  const visitor = async (i: number) => {
    const paths = ['/', '/ar', '/faq', '/pricing', '/ar/faq', '/about', '/account'];
    for (let k = 0; running; k++) {
      const res = await fetch(`${server.base}${paths[(i + k) % paths.length]}?visit=${i}-${k}`);
      await res.arrayBuffer();
      if (res.status !== 200) failures.push(`${res.url}: ${res.status}`);
      pages++;
    }
  };
  const editor = async () => {
    for (let n = 1; running; n++) {
      await publish(n);
      acknowledged = n;
    }
  };
  await new Promise((r) => setTimeout(r, 300));
  const traffic = Promise.all([editor(), ...Array.from({ length: 7 }, (_, i) => visitor(i))]);
  await new Promise((r) => setTimeout(r, 500));
  const beforeBackup = acknowledged;
  const started = Date.now();
  const backup = await command('backup', [], { CONTENT_DATA_DIR: dataDir, BACKUP_DIR: backupDir });
  const took = Date.now() - started;
  running = false;
  await traffic;
  expect(backup.out).toContain('made by the running server');
  expect(backup.code).toBe(0);
  expect(failures).toEqual([]);
  const made = /^(\S+)\t/m.exec(backup.out)![1]!;
  console.log(
    `backup during traffic: ${backup.out.trim()} (command ${took} ms; ${pages} pages served, ${acknowledged} edits published meanwhile)`,
  );

  // Never into the folder a running server has, forced or not.
  const held = await command('restore', [made, dataDir, '--force'], {});
  expect(held.code).toBe(1);
  expect(held.out).toMatch(/is in use by another process: pid \d+/);

  // Restored into a new folder, a second server started on it.
  const restore = await command('restore', [made, restoredDir], {});
  expect(restore.out).toMatch(/restored .* into /);
  expect(restore.code).toBe(0);
  const copy = await startOwnServer(restoredPort, restoredDir, { LAKE_PORT: String(restoredPort + 1) });
  servers.push(copy);
  // Signed in afresh (the browser's cookie from the first server would be honoured: the signing
  // secret is restored with the data).
  await page.context().clearCookies();
  await signIn(page, copy.base, restoredDir, 'en', client);
  await page.goto(`${copy.base}/account/subscription`);
  await expect(page.getByRole('table').getByText(invoice, { exact: true })).toBeVisible();
  const faq = await (await fetch(`${copy.base}/faq`)).text();
  const restoredEdit = Number(/Backup edit (\d+)\?/.exec(faq)?.[1] ?? -1);
  expect(restoredEdit).toBeGreaterThanOrEqual(beforeBackup);
  expect(restoredEdit).toBeLessThanOrEqual(acknowledged);
  // The original keeps running on its own folder, with every later edit.
  expect(await (await fetch(`${server.base}/faq`)).text()).toContain(`Backup edit ${acknowledged}?`);
  await lake.dispose();

  // With no server on a folder (this one's was killed: its lock and socket are left behind), the
  // command opens the folder itself.
  await kill(copy);
  const offline = await command('backup', [], { CONTENT_DATA_DIR: restoredDir, BACKUP_DIR: backupDir });
  expect(offline.out).toContain('(no server was running)');
  expect(offline.code).toBe(0);
});

test('the hosted world is backed up with pg_dump; what is not a backup is refused', async () => {
  const hosted = await command('backup', [], { DATABASE_URL: 'postgres://u:p@127.0.0.1:1/x' });
  expect(hosted.code).toBe(2);
  expect(hosted.out).toMatch(/pg_dump/);
  const notBackup = await command('restore', ['--check', 'tests'], {});
  expect(notBackup.code).toBe(1);
  expect(notBackup.out).toMatch(/is not a backup/);
});
