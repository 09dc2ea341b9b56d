import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { readDataset, startFakeLake } from '../fake-lake.mjs';
import { freshDatabase } from './db.mjs';
import { kill, startOwnServer } from './own-server';
import { t } from './portal-helpers';

/**
 * The portal in the hosted world: portal state (accounts, sign-in codes, limits, the mail queue)
 * and the embedded engine's billing state live in the dataset, written through @sanity/client
 * with SANITY_WRITE_TOKEN. Here the dataset is tests/fake-lake.mjs (started in this worker, on a
 * free port), and the site is a server of this test's own. Plain HTTP: a demo client signs in by
 * emailed code, cancels and resumes; the lake holds what the pages say.
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

test('hosted world with a write token: sign in by emailed code, cancel and resume, all kept in the Content Lake', async () => {
  test.skip(
    test.info().project.name !== 'desktop',
    'no browser in it: plain HTTP against a server of its own, so it runs once (desktop), not per viewport',
  );
  test.setTimeout(60_000);
  rmSync(dataDir, { recursive: true, force: true });
  const lake = await startFakeLake({
    documents: await readDataset('studio/dataset/production.ndjson'),
    token: READ_TOKEN,
    writeToken: WRITE_TOKEN,
  });
  let server: Awaited<ReturnType<typeof startOwnServer>> | undefined;
  try {
    server = await startOwnServer(port, dataDir, {
      NODE_ENV: 'production',
      SANITY_PROJECT_ID: 'fake',
      SANITY_DATASET: 'production',
      SANITY_API_HOST: lake.url,
      SANITY_READ_TOKEN: READ_TOKEN,
      SANITY_WRITE_TOKEN: WRITE_TOKEN,
      SESSION_SECRET: 'e2e-hosted-portal-session-secret-0123456789',
      // The hosted world keeps client data (today the rate limits) in its PostgreSQL.
      DATABASE_URL: await freshDatabase(`e2e_portal_hosted_${port}`),
      TRUST_PROXY: '1',
    });
    const base = server.base;
    const output = server.output;
    expect(output.join('')).toMatch(/hosted world: .*writes enabled/);
    // The demo clients are seeded into the dataset at start (billing first, then their portal accounts).
    const inLake = (type: string) =>
      lake.documents.filter((d) => d._type === type) as Array<Record<string, unknown> & { _id: string }>;
    let account: ReturnType<typeof inLake>[number] | undefined;
    await expect
      .poll(() => (account = inLake('portal.account').find((d) => d.email === EMAIL)), {
        message: 'the demo account, in the lake',
        timeout: 15_000,
      })
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
      inLake('portal.code').filter((d) => d.customerId === account!.customerId),
      'the code, stored hashed in the lake',
    ).toHaveLength(1);
    res = await fetch(`${base}/account/verify`, {
      method: 'POST',
      body: new URLSearchParams({ code: code! }),
      headers: headers(),
      redirect: 'manual',
    });
    expect(res.status, 'verify the code').toBe(302);
    take(res);
    expect(
      inLake('portal.code').filter((d) => d.customerId === account!.customerId),
      'a used code is deleted',
    ).toHaveLength(0);

    const page = await (await fetch(`${base}/account/subscription?step=cancel`, { headers: headers() })).text();
    expect(page).toContain('data-testid="subscription-page"');
    const csrf = /name="csrf"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="csrf"/.exec(page)?.slice(1).find(Boolean);
    expect(csrf, 'signed in').toBeTruthy();
    const subscription = () => inLake('billing.subscription').find((d) => d.customerId === account!.customerId)!;
    expect(subscription()).toMatchObject({ plan: 'business', status: 'active', cancelAtPeriodEnd: false });

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
    expect(subscription()).toMatchObject({ cancelAtPeriodEnd: true, canceledAt: expect.any(String) });
    const cancelMail = inLake('portal.mail').find((d) =>
      String(d.key).startsWith(`cancel:${subscription().subscriptionId}:`),
    );
    expect(cancelMail, 'the cancellation email, queued in the lake').toBeTruthy();
    await expect
      .poll(() => outbox().filter((m) => m.messageId === `<${cancelMail!._id}@127.0.0.1>`).length, { timeout: 10_000 })
      .toBe(1);
    res = await act('resume');
    expect(res.status, 'resume').toBe(200);
    expect(subscription()).toMatchObject({ cancelAtPeriodEnd: false, canceledAt: null });

    // Every write the site sent was one the lake models (no 400), and private documents stay private.
    expect(lake.writes.filter((w) => w.status === 400)).toEqual([]);
    expect(lake.writes.length).toBeGreaterThan(5);
    expect(
      inLake('portal.account').length + inLake('billing.subscription').length,
      'private documents in the lake',
    ).toBeGreaterThan(0);
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
