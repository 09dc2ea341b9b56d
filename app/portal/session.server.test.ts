import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { installDatabase, openTestDatabase } from '~/db/test-support';
import type { Database } from '~/db/types.server';

/**
 * The portal's cookies carry the `__Host-` prefix over HTTPS (issue 28): a browser then accepts
 * them only when Secure, for this host alone and path `/`, so no subdomain or plain-HTTP page
 * can set or shadow a client's session. On plain HTTP (development, tests) the bare name stays.
 */
const saved = { ...process.env };
let database: Database;
beforeAll(async () => {
  database = await openTestDatabase('pglite');
  installDatabase(database);
});
afterAll(async () => {
  installDatabase(undefined);
  await database.close();
});
afterEach(() => {
  process.env = { ...saved };
  vi.resetModules();
});

const account = { customerId: 'cus_test0001' };

async function sessionModule(env: Record<string, string>) {
  vi.resetModules();
  process.env = { ...saved, SESSION_SECRET: 'session-test-secret-0123456789abcdefghij', ...env };
  const { ensureAccount } = await import('./accounts.server');
  await ensureAccount({
    customerId: account.customerId,
    email: 'c@example.com',
    name: 'C',
    company: null,
    locale: 'en',
  });
  return import('./session.server');
}

describe('portal cookies', () => {
  it('over HTTPS in production: __Host-client, Secure, Path=/, no Domain', async () => {
    const { startSession } = await sessionModule({ NODE_ENV: 'production', SITE_URL: 'https://www.example.com' });
    const header = await startSession(account);
    expect(header).toMatch(/^__Host-client=/);
    expect(header).toMatch(/; Secure/i);
    expect(header).toMatch(/; Path=\/(;|$)/);
    expect(header).not.toMatch(/Domain=/i);
  });

  it('on plain HTTP: __client (a __Host- cookie without Secure would be dropped)', async () => {
    const { startSession } = await sessionModule({ NODE_ENV: 'production', SITE_URL: 'http://127.0.0.1:3000' });
    const header = await startSession(account);
    expect(header).toMatch(/^__client=/);
    expect(header).not.toMatch(/Secure/i);
  });
});

describe('the signed-in hint (a label for the public header, never a credential)', () => {
  it('sits beside the session: readable by scripts, no secret, same lifetime, path and SameSite; Secure over HTTPS', async () => {
    const { signedInHintCookie, SESSION_DAYS } = await sessionModule({
      NODE_ENV: 'production',
      SITE_URL: 'https://www.example.com',
    });
    const header = signedInHintCookie(true);
    expect(header).toMatch(/^signed_in=1; /);
    expect(header).not.toMatch(/HttpOnly/i);
    expect(header).toContain(`Max-Age=${SESSION_DAYS * 24 * 60 * 60}`);
    expect(header).toMatch(/; Path=\/(;|$)/);
    expect(header).toMatch(/; SameSite=Lax/);
    expect(header).toMatch(/; Secure$/);
    expect(signedInHintCookie(false)).toMatch(/^signed_in=; Max-Age=0; /);
  });

  it('opens nothing: a request with the hint and no session has no client, and is told to drop the hint', async () => {
    const { readSession, staleSessionCookies } = await sessionModule({ NODE_ENV: 'test', SITE_URL: 'http://x.test' });
    const request = new Request('http://x.test/account', { headers: { Cookie: 'signed_in=1' } });
    expect(await readSession(request)).toBeNull();
    expect(await staleSessionCookies(request)).toEqual([expect.stringMatching(/^signed_in=; Max-Age=0;/)]);
    expect(await staleSessionCookies(new Request('http://x.test/account'))).toEqual([]);
  });
});
