import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { resourceRoutes, routeTable } from '../../app/route-table.js';
import { at, LOCALES, type Locale } from './helpers';
import { kill, startOwnServer, type OwnServer } from './own-server';
import { outbox, uniqueEmail, waitForMail } from './portal-helpers';

/**
 * Issue 28, item 2: nothing personal is ever sent as cacheable. Against a real server (its own,
 * with its own database, so the sign-in limits of the shared portal server are not used up), as
 * the signed-in demo client: every route of the route table, in both languages, as a document
 * and as its single-fetch `.data` twin. A private route (`private: true` in the table) answers
 * `private, no-store` whoever asks; any answer that sets a cookie does too; no answer that
 * carries the client's email is ever `public`. The redirects of sign-in, sign-out and checkout,
 * and the resource routes that set cookies (preview), are checked the same way.
 */
const PORT = Number(process.env.E2E_PORT ?? 3210) + 540;
const DIR = `.cache/e2e/private-caching-${PORT}`;
const PREVIEW_SECRET = 'private-caching-preview-secret-01';
const EMAIL = 'client@example.com';
const PRIVATE = 'private, no-store';

let server: OwnServer;

// In order, in one worker (one server); a failing test does not skip the next.
test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  execFileSync(process.execPath, ['tests/e2e/prepare.mjs', DIR], { stdio: 'ignore' });
  server = await startOwnServer(PORT, DIR, { NODE_ENV: 'production', PREVIEW_SECRET });
});

test.afterAll(async () => {
  if (server) await kill(server);
});

/** Cookies as a browser keeps them: by name, dropped when cleared. */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...rest] = pair!.split('=');
      const value = rest.join('=');
      if (!value || /;\s*max-age=0\b/i.test(line) || /;\s*expires=Thu, 01 Jan 1970/i.test(line))
        this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
  }
  has(name: string) {
    return this.cookies.has(name);
  }
  get header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

type Answer = { label: string; status: number; headers: Headers; body: string };

async function send(
  path: string,
  { jar, form, expectPrivate = false }: { jar?: Jar; form?: Record<string, string>; expectPrivate?: boolean } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (jar?.header) headers.Cookie = jar.header;
  if (form) {
    headers.Origin = server.base;
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  }
  const response = await fetch(`${server.base}${path}`, {
    method: form ? 'POST' : 'GET',
    headers,
    body: form ? new URLSearchParams(form).toString() : undefined,
    redirect: 'manual',
  });
  const answer = {
    label: `${form ? 'POST' : 'GET'} ${path}${jar?.header ? ' (with cookies)' : ''} -> ${response.status}`,
    status: response.status,
    headers: response.headers,
    body: await response.text(),
  };
  jar?.take(response);
  checkAnswer(answer, expectPrivate);
  return answer;
}

/**
 * The rules every answer of this test is held to (soft, so one run lists every answer that
 * breaks them): a private one is `private, no-store` and says `Vary: Cookie`; one that sets a
 * cookie is `private, no-store`; one that carries the client's email is never `public`.
 */
function checkAnswer({ label, headers, body }: Answer, expectPrivate: boolean) {
  const cacheControl = headers.get('cache-control');
  if (expectPrivate) {
    expect.soft(cacheControl, `${label}: a private route`).toBe(PRIVATE);
    expect.soft(headers.get('vary') ?? '', `${label}: a private route varies by cookie`).toMatch(/\bCookie\b/i);
  }
  if (headers.getSetCookie().length) expect.soft(cacheControl, `${label}: sets a cookie`).toBe(PRIVATE);
  if (body.includes(EMAIL))
    expect.soft(cacheControl ?? '', `${label}: carries the client's email`).not.toMatch(/\bpublic\b|s-maxage/);
}

/** A concrete path for a route of the table: its parameters filled in. */
function pathOf(route: (typeof routeTable)[number], params: Record<string, string>): string {
  if (route.index) return '/';
  return `/${route.path!.replace(/:(\w+)\??/g, (_, name: string) => params[name] ?? 'any-slug')}`;
}

/** The single-fetch data URL of a page, as Remix's browser code asks for it. */
const dataPath = (path: string) => (path === '/' ? '/_root.data' : `${path.replace(/\/$/, '')}.data`);

/** Signs the demo client in through the emailed code: documents in English, data requests in Arabic. */
async function signIn(jar: Jar, locale: Locale) {
  const before = outbox(DIR, EMAIL).length;
  const asData = locale === 'ar';
  const account = at(locale, '/account');
  const requested = await send(asData ? dataPath(account) : account, {
    jar,
    form: { intent: 'request-code', email: EMAIL },
    expectPrivate: true,
  });
  expect(requested.status, requested.label).toBe(asData ? 202 : 302);
  expect(jar.has('__signin'), 'the sign-in step cookie').toBe(true);
  const mail = await waitForMail(DIR, EMAIL, /\b\d{6}\b/, before);
  const code = /\b(\d{6})\b/.exec(mail.text)![1]!;
  const verify = at(locale, '/account/verify');
  const verified = await send(asData ? dataPath(verify) : verify, { jar, form: { code }, expectPrivate: true });
  expect(verified.status, verified.label).toBe(asData ? 202 : 302);
  expect(jar.has('__client'), 'the session cookie').toBe(true);
}

test('every route of the table, both languages, document and data: nothing personal is cacheable', async () => {
  test.setTimeout(180_000);
  const en = new Jar();
  const ar = new Jar();
  await signIn(en, 'en');
  await signIn(ar, 'ar');

  // A real invoice of the demo client, from its subscription page.
  const subscription = await send('/account/subscription', { jar: en, expectPrivate: true });
  expect(subscription.status, subscription.label).toBe(200);
  const invoiceId = /\/account\/invoices\/([A-Za-z0-9_-]+)/.exec(subscription.body)?.[1];
  expect(invoiceId, 'an invoice link on the subscription page').toBeTruthy();

  // A checkout of the signed-in client: Subscribe on the pricing page (a post that redirects).
  const subscribed = await send('/pricing', { jar: en, form: { intent: 'subscribe', plan: 'starter' } });
  expect(subscribed.status, subscribed.label).toBe(302);
  expect.soft(subscribed.headers.get('cache-control'), `${subscribed.label}: the subscribe redirect`).toBe(PRIVATE);
  const checkoutId = /\/checkout\/([^/?#]+)/.exec(subscribed.headers.get('location') ?? '')?.[1];
  expect(checkoutId, 'the subscribe redirect goes to a checkout').toBeTruthy();
  const subscribedAsData = await send('/ar/pricing.data', { jar: ar, form: { intent: 'subscribe', plan: 'starter' } });
  expect.soft(subscribedAsData.headers.get('cache-control'), `${subscribedAsData.label}: the redirect`).toBe(PRIVATE);

  const params: Record<string, string> = { invoiceId: invoiceId!, checkoutId: checkoutId! };
  let privateRoutes = 0;
  for (const route of routeTable) {
    const isPrivate = route.private === true;
    if (isPrivate) privateRoutes++;
    for (const locale of LOCALES) {
      const page = at(locale, pathOf(route, params));
      const jar = locale === 'en' ? en : ar;
      for (const path of [page, dataPath(page)]) {
        const signedIn = await send(path, { jar, expectPrivate: isPrivate });
        expect(signedIn.status, signedIn.label).toBeLessThan(500);
        // A private route is private for visitors too (the sign-in form, the redirect to it).
        if (isPrivate) await send(path, { expectPrivate: true });
      }
    }
  }
  expect(privateRoutes, 'the route table marks the portal routes private').toBeGreaterThanOrEqual(6);

  // The signed-in overview carries the client's name, email and form token: private, in both
  // forms, and at every spelling of its path the router accepts (any case, percent-encoded).
  for (const path of [
    '/account',
    '/account.data',
    '/ar/account',
    '/ar/account.data',
    '/ACCOUNT',
    '/Ar/Account.data',
    '/%61ccount.data',
  ]) {
    const answer = await send(path, { jar: /^\/ar\//i.test(path) ? ar : en, expectPrivate: true });
    expect(answer.body.includes(EMAIL), `${answer.label}: the overview shows the email`).toBe(true);
  }
});

test('sign-in, sign-out and checkout redirects, and cookie-setting resource routes, are private', async () => {
  test.setTimeout(90_000);
  const jar = new Jar();
  await signIn(jar, 'en');
  const overview = await send('/account', { jar, expectPrivate: true });
  const csrf = /name="csrf" value="([^"]+)"/.exec(overview.body)?.[1];
  expect(csrf, 'the overview carries the form token').toBeTruthy();
  const signedOut = await send('/account', { jar, form: { intent: 'sign-out', csrf: csrf! }, expectPrivate: true });
  expect(signedOut.status, signedOut.label).toBe(302);
  expect(jar.has('__client'), 'signed out').toBe(false);

  // A visitor subscribes and pays on the local checkout: each redirect of the flow is private.
  const visitor = new Jar();
  const started = await send('/ar/pricing', { jar: visitor, form: { intent: 'subscribe', plan: 'business' } });
  expect(started.status, started.label).toBe(302);
  expect.soft(started.headers.get('cache-control'), `${started.label}: the subscribe redirect`).toBe(PRIVATE);
  const checkout = started.headers.get('location')!;
  await send(checkout, { jar: visitor, expectPrivate: true });
  const payer = uniqueEmail('private-caching');
  const paid = await send(checkout, {
    jar: visitor,
    form: {
      email: payer,
      name: 'Private Caching',
      cardNumber: '4242 4242 4242 4242',
      expiry: '12/34',
      cvc: '123',
    },
    expectPrivate: true,
  });
  expect(paid.status, paid.label).toBe(302);
  // The payment waits for the address: the code emailed to it completes it and signs in.
  const mail = await waitForMail(DIR, payer, /\b\d{6}\b/);
  const confirmed = await send('/ar/account/verify', {
    jar: visitor,
    form: { code: /\b(\d{6})\b/.exec(mail.text)![1] },
    expectPrivate: true,
  });
  expect(confirmed.status, confirmed.label).toBe(302);
  expect(visitor.has('__client'), 'the new client is signed in').toBe(true);

  // Resource routes never reach Remix's entry: the server's last step applies the same rule.
  expect(resourceRoutes.map((r) => r.id)).toEqual(expect.arrayContaining(['api-preview', 'api-preview-exit']));
  const preview = new Jar();
  const entered = await send(`/api/preview?secret=${PREVIEW_SECRET}&redirect=/services`, { jar: preview });
  expect(entered.headers.getSetCookie().length, `${entered.label}: sets the preview cookie`).toBeGreaterThan(0);
  const left = await send('/api/preview/exit?redirect=/services', { jar: preview });
  expect(left.headers.getSetCookie().length, `${left.label}: clears the preview cookie`).toBeGreaterThan(0);
  const newsletter = await send('/api/newsletter', { form: { email: 'not-an-address', return_to: '/' } });
  expect.soft(newsletter.headers.get('cache-control'), `${newsletter.label}: a post`).toBe(PRIVATE);
});
