import { contentClient } from '~/sanity/client.server';
import { isConflict, type PrivateStore } from '~/sanity/types';
import { pseudonym } from './crypto.server';

/**
 * Fixed-window rate limits kept in the private store, one document per subject and kind
 * (`portal.limit.<kind>.<pseudonym>`). Counting and deciding are one conditional write
 * (ifRevisionID), so concurrent requests cannot all pass a check that only one should: of
 * fifty simultaneous tries against a limit of five, five are allowed.
 */
export interface Limit {
  max: number;
  windowMs: number;
}

export const LIMITS = {
  /** Sign-in codes sent to one address. */
  signInPerAddress: { max: 5, windowMs: 60 * 60 * 1000 },
  /** Sign-in codes asked for from one IP, for any addresses. */
  signInPerIp: { max: 20, windowMs: 60 * 60 * 1000 },
  /** Code checks for one address (any code). */
  verifyPerAddress: { max: 10, windowMs: 15 * 60 * 1000 },
  /** Code checks from one IP. */
  verifyPerIp: { max: 30, windowMs: 60 * 60 * 1000 },
  /** Local checkout attempts from one IP (declined cards included). */
  checkoutPerIp: { max: 20, windowMs: 60 * 60 * 1000 },
} as const satisfies Record<string, Limit>;

type LimitDoc = { _id: string; _type: 'portal.limit'; windowStart: number; count: number; expiresAt: string };

/** The document that counts one subject's uses of one kind (the subject itself is never stored). */
const limitId = (kind: string, subject: string) => `portal.limit.${kind}.${pseudonym(kind, subject)}`;

/** The moment to count at (tests move the clock) and the store that keeps the counts. */
export interface LimitContext {
  now?: number;
  store?: PrivateStore;
}

/** Counts one use; false when the subject has used up the window (nothing is counted then). */
export async function consume(kind: string, subject: string, limit: Limit, context: LimitContext = {}) {
  const { now = Date.now(), store = contentClient() } = context;
  const id = limitId(kind, subject);
  for (let attempt = 0; attempt < 20; attempt++) {
    const current = await store.getDocument<LimitDoc>(id);
    const expiresAt = new Date(now + limit.windowMs).toISOString();
    try {
      if (!current) {
        await store.mutate([
          {
            create: { _id: id as `${string}.${string}`, _type: 'portal.limit', windowStart: now, count: 1, expiresAt },
          },
        ]);
        return true;
      }
      if (now - current.windowStart >= limit.windowMs) {
        await store.mutate([
          { patch: { id, ifRevisionID: current._rev, set: { windowStart: now, count: 1, expiresAt } } },
        ]);
        return true;
      }
      if (current.count >= limit.max) return false;
      await store.mutate([{ patch: { id, ifRevisionID: current._rev, set: { count: current.count + 1 } } }]);
      return true;
    } catch (error) {
      if (!isConflict(error)) throw error;
      // Someone else counted first: read again and decide on the new count.
    }
  }
  throw new Error(`rate limit ${kind}: too much contention`);
}

/** How many uses are left in the current window (for "N tries left"). */
export async function remaining(kind: string, subject: string, limit: Limit, context: LimitContext = {}) {
  const { now = Date.now(), store = contentClient() } = context;
  const current = await store.getDocument<LimitDoc>(limitId(kind, subject));
  if (!current || now - current.windowStart >= limit.windowMs) return limit.max;
  return Math.max(0, limit.max - current.count);
}
