import type { Customer } from '~/billing/types';
import type { Locale } from '~/i18n';
import { contentClient } from '~/sanity/client.server';
import { isConflict, type PrivateStore, type StoredDocument } from '~/sanity/types';

/**
 * The portal's client accounts: `portal.account.<customerId>`, one per billing customer. The
 * email (lower case) is a field, never part of the id. `sessionEpoch` ends every session
 * when it grows (sign out everywhere).
 */
export type AccountDoc = {
  _id: string;
  _type: 'portal.account';
  customerId: string;
  email: string;
  name: string;
  company: string | null;
  locale: Locale;
  sessionEpoch: number;
};

export const accountId = (customerId: string) => `portal.account.${customerId}` as const;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function getAccount(
  customerId: string,
  store: PrivateStore = contentClient(),
): Promise<StoredDocument<AccountDoc> | null> {
  if (!/^[A-Za-z0-9_]{1,64}$/.test(customerId)) return null;
  return store.getDocument<AccountDoc>(accountId(customerId));
}

export async function findAccountByEmail(
  email: string,
  store: PrivateStore = contentClient(),
): Promise<StoredDocument<AccountDoc> | null> {
  const found = await store.queryPrivate<StoredDocument<AccountDoc> | null>(
    '*[_type == "portal.account" && email == $email][0]',
    { email: normalizeEmail(email) },
  );
  return found ?? null;
}

/** Creates the account for a billing customer unless it exists (then nothing changes). */
export async function ensureAccount(
  input: Omit<AccountDoc, '_id' | '_type' | 'sessionEpoch'>,
  store: PrivateStore = contentClient(),
): Promise<void> {
  await store.mutate([
    {
      createIfNotExists: {
        _id: accountId(input.customerId),
        _type: 'portal.account',
        customerId: input.customerId,
        email: normalizeEmail(input.email),
        name: input.name,
        company: input.company,
        locale: input.locale,
        sessionEpoch: 0,
      },
    },
  ]);
}

/** The account of a billing customer, created from the customer's record unless it exists. */
export function ensureCustomerAccount(customer: Customer, store: PrivateStore = contentClient()): Promise<void> {
  const { id, email, name, company, locale } = customer;
  return ensureAccount({ customerId: id, email, name, company, locale }, store);
}

/** Applies `change` to the account's latest revision (retrying on a concurrent write). */
export async function updateAccount(
  customerId: string,
  change: (current: StoredDocument<AccountDoc>) => Partial<Omit<AccountDoc, '_id' | '_type' | 'customerId'>>,
  store: PrivateStore = contentClient(),
): Promise<StoredDocument<AccountDoc> | null> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const current = await getAccount(customerId, store);
    if (!current) return null;
    try {
      await store.mutate([{ patch: { id: current._id, ifRevisionID: current._rev, set: change(current) } }]);
      return getAccount(customerId, store);
    } catch (error) {
      if (!isConflict(error)) throw error;
    }
  }
  throw new Error('account update: too much contention');
}
