import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  accounts,
  billingCustomers,
  billingCreditNotes,
  billingInvoices,
  billingSubscriptions,
  faqQuestions,
  newsletterSignups,
} from '~/db/schema.server';
import type { CreditNoteSnapshot } from '~/billing/tax/credit-note';
import { testDatabaseKinds } from '~/db/test-support';
import { loader } from '~/resources/personal-data';
import { buildPersonalData, MAX_ROWS, personalDataJson } from './personal-data.server';
import { startSession } from './session.server';
import { createTestWorld, type TestWorld } from './test-support';

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 9, 1, 9);

/** A client with an account, a billing customer, a subscription, invoices, a question and a sign-up. */
async function client(world: TestWorld, n: number, who: { email: string; name: string; question: string }) {
  const db = world.database.db;
  const customerId = `cus_test${n}`;
  await db.insert(accounts).values({ customerId, email: who.email, name: who.name, locale: n % 2 ? 'ar' : 'en' });
  await db.insert(billingCustomers).values({
    id: customerId,
    email: who.email,
    name: who.name,
    locale: 'en',
    card: { brand: 'visa', last4: `424${n}`, expMonth: 12, expYear: 2030, renewals: 'succeed' },
    createdAt: new Date(T0),
  });
  await db.insert(billingSubscriptions).values({
    id: `sub_test${n}`,
    customerId,
    plan: 'business',
    amount: 125000,
    currency: 'sgd',
    status: 'active',
    billingAnchor: new Date(T0),
    periodIndex: 2,
    currentPeriodStart: new Date(T0 + 30 * DAY),
    currentPeriodEnd: new Date(T0 + 61 * DAY),
    cancelAtPeriodEnd: false,
    createdAt: new Date(T0),
  });
  for (const month of [0, 1])
    await db.insert(billingInvoices).values({
      id: `in_test${n}_${month}`,
      number: `BWB-2026-${n}${month}0${n}`,
      sequence: 2026_000_000 + n * 10 + month,
      customerId,
      subscriptionId: `sub_test${n}`,
      status: 'paid',
      plan: 'business',
      amount: 125000,
      currency: 'sgd',
      createdAt: new Date(T0 + month * 30 * DAY),
      periodStart: new Date(T0 + month * 30 * DAY),
      periodEnd: new Date(T0 + (month + 1) * 30 * DAY),
      paidAt: new Date(T0 + month * 30 * DAY),
    });
  // The second month refunded: a tax credit note (its snapshot names the client, as the invoice's does).
  await db.insert(billingCreditNotes).values({
    id: `cn_test${n}`,
    number: `CN-2026-000${n}`,
    sequence: n,
    invoiceId: `in_test${n}_1`,
    customerId,
    createdAt: new Date(T0 + 40 * DAY),
    amount: 125000,
    outcome: 'refunded',
    snapshot: {
      version: 1,
      number: `CN-2026-000${n}`,
      reason: `Refunded for ${who.name}`,
    } as unknown as CreditNoteSnapshot,
  });
  await db.insert(faqQuestions).values({
    id: randomUUID(),
    name: who.name,
    email: who.email.toUpperCase(),
    phone: '+971 50 000 000' + n,
    question: who.question,
    locale: 'en',
    page: '/faq',
    submittedAt: new Date(T0 + DAY),
  });
  await db.insert(newsletterSignups).values({
    id: randomUUID(),
    email: who.email,
    emailKey: who.email,
    locale: 'en',
    page: '/blog',
    submittedAt: new Date(T0 + 2 * DAY),
    status: 'confirmed',
    consentVersion: '2026-11-29',
    pendingSince: new Date(T0 + 2 * DAY),
    confirmedAt: new Date(T0 + 2 * DAY + 60_000),
  });
  const cookie = (await startSession({ customerId }, db)).split(';')[0]!;
  return { customerId, cookie };
}

const ANN = { email: 'ann@example.com', name: 'Ann Client', question: 'Ann asks about free zones?' };
const BOB = { email: 'bob@example.org', name: 'Bob Other', question: 'Bob asks about VAT returns?' };

describe.each(testDatabaseKinds())('a person’s own data (%s)', (kind) => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await createTestWorld({ database: kind });
  }, 60_000);
  afterEach(() => world.close(), 60_000);

  it('holds the client’s records and nobody else’s', async () => {
    await client(world, 1, ANN);
    await client(world, 2, BOB);
    // Someone else asked a question naming Ann, from another address: not Ann's record.
    await world.database.db.insert(faqQuestions).values({
      id: randomUUID(),
      name: 'Ann Client',
      email: 'not.ann@example.net',
      phone: '+971 50 111 2222',
      question: 'A stranger’s question',
      locale: 'en',
      page: '/faq',
      submittedAt: new Date(T0),
    });
    const file = await buildPersonalData(world.database.db, ' Ann@Example.com ', new Date(T0 + 90 * DAY));
    expect(file.email).toBe('ann@example.com');
    expect(file.account).toMatchObject({ customerId: 'cus_test1', email: ANN.email, name: ANN.name });
    expect(file.billing.customer).toMatchObject({ id: 'cus_test1', card: { brand: 'visa', last4: '4241' } });
    expect(file.billing.subscriptions.map((s) => s.id)).toEqual(['sub_test1']);
    expect(file.billing.invoices.map((i) => i.number)).toEqual(['BWB-2026-1101', 'BWB-2026-1001']);
    expect(file.billing.creditNotes).toEqual([
      expect.objectContaining({ number: 'CN-2026-0001', invoiceId: 'in_test1_1', outcome: 'refunded' }),
    ]);
    expect(file.signIns.sessions).toHaveLength(1);
    expect(file.faqQuestions.map((q) => q.question)).toEqual([ANN.question]);
    expect(file.newsletter).toEqual([
      expect.objectContaining({ status: 'confirmed', wordingVersion: '2026-11-29', locale: 'en' }),
    ]);
    const json = personalDataJson(file);
    for (const other of [
      BOB.email,
      BOB.name,
      BOB.question,
      'cus_test2',
      'sub_test2',
      'BWB-2026-2',
      'CN-2026-0002',
      'not.ann@',
      'stranger',
    ])
      expect(json, other).not.toContain(other);
    // No secrets: no session or code id, no hash.
    expect(json).not.toMatch(/idHash|id_hash|tokenHash|"renewals"/);
  });

  it('is downloaded from the portal as an attachment, never cached, and equals the operator command’s file', async () => {
    const { cookie } = await client(world, 1, ANN);
    await client(world, 2, BOB);
    for (const prefix of ['', '/ar']) {
      const response = await loader({
        request: new Request(`http://localhost${prefix}/account/personal-data`, { headers: { Cookie: cookie } }),
        params: {},
        context: {},
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('Content-Disposition')).toMatch(
        /^attachment; filename="personal-data-\d{4}-\d{2}-\d{2}\.json"$/,
      );
      expect(response.headers.get('Cache-Control')).toBe('private, no-store');
      const downloaded = (await response.json()) as { generatedAt: string };
      // The command builds its file with the same function: equal but for the time it was made.
      const command = JSON.parse(
        personalDataJson(await buildPersonalData(world.database.db, ANN.email, new Date(downloaded.generatedAt))),
      );
      expect(downloaded).toEqual(command);
      expect(JSON.stringify(downloaded)).not.toContain(BOB.email);
    }
  });

  it('sends a signed-out visitor to sign in, with no data', async () => {
    await client(world, 1, ANN);
    const answer = await loader({
      request: new Request('http://localhost/account/personal-data'),
      params: {},
      context: {},
    }).catch((thrown: unknown) => thrown as Response);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('Location')).toMatch(/\/account\?next=/);
  });

  it('bounds each list', async () => {
    await client(world, 1, ANN);
    await world.database.db.insert(faqQuestions).values(
      Array.from({ length: MAX_ROWS + 5 }, (_, i) => ({
        id: randomUUID(),
        name: 'Ann Client',
        email: ANN.email,
        phone: '+971 50 000 0001',
        question: `Question ${i}`,
        locale: 'en',
        page: '/faq',
        submittedAt: new Date(T0 + i * 1000),
      })),
    );
    const file = await buildPersonalData(world.database.db, ANN.email, new Date());
    expect(file.faqQuestions).toHaveLength(MAX_ROWS);
    expect(file.truncated).toEqual(['faqQuestions']);
  });
});
