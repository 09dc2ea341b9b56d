/**
 * Who a payment makes a client (issue 28, items 1 and 3): paying the local checkout never signs
 * anyone in as an address they have not proven they own, never attaches to another client's
 * account, and a finished checkout never issues a session.
 */
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { embeddedBilling } from '~/billing/billing.server';
import { testDatabaseKinds } from '~/db/test-support';
import { findAccountByEmail, getAccount } from './accounts.server';
import { sendDueMail } from './mail-queue.server';
import { completeCheckout, startCheckout } from './service.server';
import { readSession, startSession } from './session.server';
import { requestCode, verifyCode } from './signin.server';
import { seedDemo } from './start.server';
import { createTestWorld, type TestWorld } from './test-support';

let ip = 0;
const request = (path: string, cookie?: string) =>
  new Request(`https://site.example${path}`, {
    method: 'POST',
    headers: { 'x-bawaba-client-ip': `203.0.113.${++ip % 250}`, ...(cookie ? { Cookie: cookie } : {}) },
  });
const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};
const payment = (email: string, cardNumber = '4242 4242 4242 4242') =>
  form({ email, name: 'Someone Else', company: '', cardNumber, expiry: '12/34', cvc: '123' });
const cookieNames = (headers: Headers) => headers.getSetCookie().map((c) => c.split('=')[0]);
const cookiesOf = (headers: Headers) =>
  headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1];

let world: TestWorld;
const engine = () => embeddedBilling()!;
/** The first email to this address, once the queue (sent off the request path) has delivered it. */
async function mailTo(address: string) {
  await vi.waitFor(async () => {
    await sendDueMail();
    expect(world.sent.some((m) => m.to === address)).toBe(true);
  });
  return world.sent.find((m) => m.to === address);
}
async function newCheckout(cookie?: string) {
  const { url } = await startCheckout(request('/pricing', cookie), 'starter', 'en');
  return url.split('/').pop()!;
}
/** The card the engine keeps on file for a customer (brand, last four, expiry). */
const cardOnFile = async (customerId: string) =>
  (await world.database.db.execute(sql`select card from billing_customers where id = ${customerId}`)).rows[0]?.card;
async function customerOf(email: string) {
  const customer = await engine().findCustomerByEmail(email);
  expect(customer, email).not.toBeNull();
  return customer!;
}

describe.each(testDatabaseKinds())('paying the local checkout (%s)', (kind) => {
  beforeEach(async () => {
    world = await createTestWorld({ dataset: 'bundled', database: kind });
    await seedDemo();
  }, 60_000);
  afterEach(() => world.close(), 60_000);

  it("with a client's address signs no one in and changes nothing until the owner confirms by the emailed code", async () => {
    const former = await customerOf('former@example.com');
    const cardBefore = await cardOnFile(former.id);
    expect(cardBefore).toMatchObject({ last4: expect.stringMatching(/^\d{4}$/) });
    const invoicesBefore = (await engine().listInvoices(former.id, { limit: 100 })).invoices.length;
    const id = await newCheckout();

    const paid = await completeCheckout(request(`/checkout/${id}`), id, payment('former@example.com'), 'en');
    expect(paid).toMatchObject({ ok: true, redirectTo: '/account/verify' });
    const headers = (paid as { headers: Headers }).headers;
    // No session: only the short-lived cookie that remembers which address the code went to.
    expect(cookieNames(headers)).toEqual(['__signin']);
    expect((await engine().getCheckout(id))?.status).toBe('open');
    expect(await cardOnFile(former.id)).toEqual(cardBefore);
    expect(await engine().getSubscription(former.id)).toBeNull();
    expect((await engine().listInvoices(former.id, { limit: 100 })).invoices).toHaveLength(invoicesBefore);

    // The owner is told, by an email to the address, with the code that would complete it.
    const mail = await mailTo('former@example.com');
    expect(mail?.subject).toMatch(/Confirm your .+ subscription/);
    expect(mail?.text).toMatch(/nothing is charged/i);
    const code = codeIn(mail!.text)!;

    // Someone else's guesses do not complete it; the owner's code does, once, into the owner's account.
    const pending = cookiesOf(headers);
    const wrong = await verifyCode(
      request('/account/verify', pending),
      form({ code: code === '000000' ? '111111' : '000000' }),
      'en',
    );
    expect(wrong.status).toBe('wrong-code');
    expect((await engine().getCheckout(id))?.status).toBe('open');
    const confirmed = await verifyCode(request('/account/verify', pending), form({ code }), 'en');
    expect(confirmed).toMatchObject({ status: 'signed-in', redirectTo: '/account/subscription?welcome=1' });
    const session = await readSession(
      new Request('https://site.example/account', {
        headers: { Cookie: cookiesOf((confirmed as { headers: Headers }).headers) },
      }),
    );
    expect(session?.account.customerId).toBe(former.id);
    expect((await engine().getCheckout(id))?.status).toBe('complete');
    expect(await engine().getSubscription(former.id)).toMatchObject({ plan: 'starter', status: 'active' });
    expect((await verifyCode(request('/account/verify', pending), form({ code }), 'en')).status).not.toBe('signed-in');
  });

  it("the confirmation code shares the address's typed-code budget, and confirming spends the address's other codes", async () => {
    const id = await newCheckout();
    // Someone asks for a sign-in code for the same address from another browser first.
    const asked = await requestCode(request('/account'), form({ email: 'former@example.com' }), 'en');
    const attacker = cookiesOf((asked as { headers: Headers }).headers);
    const paid = await completeCheckout(request(`/checkout/${id}`), id, payment('former@example.com'), 'en');
    const pending = cookiesOf((paid as { headers: Headers }).headers);
    await vi.waitFor(async () => {
      await sendDueMail();
      expect(world.sent.filter((m) => m.to === 'former@example.com')).toHaveLength(2);
    });
    const [signInMail, confirmMail] = world.sent.filter((m) => m.to === 'former@example.com');
    const confirm = codeIn(confirmMail!.text)!;
    // Ten wrong guesses in all, from three browsers, spend the address's budget.
    const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const guess = wrongCode(codeIn(signInMail!.text)!) === confirm ? '000000' : wrongCode(codeIn(signInMail!.text)!);
    for (let i = 0; i < 5; i++) await verifyCode(request('/account/verify', attacker), form({ code: guess }), 'en');
    for (let i = 0; i < 4; i++)
      await verifyCode(request('/account/verify', pending), form({ code: wrongCode(confirm) }), 'en');
    const retry = await requestCode(request('/account'), form({ email: 'former@example.com' }), 'en');
    const third = cookiesOf((retry as { headers: Headers }).headers);
    expect((await verifyCode(request('/account/verify', third), form({ code: guess }), 'en')).status).toBe(
      'wrong-code',
    );
    // Ten spent: the payer's right code, with a try left, is refused unchecked.
    expect((await verifyCode(request('/account/verify', pending), form({ code: confirm }), 'en')).status).toBe(
      'locked',
    );
    expect((await engine().getCheckout(id))?.status).toBe('open');
    // The emailed link still confirms the payment, and the address's other codes stay spent.
    const link = /verify\?c=([A-Za-z0-9]+)&code=(\d{6})&p=checkout/.exec(confirmMail!.text)!;
    expect((await verifyCode(request('/account/verify'), form({ c: link[1], code: link[2] }), 'en')).status).toBe(
      'signed-in',
    );
    expect((await engine().getCheckout(id))?.status).toBe('complete');
    const left = await world.database.db.execute<{ tries_left: number }>(sql`select tries_left from signin_codes`);
    expect(left.rows.map((r) => r.tries_left)).toEqual([0, 0]);
  });

  it('with a new address creates no account and no subscription before the address is confirmed', async () => {
    const id = await newCheckout();
    const paid = await completeCheckout(request(`/checkout/${id}`), id, payment('New.Person@Example.net'), 'ar');
    expect(paid).toMatchObject({ ok: true, redirectTo: '/ar/account/verify' });
    expect(cookieNames((paid as { headers: Headers }).headers)).toEqual(['__signin']);
    expect(await engine().findCustomerByEmail('new.person@example.net')).toBeNull();
    expect(await findAccountByEmail('new.person@example.net')).toBeNull();
    const mail = (await mailTo('new.person@example.net'))!;
    expect(mail.subject).toMatch(/أكّد اشتراكك/);
    // The emailed link confirms the payment too (the form a mail scanner's GET cannot post).
    const link = /https?:\/\/\S+\/ar\/account\/verify\?c=([A-Za-z0-9]+)&code=(\d{6})&p=checkout/.exec(mail.text);
    expect(link).not.toBeNull();
    const confirmed = await verifyCode(request('/ar/account/verify'), form({ c: link![1], code: link![2] }), 'ar');
    expect(confirmed).toMatchObject({ status: 'signed-in', redirectTo: '/ar/account/subscription?welcome=1' });
    const customer = await customerOf('new.person@example.net');
    expect(await getAccount(customer.id)).toMatchObject({ email: 'new.person@example.net' });
    expect(await engine().getSubscription(customer.id)).toMatchObject({ plan: 'starter', status: 'active' });
  });

  it('an address with markup in it is refused like any invalid address, and no mail is sent to it', async () => {
    const id = await newCheckout();
    const result = await completeCheckout(
      request(`/checkout/${id}`),
      id,
      payment('<svg/onload=alert(3)>@example.net'),
      'en',
    );
    expect(result).toMatchObject({ ok: false, fieldErrors: { email: 'checkout.errors.email' } });
    expect(world.sent).toHaveLength(0);
  });

  it('reads card data as people paste it, and refuses a name or company too long rather than cutting it (issue 40)', async () => {
    const id = await newCheckout();
    const long = 'N'.repeat(201);
    const refused = await completeCheckout(
      request(`/checkout/${id}`),
      id,
      form({ email: 'x@example.net', name: long, company: long, cardNumber: '4242', expiry: '12/34', cvc: '123' }),
      'en',
    );
    expect(refused).toMatchObject({
      ok: false,
      fieldErrors: { name: 'checkout.errors.tooLong', company: 'checkout.errors.tooLong' },
    });
    expect(world.sent).toHaveLength(0);
    // Grouped with dots and no-break spaces, spaced expiry, Arabic-Indic digits: read, and the code is sent.
    const pasted = form({
      email: 'paste@example.net',
      name: 'N'.repeat(200),
      company: '',
      cardNumber: '4242.4242\u00a04242 ٤٢٤٢',
      expiry: '١٢ / 2034',
      cvc: ' ١٢٣ ',
    });
    expect(await completeCheckout(request(`/checkout/${id}`), id, pasted, 'en')).toMatchObject({ ok: true });
    expect(await mailTo('paste@example.net')).toBeTruthy();
  });

  it('a declined card is refused at once and sends nothing', async () => {
    const id = await newCheckout();
    const result = await completeCheckout(
      request(`/checkout/${id}`),
      id,
      payment('x@example.net', '4000 0000 0000 0002'),
      'en',
    );
    expect(result).toMatchObject({ ok: false, formError: 'checkout.errors.declined' });
    expect(world.sent).toHaveLength(0);
  });

  it("started by a signed-in client is paid only in that client's session, never by another browser", async () => {
    const former = (await findAccountByEmail('former@example.com'))!;
    const formerCookie = cookiesOf(new Headers({ 'Set-Cookie': await startSession(former) }));
    const id = await newCheckout(formerCookie);

    // Another browser, another address: refused, nothing stored, no email, no session.
    const other = await completeCheckout(request(`/checkout/${id}`), id, payment('payer@example.net'), 'en');
    expect(other).toMatchObject({ ok: false, formError: 'checkout.errors.signInFirst' });
    expect(world.sent).toHaveLength(0);
    expect((await engine().getCheckout(id))?.status).toBe('open');
    expect(await engine().getSubscription(former.customerId)).toBeNull();
    // Signed in as someone else: refused too.
    const client = (await findAccountByEmail('client@example.com'))!;
    const clientCookie = cookiesOf(new Headers({ 'Set-Cookie': await startSession(client) }));
    const asClient = await completeCheckout(
      request(`/checkout/${id}`, clientCookie),
      id,
      payment('client@example.com'),
      'en',
    );
    expect(asClient).toMatchObject({ ok: false, formError: 'checkout.errors.signInFirst' });

    // The client who started it: paid into their account, no new session issued.
    const own = await completeCheckout(
      request(`/checkout/${id}`, formerCookie),
      id,
      payment('former@example.com'),
      'en',
    );
    expect(own).toMatchObject({ ok: true, redirectTo: '/account/subscription?welcome=1' });
    expect((own as { headers: Headers }).headers.getSetCookie()).toEqual([]);
    expect(await engine().getSubscription(former.customerId)).toMatchObject({ plan: 'starter', status: 'active' });
  });

  it('a finished checkout only shows its outcome: posting it again issues no session, however the card matches', async () => {
    const former = (await findAccountByEmail('former@example.com'))!;
    const formerCookie = cookiesOf(new Headers({ 'Set-Cookie': await startSession(former) }));
    const id = await newCheckout(formerCookie);
    expect(
      await completeCheckout(request(`/checkout/${id}`, formerCookie), id, payment('former@example.com'), 'en'),
    ).toMatchObject({ ok: true });
    const subscription = await engine().getSubscription(former.customerId);

    for (const cookie of [undefined, formerCookie]) {
      const again = await completeCheckout(request(`/checkout/${id}`, cookie), id, payment('former@example.com'), 'en');
      expect(again).toMatchObject({ ok: true, redirectTo: `/checkout/${id}` });
      expect((again as { headers: Headers }).headers.getSetCookie()).toEqual([]);
    }
    expect(world.sent.filter((m) => /Confirm your/.test(m.subject))).toHaveLength(0);
    expect(await engine().getSubscription(former.customerId)).toEqual(subscription);
  });
});
