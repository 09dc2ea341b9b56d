import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testDatabaseKinds } from '~/db/test-support';
import { ensureAccount } from '~/portal/accounts.server';
import { sendDueMail } from '~/portal/mail-queue.server';
import { requestCode, verifyCode } from '~/portal/signin.server';
import { createTestWorld, type TestWorld } from '~/portal/test-support';
import { createLakeHandler } from './api.server';
import {
  addEditor,
  DEMO_EDITOR,
  editorFromRequest,
  editorOfToken,
  listEditors,
  prepareDemoEditor,
  removeEditor,
  requestEditorCode,
  signOutEditor,
  studioReturn,
  studioSignInFormOrigins,
  verifyEditorCode,
} from './editors.server';

/**
 * The local Content Lake's editors (ADR 0025): accounts an operator adds, an emailed code, a
 * session the Studio's token names. Each rule is tried as an attacker would, on both databases.
 */
describe.each(testDatabaseKinds())('editors of the local lake (%s)', (kind) => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await createTestWorld({ database: kind });
    await addEditor('Editor@Example.com', 'Eda Editor');
    await ensureAccount({
      customerId: 'cus_demo1',
      email: 'client@example.com',
      name: 'Layla Haddad',
      company: null,
      locale: 'en',
    });
    // The first database of a run takes a while to open on a busy machine.
  }, 60_000);
  afterEach(async () => {
    // What each request left to do off its path (an email, the sweep of expired rows) first.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await world?.close();
  });

  const form = (fields: Record<string, string>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.set(k, v);
    return f;
  };
  let ipCounter = 0;
  /** A browser: its own IP and cookie jar. */
  function browser() {
    const ip = `203.0.113.${++ipCounter}`;
    let jar = '';
    const post = (path: string) =>
      new Request(`https://site.example${path}`, {
        method: 'POST',
        headers: { 'x-bawaba-client-ip': ip, ...(jar ? { Cookie: jar } : {}) },
      });
    const keep = <T extends object>(result: T): T => {
      const set = 'headers' in result && result.headers instanceof Headers ? result.headers.getSetCookie() : [];
      const cookies = new Map(jar ? jar.split('; ').map((c) => c.split('=', 2) as [string, string]) : []);
      for (const c of set) {
        const [pair] = c.split(';');
        const at = pair.indexOf('=');
        if (/Max-Age=0/i.test(c)) cookies.delete(pair.slice(0, at));
        else cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
      jar = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      return result;
    };
    return {
      ask: async (email: string, locale: 'en' | 'ar' = 'en') =>
        keep(await requestEditorCode(post('/studio/sign-in'), form({ email }), locale)),
      verify: async (code: string) => keep(await verifyEditorCode(post('/studio/sign-in'), form({ code }))),
      /** Posts what the emailed link's page posts (its `c` and `code`). */
      follow: async (link: string) => {
        const url = new URL(link);
        const fields = { c: url.searchParams.get('c') ?? '', code: url.searchParams.get('code') ?? '' };
        return keep(await verifyEditorCode(post(url.pathname), form(fields)));
      },
      askPortal: async (email: string) => keep(await requestCode(post('/account'), form({ email }), 'en')),
      verifyPortal: async (code: string) => keep(await verifyCode(post('/account/verify'), form({ code }), 'en')),
      get jar() {
        return jar;
      },
    };
  }
  const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)![1];
  async function mailTo(address: string, count: number) {
    await vi.waitFor(() => expect(world.sent.filter((m) => m.to === address)).toHaveLength(count));
    return world.sent.filter((m) => m.to === address);
  }
  const bearer = (token: string) =>
    new Request('https://lake.example/users/me', { headers: { Authorization: `Bearer ${token}` } });
  async function signIn(email = 'editor@example.com') {
    const b = browser();
    const before = world.sent.filter((m) => m.to === email).length;
    expect((await b.ask(email)).status).toBe('sent');
    const [mail] = (await mailTo(email, before + 1)).slice(-1);
    const result = await b.verify(codeIn(mail.text));
    if (result.status !== 'signed-in') throw new Error(`not signed in: ${result.status}`);
    return result.token;
  }

  it('an editor asks for a code, gets it by email, and the token it gives names them (32+ characters for the Studio)', async () => {
    const b = browser();
    expect((await b.ask(' EDITOR@example.com ', 'ar')).status).toBe('sent');
    const [mail] = await mailTo('editor@example.com', 1);
    expect(mail.subject).toContain('الاستوديو');
    expect(mail.text).toContain('Eda Editor');
    const code = codeIn(mail.text);
    // The code is in the body only: a subject shows on a locked phone's notifications.
    expect(mail.subject).not.toMatch(/\d/);
    // The code is never stored.
    const stored = JSON.stringify((await world.database.db.execute(sql`select * from signin_codes`)).rows);
    expect(stored).not.toContain(code);
    const result = await b.verify(code);
    expect(result.status).toBe('signed-in');
    const token = result.status === 'signed-in' ? result.token : '';
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(await editorFromRequest(bearer(token))).toMatchObject({ email: 'editor@example.com', name: 'Eda Editor' });
    // Neither the token: the session row keeps its sha256.
    const sessions = JSON.stringify((await world.database.db.execute(sql`select * from lake_editor_sessions`)).rows);
    expect(sessions).not.toContain(token.slice(4));
    // A code signs in once.
    expect((await b.verify(code)).status).toBe('expired');
  });

  const linkIn = (text: string) => /https?:\/\/\S+\/studio\/sign-in\?c=\S+/.exec(text)?.[0] ?? '';

  it('guesses are bounded per address whatever the IPs and browsers: six attackers holding 30 codes get 10 code checks in 24 hours, then typed codes are locked', async () => {
    const attackers = Array.from({ length: 6 }, browser);
    for (const a of attackers)
      for (let i = 0; i < 5; i++) expect((await a.ask('editor@example.com')).status).toBe('sent');
    const mails = await mailTo('editor@example.com', 30);
    const codes = new Set(mails.map((m) => codeIn(m.text)));
    const guess = ['000000', '111111', '222222', '333333', '444444'].find((g) => !codes.has(g))!;
    // Each guess is checked against the five live codes its browser holds: a wrong answer is five code checks.
    let checks = 0;
    const answers: string[] = [];
    for (let round = 0; round < 5; round++)
      for (const a of attackers) {
        const r = await a.verify(guess);
        answers.push(r.status);
        if (r.status === 'wrong-code') checks += 5;
      }
    expect(checks).toBeLessThanOrEqual(10);
    expect(answers.filter((a) => a === 'wrong-code')).toHaveLength(2);
    expect(answers.slice(2).every((a) => a === 'locked' || a === 'expired')).toBe(true);
    // Once locked, even a right code typed in is refused unchecked: guessing is over for the day.
    expect((await attackers[0]!.verify(codeIn(mails[0]!.text))).status).toMatch(/locked|expired/);
  });

  it('a flood of requests cannot shut the editor out: the mailbox owner signs in with any emailed link, once, and that spends the codes the flood holds', async () => {
    // 30 requests from six IPs fill the address's hourly cap: the owner's own request is refused…
    const attackers = Array.from({ length: 6 }, browser);
    for (const a of attackers) for (let i = 0; i < 5; i++) await a.ask('editor@example.com');
    const owner = browser();
    expect((await owner.ask('editor@example.com')).status).toBe('rate-limited');
    // …and the typed codes' budget is spent by guessing…
    for (const a of attackers) await a.verify('000000');
    const mails = await mailTo('editor@example.com', 30);
    // …but every email carries a one-click link (English and Arabic alike), and any of them lets the owner in.
    const link = linkIn(mails[17]!.text);
    expect(link).toMatch(/^https?:\/\/[^/]+\/studio\/sign-in\?c=[A-Za-z0-9]+&code=\d{6}$/);
    const signedIn = await owner.follow(link);
    expect(signedIn.status).toBe('signed-in');
    if (signedIn.status !== 'signed-in') return;
    expect(signedIn.next).toBe('/studio');
    expect(await editorFromRequest(bearer(signedIn.token))).toMatchObject({ email: 'editor@example.com' });
    // Single use: the same link again (or from another browser) is refused.
    expect((await browser().follow(link)).status).toBe('expired');
    // The codes the flood asked for are spent: even the right one, typed by the browser that holds it.
    expect((await attackers[0]!.verify(codeIn(mails[0]!.text))).status).toMatch(/expired|locked/);
    // A link is its audience's only: an editor's link posted to the portal signs no one in.
    const other = linkIn(mails[20]!.text).replace('/studio/sign-in', '/account/verify');
    const url = new URL(other);
    const portal = await verifyCode(
      new Request(url, { method: 'POST', headers: { 'x-bawaba-client-ip': '198.51.100.9' } }),
      form({ c: url.searchParams.get('c')!, code: url.searchParams.get('code')! }),
      'en',
    );
    expect(portal.status).toBe('expired');
  });

  it('the emailed link leads back to the Studio that asked (on a loopback site, the development Studio), never elsewhere', async () => {
    const askFrom = async (origin: string, locale: 'en' | 'ar') => {
      const ask = new Request(`https://site.example/studio/sign-in?origin=${encodeURIComponent(origin)}`, {
        method: 'POST',
        headers: { 'x-bawaba-client-ip': '198.51.100.20' },
      });
      expect((await requestEditorCode(ask, form({ email: 'editor@example.com' }), locale)).status).toBe('sent');
    };
    await askFrom('https://evil.example/studio', 'ar');
    await askFrom('http://localhost:3333/', 'en');
    const mails = await mailTo('editor@example.com', 2);
    expect(mails[0]!.text).toContain('/ar/studio/sign-in?c=');
    const first = await browser().follow(linkIn(mails[0]!.text));
    expect(first.status === 'signed-in' && first.next).toBe('/studio');
    const second = await browser().follow(linkIn(mails[1]!.text));
    expect(second.status === 'signed-in' && second.next).toBe('http://localhost:3333/');
  });

  it('an address that is no editor’s (a client’s or a stranger’s) gets the same answer and no email', async () => {
    const stranger = browser();
    const client = browser();
    const editor = browser();
    const answers = [
      await stranger.ask('nobody@example.com'),
      await client.ask('client@example.com'),
      await editor.ask('editor@example.com'),
    ];
    expect(answers.map((a) => a.status)).toEqual(['sent', 'sent', 'sent']);
    expect(answers.map((a) => (a.status === 'sent' ? a.headers.getSetCookie().length : 0))).toEqual([1, 1, 1]);
    await mailTo('editor@example.com', 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await sendDueMail();
    expect(world.sent.map((m) => m.to)).toEqual(['editor@example.com']);
    // Tries count the same way for them.
    const run = async (b: ReturnType<typeof browser>) => {
      const out: string[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await b.verify('000000');
        out.push(r.status === 'wrong-code' ? `wrong ${r.triesLeft}` : r.status);
      }
      return out;
    };
    expect(await run(stranger)).toEqual(['wrong 4', 'wrong 3', 'wrong 2']);
    expect(await run(client)).toEqual(['wrong 4', 'wrong 3', 'wrong 2']);
  });

  it('wrong codes are limited: five tries, then even the right code is refused', async () => {
    const b = browser();
    await b.ask('editor@example.com');
    const code = codeIn((await mailTo('editor@example.com', 1))[0].text);
    const wrong = code === '000000' ? '111111' : '000000';
    const out: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await b.verify(wrong);
      out.push(r.status === 'wrong-code' ? `wrong ${r.triesLeft}` : r.status);
    }
    expect(out).toEqual(['wrong 4', 'wrong 3', 'wrong 2', 'wrong 1', 'expired']);
    expect((await b.verify(code)).status).toBe('expired');
    // Another browser cannot spend or use this browser's code.
    const other = browser();
    expect((await other.verify(code)).status).toBe('expired');
  });

  it('asking for codes is limited per address and IP', async () => {
    const b = browser();
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await b.ask('editor@example.com')).status);
    expect(statuses).toEqual(['sent', 'sent', 'sent', 'sent', 'sent', 'rate-limited']);
    await mailTo('editor@example.com', 5);
  });

  it("a client's portal code or session never works for the lake, and an editor's code never signs in to the portal", async () => {
    const layla = browser();
    await layla.askPortal('client@example.com');
    await sendDueMail();
    const portalCode = codeIn((await mailTo('client@example.com', 1))[0].text);
    // The portal's code typed on the editors' page: no pending editor sign-in in this browser.
    expect((await layla.verify(portalCode)).status).toBe('expired');
    // Even with an editor's sign-in pending for the client's address.
    await layla.ask('client@example.com');
    expect((await layla.verify(portalCode)).status).not.toBe('signed-in');
    // The client's session, in every form a Studio could send it.
    const client = browser();
    await client.askPortal('client@example.com');
    await sendDueMail();
    const code = codeIn((await mailTo('client@example.com', 2))[1].text);
    expect((await client.verifyPortal(code)).status).toBe('signed-in');
    const cookie = /__client=([^;]+)/.exec(client.jar)![1];
    const sessionId = (
      JSON.parse(Buffer.from(decodeURIComponent(cookie).split('.')[0], 'base64').toString()) as { s: string }
    ).s;
    for (const token of [
      cookie,
      decodeURIComponent(cookie),
      sessionId,
      `lk1.${sessionId}`,
      `lk1.${sessionId.padEnd(43, 'x')}`,
    ])
      expect(await editorFromRequest(bearer(token)), token).toBeNull();

    // An editor's emailed code on the portal's page: refused.
    const eda = browser();
    await eda.ask('editor@example.com');
    const editorCode = codeIn((await mailTo('editor@example.com', 1))[0].text);
    await eda.askPortal('editor@example.com');
    expect((await eda.verifyPortal(editorCode)).status).not.toBe('signed-in');
  });

  it("a removed editor's token stops working at once, and their code too; removing them signs them out", async () => {
    const token = await signIn();
    expect(await editorOfToken(token)).not.toBeNull();
    const b = browser();
    await b.ask('editor@example.com');
    const code = codeIn((await mailTo('editor@example.com', 2))[1].text);
    expect(await removeEditor('editor@example.com')).toBe(true);
    expect(await editorOfToken(token)).toBeNull();
    expect((await b.verify(code)).status).not.toBe('signed-in');
    // Added again: the old token is still worth nothing.
    await addEditor('editor@example.com', 'Eda Editor');
    expect(await editorOfToken(token)).toBeNull();
  });

  it('the demo editor exists on a loopback site, and a public site removes it with its sessions', async () => {
    // The fixture's editor is the demo editor's address: renamed, the start keeps the name it has.
    expect(await prepareDemoEditor(true)).toBe('kept');
    expect(await listEditors()).toEqual([{ email: DEMO_EDITOR.email, name: 'Eda Editor' }]);
    const token = await signIn(DEMO_EDITOR.email);
    // The same data folder started as a public site: no demo editor, its Studio signed out.
    expect(await prepareDemoEditor(false)).toBe('removed');
    expect(await listEditors()).toEqual([]);
    expect(await editorOfToken(token)).toBeNull();
    const b = browser();
    expect((await b.ask(DEMO_EDITOR.email)).status).toBe('sent');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(world.sent.filter((m) => m.to === DEMO_EDITOR.email)).toHaveLength(1); // the sign-in's only
    expect(await prepareDemoEditor(false)).toBe('none');
    // Back on this machine only: seeded afresh, and an operator's editors are left as they are.
    await addEditor('tala@example.com', 'Tala');
    expect(await prepareDemoEditor(true)).toBe('seeded');
    expect((await listEditors()).map((e) => e.email).sort()).toEqual([DEMO_EDITOR.email, 'tala@example.com']);
  });

  it('an expired token is refused, and so is the old signed token form and a forged one', async () => {
    const token = await signIn();
    await world.database.db.execute(sql`update lake_editor_sessions set expires_at = now() - interval '1 second'`);
    expect(await editorOfToken(token)).toBeNull();
    const fresh = await signIn();
    expect(await editorOfToken(fresh)).not.toBeNull();
    expect(await editorOfToken(`${fresh.slice(0, -1)}${fresh.endsWith('a') ? 'b' : 'a'}`)).toBeNull();
    expect(
      await editorOfToken(
        `ed1.${Buffer.from('{"e":"editor@example.com","x":9999999999999}').toString('base64url')}.${'x'.repeat(43)}`,
      ),
    ).toBeNull();
  });

  it('signing out in the Studio (POST /auth/logout) ends the session; the lake answers 401 after', async () => {
    const token = await signIn();
    const handle = createLakeHandler({
      store: { onCommit: () => {} } as never,
      projectId: 'p',
      dataset: 'production',
      authenticate: editorFromRequest,
      signOut: signOutEditor,
      allowedOrigins: () => false,
    });
    const call = async (method: string, path: string) => {
      let status = 0;
      let body = '';
      const res = {
        setHeader() {},
        hasHeader: () => false,
        writeHead(s: number) {
          status = s;
        },
        end(chunk?: string | Buffer) {
          body += chunk ? String(chunk) : '';
        },
        write(chunk: string | Buffer) {
          body += String(chunk);
        },
        get statusCode() {
          return status;
        },
        set statusCode(s: number) {
          status = s;
        },
      };
      await handle({ method, url: path, headers: { authorization: `Bearer ${token}` } } as never, res as never);
      return { status, body };
    };
    const me = await call('GET', '/v2025-02-19/users/me');
    expect(JSON.parse(me.body)).toMatchObject({ email: 'editor@example.com' });
    expect((await call('POST', '/v2025-02-19/auth/logout')).status).toBe(200);
    expect(JSON.parse((await call('GET', '/v2025-02-19/users/me')).body)).toEqual({});
    expect((await call('GET', '/v2025-02-19/data/query/production?query=*')).status).toBe(401);
  });
});

describe('where a signed-in editor is sent with their token', () => {
  const site = 'https://www.bawaba.example';
  const dev = 'http://localhost:3000';
  const from = (origin: string) =>
    new Request(`https://www.bawaba.example/studio/sign-in?origin=${encodeURIComponent(origin)}&type=token`);
  it('back to the Studio that sent them: the site’s /studio, or for a loopback site `sanity dev` on this machine', () => {
    expect(studioReturn(from('https://www.bawaba.example/studio/structure/post'), site)).toBe('/studio/structure/post');
    expect(studioReturn(new Request('https://www.bawaba.example/studio/sign-in'), site)).toBe('/studio');
    expect(studioReturn(from('http://localhost:3333/structure'), dev)).toBe('http://localhost:3333/structure');
    expect(studioReturn(from('http://127.0.0.1:3333/'), dev)).toBe('http://127.0.0.1:3333/');
  });
  it.each([
    ['another site', 'https://evil.example/studio', site],
    ['a look-alike host', 'https://www.bawaba.example.evil.example/studio', site],
    ['credentials in the address', 'https://www.bawaba.example@evil.example/studio', site],
    ['the site but not its Studio', 'https://www.bawaba.example/account', site],
    ['a scheme-relative address', '//evil.example/studio', site],
    ['a script', 'javascript:alert(1)//studio', site],
    ['the development Studio, from a public site', 'http://localhost:3333/', site],
    ['another local port', 'http://localhost:4444/', dev],
  ])('never to %s: the site’s /studio instead', (_name, origin, settings) => {
    expect(studioReturn(from(origin), settings)).toBe('/studio');
  });
  it('only the sign-in page of a loopback site may post on to the development Studio (its CSP form-action)', () => {
    expect(studioSignInFormOrigins('/studio/sign-in', dev)).toEqual(['http://localhost:3333', 'http://127.0.0.1:3333']);
    expect(studioSignInFormOrigins('/ar/studio/sign-in', dev)).toHaveLength(2);
    expect(studioSignInFormOrigins('/account', dev)).toEqual([]);
    expect(studioSignInFormOrigins('/studio/sign-in', site)).toEqual([]);
  });
});
