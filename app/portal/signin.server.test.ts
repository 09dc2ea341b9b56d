import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureAccount, getAccount, updateAccount } from './accounts.server';
import { readSession } from './session.server';
import { requestCode, verifyCode } from './signin.server';
import { createTestWorld, type TestWorld } from './test-support';

let world: TestWorld;
beforeEach(async () => {
  world = await createTestWorld();
  await ensureAccount({
    customerId: 'cus_demo1',
    email: 'Client@Example.com',
    name: 'Layla Haddad',
    company: 'Haddad Trading LLC',
    locale: 'en',
  });
});
afterEach(() => world.close());

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};
let ip = 0;
const post = (path: string, cookie?: string) =>
  new Request(`https://site.example${path}`, {
    method: 'POST',
    headers: { 'x-bawaba-client-ip': `198.51.100.${++ip % 250}`, ...(cookie ? { Cookie: cookie } : {}) },
  });
const cookiesOf = (headers: Headers) =>
  headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
const lastCode = () => /\b(\d{6})\b/.exec(world.sent.at(-1)?.text ?? '')?.[1];

describe('passwordless sign-in', () => {
  it('emails a code and a link to a client, and the code signs in exactly once', async () => {
    const asked = await requestCode(post('/account'), form({ email: ' client@example.com ' }), 'en');
    expect(asked.status).toBe('sent');
    expect(world.sent).toHaveLength(1);
    expect(world.sent[0].to).toBe('client@example.com');
    const code = lastCode()!;
    expect(code).toMatch(/^\d{6}$/);
    expect(world.sent[0].text).toContain('/account/verify?c=');
    // The code is stored hashed: the store never holds it in clear once the email is out.
    const stored = JSON.stringify(await world.store.queryPrivate('*[_type in ["portal.code", "portal.mail"]]'));
    expect(stored).not.toContain(code);

    const pending = cookiesOf((asked as { headers: Headers }).headers);
    const ok = await verifyCode(post('/account/verify', pending), form({ code }), 'en');
    expect(ok.status).toBe('signed-in');
    const session = cookiesOf((ok as { headers: Headers }).headers);
    const client = await readSession(new Request('https://site.example/account', { headers: { Cookie: session } }));
    expect(client?.account.customerId).toBe('cus_demo1');
    // Used: the same code again is refused.
    expect((await verifyCode(post('/account/verify', pending), form({ code }), 'en')).status).not.toBe('signed-in');
  });

  it('answers the same for an address without an account, sends nothing, and counts tries the same way', async () => {
    const asked = await requestCode(post('/account'), form({ email: 'nobody@example.com' }), 'en');
    expect(asked.status).toBe('sent');
    expect(world.sent).toHaveLength(0);
    const known = await requestCode(post('/account'), form({ email: 'client@example.com' }), 'en');
    const unknownCookie = cookiesOf((asked as { headers: Headers }).headers);
    const knownCookie = cookiesOf((known as { headers: Headers }).headers);
    const tries = async (cookie: string) => {
      const out = [];
      for (let i = 0; i < 5; i++) {
        const r = await verifyCode(
          post('/account/verify', cookie),
          form({ code: '000000' === lastCode() ? '111111' : '000000' }),
          'en',
        );
        out.push(r.status === 'wrong-code' ? `wrong ${r.triesLeft}` : r.status);
      }
      return out;
    };
    const expected = ['wrong 4', 'wrong 3', 'wrong 2', 'wrong 1', 'expired'];
    expect(await tries(unknownCookie)).toEqual(expected);
    expect(await tries(knownCookie)).toEqual(expected);
  });

  it('the link signs in only through its POST, once, even when clicked twice at the same moment', async () => {
    await requestCode(post('/account'), form({ email: 'client@example.com', next: '/ar/account/subscription' }), 'ar');
    const link = /https?:\/\/\S+verify\?c=([A-Za-z0-9]+)&code=(\d{6})/.exec(world.sent[0].text)!;
    expect(link).toBeTruthy();
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        verifyCode(post('/ar/account/verify'), form({ c: link[1], code: link[2] }), 'ar'),
      ),
    );
    const signedIn = results.filter((r) => r.status === 'signed-in');
    expect(signedIn).toHaveLength(1);
    expect((signedIn[0] as { redirectTo: string }).redirectTo).toBe('/ar/account/subscription');
  });

  it('expires codes after 10 minutes', async () => {
    const asked = await requestCode(post('/account'), form({ email: 'client@example.com' }), 'en');
    const code = lastCode()!;
    const id = (await world.store.queryPrivate<string[]>('*[_type == "portal.code"]._id'))[0];
    const doc = await world.store.getDocument(id);
    await world.store.mutate([{ patch: { id, ifRevisionID: doc!._rev, set: { expiresAt: Date.now() - 1 } } }]);
    const r = await verifyCode(
      post('/account/verify', cookiesOf((asked as { headers: Headers }).headers)),
      form({ code }),
      'en',
    );
    expect(r.status).not.toBe('signed-in');
  });

  it('never sends people elsewhere after sign-in: only portal paths', async () => {
    for (const next of ['https://evil.example/', '//evil.example', '/blog', '/\\evil']) {
      await requestCode(post('/account'), form({ email: 'client@example.com', next }), 'en');
      const link = /verify\?c=([A-Za-z0-9]+)&code=(\d{6})/.exec(world.sent.at(-1)!.text)!;
      const r = await verifyCode(post('/account/verify'), form({ c: link[1], code: link[2] }), 'en');
      expect(r).toMatchObject({ status: 'signed-in', redirectTo: '/account' });
    }
  });

  it('limits code requests per address', async () => {
    const statuses = [];
    for (let i = 0; i < 7; i++)
      statuses.push((await requestCode(post('/account'), form({ email: 'client@example.com' }), 'en')).status);
    expect(statuses.filter((s) => s === 'sent')).toHaveLength(5);
    expect(statuses.at(-1)).toBe('rate-limited');
  });

  it('signing out everywhere ends every session of the account', async () => {
    const asked = await requestCode(post('/account'), form({ email: 'client@example.com' }), 'en');
    const ok = await verifyCode(
      post('/account/verify', cookiesOf((asked as { headers: Headers }).headers)),
      form({ code: lastCode()! }),
      'en',
    );
    const session = cookiesOf((ok as { headers: Headers }).headers);
    const read = () => readSession(new Request('https://site.example/account', { headers: { Cookie: session } }));
    expect(await read()).not.toBeNull();
    await updateAccount('cus_demo1', (a) => ({ sessionEpoch: a.sessionEpoch + 1 }));
    expect(await read()).toBeNull();
    expect((await getAccount('cus_demo1'))?.sessionEpoch).toBe(1);
  });
});
