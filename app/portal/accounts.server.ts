import { eq } from 'drizzle-orm';
import type { Customer } from '~/billing/types';
import { db as processDb } from '~/db/client.server';
import { accounts } from '~/db/schema.server';
import type { Db } from '~/db/types.server';
import type { Locale } from '~/i18n';
import { log as logger } from '~/lib/log.server';

/**
 * The portal's client accounts: a row of `accounts` per billing customer, the address in lower
 * case and one account per address. Sessions and sign-in codes are rows that name the account
 * (deleted with it).
 */
export interface AccountRecord {
  customerId: string;
  email: string;
  name: string;
  company: string | null;
  locale: Locale;
}

const CUSTOMER_ID = /^[A-Za-z0-9_]{1,64}$/;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

const columns = {
  customerId: accounts.customerId,
  email: accounts.email,
  name: accounts.name,
  company: accounts.company,
  locale: accounts.locale,
};
const record = (row: { locale: string } & Omit<AccountRecord, 'locale'>): AccountRecord => ({
  ...row,
  locale: row.locale === 'ar' ? 'ar' : 'en',
});

export async function getAccount(customerId: string, db?: Db): Promise<AccountRecord | null> {
  if (!CUSTOMER_ID.test(customerId)) return null;
  const [row] = await (db ?? (await processDb()))
    .select(columns)
    .from(accounts)
    .where(eq(accounts.customerId, customerId));
  return row ? record(row) : null;
}

export async function findAccountByEmail(email: string, db?: Db): Promise<AccountRecord | null> {
  const [row] = await (db ?? (await processDb()))
    .select(columns)
    .from(accounts)
    .where(eq(accounts.email, normalizeEmail(email)));
  return row ? record(row) : null;
}

/**
 * Creates the account for a billing customer unless it exists (then nothing changes). One
 * statement; an address that already belongs to another customer's account is left to that
 * account (logged): one account per address.
 */
export async function ensureAccount(input: AccountRecord, db?: Db): Promise<void> {
  const email = normalizeEmail(input.email);
  const inserted = await (db ?? (await processDb()))
    .insert(accounts)
    .values({
      customerId: input.customerId,
      email,
      name: input.name.slice(0, 200),
      company: input.company?.slice(0, 200) ?? null,
      locale: input.locale === 'ar' ? 'ar' : 'en',
    })
    .onConflictDoNothing()
    .returning({ customerId: accounts.customerId });
  if (!inserted.length) {
    const owner = await findAccountByEmail(email, db);
    if (owner && owner.customerId !== input.customerId)
      logger.warn(`[portal] customer ${input.customerId}: its address already has an account (${owner.customerId})`);
  }
}

/** The account of a billing customer, created from the customer's record unless it exists. */
export function ensureCustomerAccount(customer: Customer, db?: Db): Promise<void> {
  const { id, email, name, company, locale } = customer;
  return ensureAccount({ customerId: id, email, name, company, locale }, db);
}

/** Changes the account's own fields in one statement; null when there is no such account. */
export async function updateAccount(
  customerId: string,
  change: Partial<Pick<AccountRecord, 'name' | 'company' | 'locale'>>,
  db?: Db,
): Promise<AccountRecord | null> {
  if (!Object.keys(change).length) return getAccount(customerId, db);
  const [row] = await (db ?? (await processDb()))
    .update(accounts)
    .set(change)
    .where(eq(accounts.customerId, customerId))
    .returning(columns);
  return row ? record(row) : null;
}
