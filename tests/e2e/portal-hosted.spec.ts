import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { readDataset, startFakeLake } from '../fake-lake.mjs';
import { freshDatabase, rows } from './db.mjs';
import { kill, startOwnServer } from './own-server';
import { t } from './portal-helpers';

/**
 * The portal in the hosted world: the client's data (accounts, sessions, sign-in codes, limits,
 * the mail queue) lives in the hosted PostgreSQL (DATABASE_URL), never in the content store; the
 * embedded engine's billing state is still written to the dataset through @sanity/client with
 * SANITY_WRITE_TOKEN until it moves to the database too. Here the dataset is tests/fake-lake.mjs
 * (started in this worker, on a free port), and the site is a server of this test's own. Plain
 * HTTP: a demo client signs in by emailed code, cancels and resumes.
 */
const port = Number(process.env.E2E_PORT ?? 3210) + 530;
const dataDir = `.cache/e2e/portal-hosted-${port}`;
const READ_TOKEN = 'e2e-hosted-portal-read-token';
const WRITE_TOKEN = 'e2e-hosted-portal-write-token';
const EMAIL = 'client@example.com';
const IP = '10.53.0.1';

type Mail = { to: string; subject: string; text: string; messageId: string };
const outbox = (): Mail[] => {
  const dir = path.join(dataDir, 'outbox');
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Mail);
  } catch {
    return [];
  }
};

test('hosted world: sign in by emailed code, cancel and resume; the client lives in PostgreSQL, not in the Content Lake', async () => {
  test.setTimeout(60_000);
  rmSync(dataDir, { recursive: true, force: true });
  const lake = await startFakeLake({
    documents: await readDataset('studio/dataset/production.ndjson'),
    token: READ_TOKEN,
    writeToken: WRITE_TOKEN,
  });
  let server: Awaited<ReturnType<typeof startOwnServer>> | undefined;
  let databaseUrl = '';
  const inDb = (query: string, params: unknown[] = []) => rows(databaseUrl, query, params);
  /** The same, for a poll: an error (the server still applying its migrations) reads as nothing yet. */
  const inDbSoon = (query: string, params: unknown[] = []) => inDb(query, params).catch(() => []);
  try {
    server = await startOwnServer(port, dataDir, {
      NODE_ENV: 'production',
      SANITY_PROJECT_ID: 'fake',
      SANITY_DATASET: 'production',
      SANITY_API_HOST: lake.url,
      SANITY_READ_TOKEN: READ_TOKEN,
      SANITY_WRITE_TOKEN: WRITE_TOKEN,
      SESSION_SECRET: 'e2e-hosted-portal-session-secret-0123456789',
      // The hosted world keeps client data in its PostgreSQL.
      DATABASE_URL: (databaseUrl = await freshDatabase(`e2e_portal_hosted_${port}`)),
      TRUST_PROXY: '1',
    });
    const base = server.base;
    const output = server.output;
    expect(output.join('')).toMatch(/hosted world: .*writes enabled/);
    // The demo clients are seeded at start (billing first, then their portal accounts, in PostgreSQL).
    let account: { customer_id: string } | undefined;
    await expect
      .poll(
        async () =>
          (account = (
            await inDbSoon('select customer_id from accounts where email = $1', [EMAIL])
          )[0] as typeof account),
        {
          message: 'the demo account, in the database',
          timeout: 15_000,
        },
      )
      .toBeTruthy();

    // Sign in by emailed code.
    const cookies = new Map<string, string>();
    const take = (res: Response) => {
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const at = pair.indexOf('=');
        if (/Max-Age=0/i.test(c) || at === pair.length - 1) cookies.delete(pair.slice(0, at));
        else cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
    };
    const headers = () => ({ 'X-Forwarded-For': IP, Cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') });
    let res = await fetch(`${base}/account`, {
      method: 'POST',
      body: new URLSearchParams({ intent: 'request-code', email: EMAIL }),
      headers: headers(),
      redirect: 'manual',
    });
    expect(res.status, 'request a code').toBe(302);
    take(res);
    let code: string | undefined;
    await expect
      .poll(
        () =>
          (code = outbox()
            .map((m) => /\b(\d{6})\b/.exec(m.text)?.[1])
            .find(Boolean)),
        { timeout: 10_000 },
      )
      .toBeTruthy();
    expect(
      await inDb('select count(*)::int as n from signin_codes where customer_id = $1', [account!.customer_id]),
      'the code row (no code in it), in the database',
    ).toEqual([{ n: 1 }]);
    res = await fetch(`${base}/account/verify`, {
      method: 'POST',
      body: new URLSearchParams({ code: code! }),
      headers: headers(),
      redirect: 'manual',
    });
    expect(res.status, 'verify the code').toBe(302);
    take(res);
    expect(
      await inDb('select count(*)::int as n from signin_codes where customer_id = $1', [account!.customer_id]),
      'a used code is deleted',
    ).toEqual([{ n: 0 }]);
    expect(
      await inDb('select count(*)::int as n from sessions where customer_id = $1', [account!.customer_id]),
    ).toEqual([{ n: 1 }]);

    const page = await (await fetch(`${base}/account/subscription?step=cancel`, { headers: headers() })).text();
    expect(page).toContain('data-testid="subscription-page"');
    const csrf = /name="csrf"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="csrf"/.exec(page)?.slice(1).find(Boolean);
    expect(csrf, 'signed in').toBeTruthy();
    const subscription = async () => {
      const [row] = await inDb(
        `select plan, status, cancel_at_period_end as "cancelAtPeriodEnd", canceled_at as "canceledAt", id
           from billing_subscriptions where customer_id = $1 and ended_at is null`,
        [account!.customer_id],
      );
      return row as { plan: string; status: string; cancelAtPeriodEnd: boolean; canceledAt: Date | null; id: string };
    };
    expect(await subscription()).toMatchObject({ plan: 'business', status: 'active', cancelAtPeriodEnd: false });

    // Cancel, then resume: each answered only once it is in the lake.
    const act = (intent: string) =>
      fetch(`${base}/account/subscription`, {
        method: 'POST',
        body: new URLSearchParams({ intent, csrf: csrf! }),
        headers: headers(),
      });
    res = await act('cancel');
    expect(res.status, 'cancel').toBe(200);
    expect(await res.text()).toContain(t('en', 'messages.cancelled', { date: '' }).split(',')[0]);
    expect(await subscription()).toMatchObject({ cancelAtPeriodEnd: true, canceledAt: expect.any(Date) });
    // The cancellation email: queued in the database (by its key's hash), sent once.
    const [cancelMail] = await inDb("select key_hash from mail_queue where to_address = $1 and kind = 'cancellation'", [
      EMAIL,
    ]);
    expect(cancelMail, 'the cancellation email, queued in the database').toBeTruthy();
    await expect
      .poll(() => outbox().filter((m) => m.messageId === `<portal.mail.${cancelMail.key_hash}@127.0.0.1>`).length, {
        timeout: 10_000,
      })
      .toBe(1);
    res = await act('resume');
    expect(res.status, 'resume').toBe(200);
    expect(await subscription()).toMatchObject({ cancelAtPeriodEnd: false, canceledAt: null });

    // Every write the site sent was one the lake models (no 400), and private documents stay private.
    expect(lake.writes.filter((w) => w.status === 400)).toEqual([]);
    // Nothing about a client is written to the content store: not the portal's, not billing's.
    expect(lake.writes).toEqual([]);
    // Nothing of the portal's own is in the content store: no account, code, session, limit or email.
    expect(
      lake.documents.filter((d) => String(d._id).startsWith('portal.')),
      'portal documents in the lake',
    ).toEqual([]);
    expect(
      lake.writes.filter((w) => JSON.stringify(w).includes('portal.')),
      'portal writes to the lake',
    ).toEqual([]);
    const publicRead = await (
      await fetch(
        `${lake.url}/v2025-02-19/data/query/production?query=${encodeURIComponent('count(*[string::startsWith(_id, "portal.") || string::startsWith(_id, "billing.")])')}`,
      )
    ).json();
    expect(publicRead.result, 'private documents in a public read').toBe(0);
  } finally {
    if (server) await kill(server);
    await lake.close();
  }
});
