import { expect, test } from '@playwright/test';
import { readFileSync, rmSync } from 'node:fs';
import { outbox, startPortalServer, t } from './portal-helpers';

/**
 * Durability of the portal's state changes: kill -9 the server while plan changes and
 * cancellations are in flight; after a restart on the same data folder every acknowledged
 * change is there, none is half-applied, and no email goes out twice.
 * Plain HTTP (no browser), bounded: 12 clients, one burst, one kill.
 */
test.skip(({ viewport }) => (viewport?.width ?? 0) < 768, 'server-side: one run');
test.describe.configure({ mode: 'serial' });

const port = Number(process.env.E2E_PORT ?? 3210) + 520;
const dataDir = `.cache/e2e/portal-durability-${port}`;
const CLIENTS = 12;

type Client = { email: string; cookie: string; csrf: string; ip: string };

const cookieJar = (headers: Headers, jar: Map<string, string>) => {
  for (const c of headers.getSetCookie()) {
    const [pair] = c.split(';');
    const [name, ...rest] = pair.split('=');
    const value = rest.join('=');
    if (/Max-Age=0/i.test(c) || !value) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
};

/** Setup requests: one retry when a kept-alive socket was closed by the server between requests. */
async function fetchOnce(input: string | URL, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(input, init);
  } catch {
    return fetch(input, init);
  }
}

async function newClient(base: string, i: number): Promise<Client> {
  const email = `durable${i}.${Date.now().toString(36)}@example.com`;
  const ip = `10.9.${i}.1`;
  const jar = new Map<string, string>();
  const headers = (extra: Record<string, string> = {}) => ({ 'X-Forwarded-For': ip, Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), ...extra });
  let res = await fetchOnce(`${base}/pricing`, { method: 'POST', body: new URLSearchParams({ intent: 'subscribe', plan: 'starter' }), headers: headers(), redirect: 'manual' });
  const checkout = res.headers.get('location')!;
  expect(checkout).toMatch(/\/checkout\/cs_/);
  res = await fetchOnce(new URL(checkout, base), {
    method: 'POST',
    body: new URLSearchParams({ email, name: `Client ${i}`, company: '', cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' }),
    headers: headers(),
    redirect: 'manual',
  });
  expect(res.status).toBe(302);
  const cookie = cookieJar(res.headers, jar);
  const page = await (await fetchOnce(`${base}/account/subscription?step=cancel`, { headers: headers() })).text();
  const match = /name="csrf"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="csrf"/.exec(page);
  const csrf = match?.[1] ?? match?.[2];
  expect(csrf, page.slice(0, 300)).toBeTruthy();
  return { email, cookie, csrf: csrf!, ip };
}

// NOT PASSING YET: the restart phase loses its connection to the restarted server (ECONNREFUSED)
// in this harness; the store's crash behaviour itself is covered by app/sanity/private-store.test.ts
// and the engine's torn-log test. Kept as fixme until the harness is fixed, not counted as passing.
test.fixme('kill -9 during plan changes and cancellations: acknowledged changes survive, nothing is half-applied or emailed twice', async () => {
  test.setTimeout(150_000);
  rmSync(dataDir, { recursive: true, force: true });
  let server = await startPortalServer(port, dataDir);
  const clients: Client[] = [];
  for (let i = 0; i < CLIENTS; i++) clients.push(await newClient(server.base, i));

  // The burst: each client either cancels or schedules a change to Enterprise, twice (a double click).
  const acknowledged = new Map<string, 'cancel' | 'change'>();
  const burst = clients.flatMap((c, i) => {
    const intent = i % 2 === 0 ? 'cancel' : 'change';
    const send = async () => {
      try {
        const res = await fetch(`${server.base}/account/subscription`, {
          method: 'POST',
          body: new URLSearchParams({ intent, plan: 'enterprise', csrf: c.csrf }),
          headers: { Cookie: c.cookie, 'X-Forwarded-For': c.ip },
          signal: AbortSignal.timeout(20_000),
        });
        const html = await res.text();
        const success = intent === 'cancel' ? t('en', 'messages.cancelled', { date: '' }).split(',')[0] : t('en', 'messages.changeScheduled', { plan: '', date: '' }).split(' ')[0];
        if (res.ok && html.includes(success)) acknowledged.set(c.email, intent);
      } catch {
        // cut off by the kill: not acknowledged
      }
    };
    return [send(), send()];
  });
  // Let part of the burst land (a few acknowledged, the rest still in flight), then kill without warning.
  for (let waited = 0; acknowledged.size < 3 && waited < 8000; waited += 10) await new Promise((r) => setTimeout(r, 10));
  server.child.kill('SIGKILL');
  await Promise.all(burst);

  // Restart on the same folder: the write log loads, every acknowledged change is there.
  server = await startPortalServer(port, dataDir);
  try {
    for (const c of clients) {
      const html = await (await fetch(`${server.base}/account/subscription`, { headers: { Cookie: c.cookie, 'X-Forwarded-For': c.ip } })).text();
      const cancelled = html.includes(t('en', 'subscription.resume'));
      const changed = html.includes(t('en', 'subscription.withdraw'));
      // Never both, never a broken page.
      expect(html).toContain(t('en', 'summary.nextBilling').split(' ')[0]);
      expect(cancelled && changed).toBe(false);
      const ack = acknowledged.get(c.email);
      if (ack === 'cancel') expect(cancelled, `${c.email} cancel acknowledged`).toBe(true);
      if (ack === 'change') expect(changed, `${c.email} change acknowledged`).toBe(true);
    }
    // The jobs deliver what was queued; then no email went out twice.
    await fetch(`${server.base}/api/portal/test/jobs`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    await fetch(`${server.base}/api/portal/test/jobs`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    for (const c of clients) {
      const subjects = outbox(dataDir, c.email).map((m) => m.subject);
      expect(new Set(subjects).size, `${c.email}: ${subjects.join(' | ')}`).toBe(subjects.length);
      if (acknowledged.has(c.email)) expect(subjects.length).toBeGreaterThanOrEqual(2);
    }
    expect(acknowledged.size).toBeGreaterThan(0);
    const log = readFileSync(`${dataDir}/content-writes.ndjson`, 'utf8');
    expect(log.length).toBeGreaterThan(0);
  } finally {
    server.child.kill('SIGKILL');
  }
});
