import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testDatabaseKinds } from '~/db/test-support';
import { ensureAccount } from './accounts.server';
import { derivedCode } from './crypto.server';
import { sendDueMail } from './mail-queue.server';
import { readSession } from './session.server';
import { signOut } from './service.server';
import { requestCode, verifyCode } from './signin.server';
import { createTestWorld, type TestWorld } from './test-support';

/**
 * Sign-in by emailed code, on both database kinds, with the attacks of issue 28 (items 5-8)
 * tried as an attacker would: each fails now.
 */
describe.each(testDatabaseKinds())('passwordless sign-in (%s)', (kind) => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await createTestWorld({ database: kind });
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
  /** A browser: its own IP and cookie jar. */
  let ipCounter = 0;
  function browser() {
    const ip = `198.51.100.${++ipCounter}`;
    let jar = '';
    const post = (path: string) =>
      new Request(`https://site.example${path}`, {
        method: 'POST',
        headers: { 'x-bawaba-client-ip': ip, ...(jar ? { Cookie: jar } : {}) },
      });
    const keep = <T extends object>(result: T): T => {
      const set = ('headers' in result && result.headers instanceof Headers ? result.headers.getSetCookie() : []) ?? [];
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
      ask: async (email: string, extra: Record<string, string> = {}) =>
        keep(await requestCode(post('/account'), form({ email, ...extra }), 'en')),
      verify: async (fields: Record<string, string>) =>
        keep(await verifyCode(post('/account/verify'), form(fields), 'en')),
      client: () => readSession(new Request('https://site.example/account', { headers: { Cookie: jar } })),
      signOut: async (everywhere = false) =>
        keep({
          headers: await signOut(new Request('https://site.example/account', { headers: { Cookie: jar } }), {
            everywhere,
          }),
        }),
      get jar() {
        return jar;
      },
    };
  }
  const outcome = (r: Awaited<ReturnType<typeof verifyCode>>) =>
    r.status === 'wrong-code' ? `wrong ${r.triesLeft}` : r.status;
  /** The mail sent so far, once the queue (sent off the request path) has settled. */
  async function mailTo(address: string, count: number) {
    await vi.waitFor(async () => {
      await sendDueMail();
      expect(world.sent.filter((m) => m.to === address)).toHaveLength(count);
    });
    return world.sent.filter((m) => m.to === address);
  }
  const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)![1];
  const linkIn = (text: string) => /verify\?c=([A-Za-z0-9]+)&code=(\d{6})/.exec(text)!;
  const notThe = (code: string) => (code === '000000' ? '111111' : '000000');
  /** A guess that is none of the live codes (so a test never signs in by luck). */
  const wrongGuess = async () => {
    const rows = await world.database.db.execute<{ id: string }>(sql`select id from signin_codes`);
    const codes = new Set(rows.rows.map((r) => derivedCode(r.id)));
    let n = 0;
    while (codes.has(String(n).padStart(6, '0'))) n++;
    return String(n).padStart(6, '0');
  };
  /** Moves every use of the addresses' typed-code budgets 24 hours into the past. */
  const aDayPasses = () =>
    world.database.db.execute(
      sql`update rate_limits set window_start = window_start - interval '24 hours', expires_at = expires_at - interval '24 hours' where kind = 'verify-address'`,
    );
  const dump = async (tables = ['signin_codes', 'mail_queue', 'sessions', 'accounts', 'rate_limits']) => {
    const rows = await Promise.all(
      tables.map((t) => world.database.db.execute(sql.raw(`select * from ${t}`)).then((r) => r.rows)),
    );
    return JSON.stringify(rows);
  };

  it('emails a code and a link; the code signs in once; no code or link is ever stored', async () => {
    const layla = browser();
    expect((await layla.ask(' client@example.com ')).status).toBe('sent');
    const [mail] = await mailTo('client@example.com', 1);
    const code = codeIn(mail.text);
    expect(mail.text).toContain('/account/verify?c=');
    expect(mail.text).toContain('Layla Haddad');
    const stored = await dump();
    expect(stored).not.toContain(code);
    expect(stored).not.toContain(linkIn(mail.text)[0]);

    expect((await layla.verify({ code })).status).toBe('signed-in');
    expect((await layla.client())?.account.customerId).toBe('cus_demo1');
    expect(await dump()).not.toContain(code);
    // Used: the same code again is refused.
    const other = browser();
    await other.ask('client@example.com');
    expect((await other.verify({ code })).status).not.toBe('signed-in');
  });

  it('reads a code as people paste it; what is not six digits is refused and spends nothing (issue 40)', async () => {
    const layla = browser();
    await layla.ask('client@example.com');
    const [mail] = await mailTo('client@example.com', 1);
    const code = codeIn(mail.text);
    // What a guess would count or spend (the code's email may still be marked sent meanwhile).
    const counted = ['signin_codes', 'sessions', 'accounts', 'rate_limits'];
    const before = await dump(counted);
    // Cut short (as a field's maxlength cut a paste), too long, or with a letter: no guess, nothing counted.
    for (const typed of [
      code.slice(0, 4),
      `${code.slice(0, 3)} ${code.slice(3, 5)}`,
      `${code}1`,
      `${code.slice(0, 5)}o`,
      '',
    ])
      for (let i = 0; i < 6; i++) expect(outcome(await layla.verify({ code: typed }))).toBe('malformed');
    expect(await dump(counted)).toBe(before);
    // Grouped, with the bidirectional marks a copy from right-to-left text carries, in Arabic-Indic digits.
    const arabic = [...code].map((d) => String.fromCharCode(0x0660 + Number(d))).join('');
    const pasted = `\u200f\u2066${arabic.slice(0, 3)} - ${arabic.slice(3)}\u2069`;
    expect((await layla.verify({ code: pasted })).status).toBe('signed-in');
  });

  it("a stranger's address: the same answer, nothing sent, nothing kept of the address, tries counted alike", async () => {
    const stranger = browser();
    const client = browser();
    expect((await stranger.ask('nobody@example.com')).status).toBe('sent');
    expect((await client.ask('client@example.com')).status).toBe('sent');
    await mailTo('client@example.com', 1);
    expect(world.sent.filter((m) => m.to === 'nobody@example.com')).toHaveLength(0);
    expect(await dump()).not.toContain('nobody@example.com');

    // Five wrong codes, a new request, one more wrong code: the same answers for both (issue 28, item 7).
    const run = async (b: ReturnType<typeof browser>, email: string) => {
      const out: string[] = [];
      for (let i = 0; i < 5; i++) out.push(outcome(await b.verify({ code: '000000' })));
      await b.ask(email);
      out.push(outcome(await b.verify({ code: '000000' })));
      return out;
    };
    const expected = ['wrong 4', 'wrong 3', 'wrong 2', 'wrong 1', 'expired', 'wrong 4'];
    // (A code that happens to be 000000 would sign the client in: the derived codes of these rows are not.)
    expect(await run(stranger, 'nobody@example.com')).toEqual(expected);
    expect(await run(client, 'client@example.com')).toEqual(expected);
  });

  it('eight wrong codes sent at once spend five tries: no more, and the right code then is refused (item 6)', async () => {
    const layla = browser();
    await layla.ask('client@example.com');
    const code = codeIn((await mailTo('client@example.com', 1))[0].text);
    const results = await Promise.all(Array.from({ length: 8 }, () => layla.verify({ code: notThe(code) })));
    const wrong = results.filter((r) => r.status === 'wrong-code').map((r) => (r as { triesLeft: number }).triesLeft);
    expect(wrong.sort()).toEqual([1, 2, 3, 4]);
    expect(results.filter((r) => r.status === 'expired')).toHaveLength(4);
    expect((await layla.verify({ code })).status).toBe('expired');
  });

  it('another browser cannot lock a client out: its guesses spend only its own codes (item 8)', async () => {
    const attacker = browser();
    await attacker.ask('client@example.com');
    for (let i = 0; i < 5; i++) await attacker.verify({ code: '000000' });
    for (let i = 0; i < 3; i++) await attacker.ask('client@example.com');
    for (let i = 0; i < 5; i++) await attacker.verify({ code: '000000' });
    const received = await mailTo('client@example.com', 4);
    // The owner's emailed link still works, whatever was guessed elsewhere…
    const link = linkIn(received.at(-1)!.text);
    const owner = browser();
    expect((await owner.verify({ c: link[1], code: link[2] })).status).toBe('signed-in');
    // …and so does asking for a code from the owner's own browser and typing it.
    const again = browser();
    expect((await again.ask('client@example.com')).status).toBe('sent');
    const code = codeIn((await mailTo('client@example.com', 5)).at(-1)!.text);
    expect((await again.verify({ code })).status).toBe('signed-in');
  });

  it("an attacker's wrong guesses over several IPs and live codes spend the address's daily budget; then the right code is refused, for a stranger's address alike", async () => {
    // Three IPs, two live codes each: every guess is checked against two codes and costs two of the ten.
    const attack = async (email: string) => {
      const attackers = [browser(), browser(), browser()];
      for (const a of attackers) for (let i = 0; i < 2; i++) expect((await a.ask(email)).status).toBe('sent');
      const out: string[] = [];
      for (const a of [...attackers, ...attackers]) out.push(outcome(await a.verify({ code: await wrongGuess() })));
      // Spent: the attackers' own codes are gone too, and a new one is refused before it is checked.
      out.push(outcome(await attackers[0]!.verify({ code: await wrongGuess() })));
      await attackers[1]!.ask(email);
      out.push(outcome(await attackers[1]!.verify({ code: await wrongGuess() })));
      return out;
    };
    const expected = ['wrong 4', 'wrong 4', 'wrong 4', 'wrong 3', 'wrong 3', 'locked', 'expired', 'locked'];
    expect(await attack('client@example.com')).toEqual(expected);
    expect(await attack('nobody@example.com')).toEqual(expected);

    // The owner, from their own browser and IP, types the right code: refused, as a stranger's guess is.
    const owner = browser();
    await owner.ask('client@example.com');
    const mails = await mailTo('client@example.com', 8);
    const code = codeIn(mails.at(-1)!.text);
    const refused = await owner.verify({ code });
    const stranger = browser();
    await stranger.ask('nobody@example.com');
    const strangers = await stranger.verify({ code: await wrongGuess() });
    expect(refused).toEqual({ status: 'locked' });
    expect(strangers).toEqual(refused);
    expect(await owner.client()).toBeNull();
    // The emailed link proves the mailbox and cannot be guessed: it still signs the owner in.
    const link = linkIn(mails.at(-1)!.text);
    expect((await browser().verify({ c: link[1], code: link[2] })).status).toBe('signed-in');
  });

  it('the budget is a rolling 24 hours: once the wrong guesses are a day old, a typed code signs in again', async () => {
    const attacker = browser();
    await attacker.ask('client@example.com');
    await attacker.ask('client@example.com');
    const out = [];
    for (let i = 0; i < 5; i++) out.push(outcome(await attacker.verify({ code: await wrongGuess() })));
    expect(out).toEqual(['wrong 4', 'wrong 3', 'wrong 2', 'wrong 1', 'expired']);
    const owner = browser();
    await owner.ask('client@example.com');
    const first = codeIn((await mailTo('client@example.com', 3)).at(-1)!.text);
    expect((await owner.verify({ code: first })).status).toBe('locked');
    await aDayPasses();
    // The locked code was spent with the others; a new one, typed, signs in.
    expect((await owner.verify({ code: first })).status).toBe('expired');
    await owner.ask('client@example.com');
    const code = codeIn((await mailTo('client@example.com', 4)).at(-1)!.text);
    expect((await owner.verify({ code })).status).toBe('signed-in');
    expect((await owner.client())?.account.customerId).toBe('cus_demo1');
  });

  it('two wrong guesses at the same moment for the last use of the budget: one is checked, the other refused', async () => {
    // Nine of the ten spent: five tries of one code, four of another, from two IPs.
    const first = browser();
    await first.ask('client@example.com');
    for (let i = 0; i < 5; i++) await first.verify({ code: await wrongGuess() });
    const second = browser();
    await second.ask('client@example.com');
    for (let i = 0; i < 4; i++) await second.verify({ code: await wrongGuess() });
    const [x, y] = [browser(), browser()];
    await x.ask('client@example.com');
    await y.ask('client@example.com');
    const guess = await wrongGuess();
    const results = await Promise.all([x.verify({ code: guess }), y.verify({ code: guess })]);
    expect(results.map(outcome).sort()).toEqual(['locked', 'wrong 4']);
    const owner = browser();
    await owner.ask('client@example.com');
    const code = codeIn((await mailTo('client@example.com', 5)).at(-1)!.text);
    expect((await owner.verify({ code })).status).toBe('locked');
  });

  it("a code used spends the address's other live codes, in every browser: typed, they are refused", async () => {
    const layla = browser();
    const attacker = browser();
    await attacker.ask('client@example.com');
    await layla.ask('client@example.com');
    await layla.ask('client@example.com');
    const mails = await mailTo('client@example.com', 3);
    const [attackers, older, newer] = mails.map((m) => codeIn(m.text));
    expect((await layla.verify({ code: newer! })).status).toBe('signed-in');
    // The attacker's code, even guessed right, is spent; so is Layla's older one.
    expect((await attacker.verify({ code: attackers! })).status).toBe('expired');
    const left = await world.database.db.execute<{ tries_left: number }>(sql`select tries_left from signin_codes`);
    expect(left.rows.map((r) => r.tries_left)).toEqual([0, 0]);
    // Their emailed links prove the mailbox as well: Layla's older one still signs in.
    expect(older).toMatch(/^\d{6}$/);
    const link = linkIn(mails[1]!.text);
    expect((await browser().verify({ c: link[1], code: link[2] })).status).toBe('signed-in');
    // A right sign-in gives back what it cost: the budget is for failed guesses only.
    for (let i = 0; i < 10; i++) {
      const b = browser();
      await b.ask('client@example.com');
      const code = codeIn((await mailTo('client@example.com', 4 + i)).at(-1)!.text);
      expect((await b.verify({ code })).status).toBe('signed-in');
    }
  });

  it('the link signs in only through its POST, once, even when clicked twice at the same moment', async () => {
    const layla = browser();
    await layla.ask('client@example.com', { next: '/ar/account/subscription' });
    const link = linkIn((await mailTo('client@example.com', 1))[0].text);
    const clicks = Array.from({ length: 8 }, () => browser());
    const results = await Promise.all(clicks.map((b) => b.verify({ c: link[1], code: link[2] })));
    const signedIn = results.filter((r) => r.status === 'signed-in');
    expect(signedIn).toHaveLength(1);
    expect((signedIn[0] as { redirectTo: string }).redirectTo).toBe('/ar/account/subscription');
  });

  it('expires codes after 10 minutes', async () => {
    const layla = browser();
    await layla.ask('client@example.com');
    const code = codeIn((await mailTo('client@example.com', 1))[0].text);
    await world.database.db.execute(sql`update signin_codes set expires_at = now() - interval '1 second'`);
    expect((await layla.verify({ code })).status).toBe('expired');
  });

  it('never sends people elsewhere after sign-in: only portal paths', async () => {
    let n = 0;
    for (const next of ['https://evil.example/', '//evil.example', '/blog', '/\\evil']) {
      const b = browser();
      await b.ask('client@example.com', { next });
      const link = linkIn((await mailTo('client@example.com', ++n)).at(-1)!.text);
      expect(await b.verify({ c: link[1], code: link[2] })).toMatchObject({
        status: 'signed-in',
        redirectTo: '/account',
      });
    }
  });

  it('limits code requests per address from one browser, and caps what one address receives from anywhere', async () => {
    const one = browser();
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await one.ask('client@example.com')).status);
    expect(statuses).toEqual(['sent', 'sent', 'sent', 'sent', 'sent', 'rate-limited', 'rate-limited']);
    // The owner, elsewhere, still gets a code.
    expect((await browser().ask('client@example.com')).status).toBe('sent');
    // From many places, one inbox receives at most 30 an hour.
    const many = [];
    for (let i = 0; i < 30; i++) many.push((await browser().ask('client@example.com')).status);
    expect(many.filter((s) => s === 'sent')).toHaveLength(30 - 6);
  });

  it('signing out ends the session: the old cookie, replayed, opens nothing (item 5)', async () => {
    const layla = browser();
    await layla.ask('client@example.com');
    await layla.verify({ code: codeIn((await mailTo('client@example.com', 1))[0].text) });
    const cookie = layla.jar;
    const read = () => readSession(new Request('https://site.example/account', { headers: { Cookie: cookie } }));
    expect(await read()).not.toBeNull();
    await layla.signOut();
    expect(await read()).toBeNull();
  });

  it('signing out everywhere ends every session of the account, and no other', async () => {
    const devices = [browser(), browser()];
    let n = 0;
    for (const d of devices) {
      await d.ask('client@example.com');
      await d.verify({ code: codeIn((await mailTo('client@example.com', ++n)).at(-1)!.text) });
      expect(await d.client()).not.toBeNull();
    }
    await ensureAccount({
      customerId: 'cus_other',
      email: 'other@example.com',
      name: 'O',
      company: null,
      locale: 'ar',
    });
    const other = browser();
    await other.ask('other@example.com');
    await other.verify({ code: codeIn((await mailTo('other@example.com', 1))[0].text) });
    await devices[0].signOut(true);
    const [first, second] = await Promise.all(
      devices.map((d) => readSession(new Request('https://site.example/account', { headers: { Cookie: d.jar } }))),
    );
    expect(first).toBeNull();
    expect(second).toBeNull();
    expect((await other.client())?.account.customerId).toBe('cus_other');
  });
});
