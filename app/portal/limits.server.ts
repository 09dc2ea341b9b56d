import { createHmac } from 'node:crypto';
import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { db as processDb } from '~/db/client.server';
import { rateLimits } from '~/db/schema.server';
import { serverKey } from '~/db/server-keys.server';
import type { Db } from '~/db/types.server';

/**
 * Fixed-window rate limits in the database: one row per kind and subject (`rate_limits`; the
 * subject is a keyed pseudonym of the address or IP, never the value). The pseudonyms' key is
 * the database's own (`server_keys`, name `rate-limits`: made at random once, read when the
 * database is opened), not SESSION_SECRET: rotating the secret, which is meant to end sessions
 * and codes, must not give every sender a new, empty window. Every server copy on one database
 * reads the same key, so they count in the same rows. Counting and deciding are ONE statement, an insert that on conflict adds one only while the count is under the
 * limit (or starts a new window when the old one has passed), returning the row only when it
 * counted. The database serialises the statements on the row, so concurrent requests cannot
 * all pass a check that only some should: of fifty simultaneous tries against a limit of five,
 * five are allowed.
 */
export interface Limit {
  max: number;
  windowMs: number;
}

export const LIMITS = {
  /** Sign-in codes asked for one address from one IP (binds the one who asks). */
  signInPerAddress: { max: 5, windowMs: 60 * 60 * 1000 },
  /** Sign-in codes sent to one address from anywhere: a cap on what one inbox receives. */
  signInPerAddressAll: { max: 30, windowMs: 60 * 60 * 1000 },
  /** Sign-in codes asked for from one IP, for any addresses. */
  signInPerIp: { max: 20, windowMs: 60 * 60 * 1000 },
  /** Code checks from one IP. */
  verifyPerIp: { max: 30, windowMs: 60 * 60 * 1000 },
  /**
   * Typed codes checked for one address from anywhere, a rolling 24 hours (`takeBudget`): each live code
   * a guess is checked against takes one (a right code gives its back). Ten a day bounds a 6-digit code's
   * guesser to 10 in a million a day (0.03% in 30 days) whatever IPs, browsers and live codes they hold;
   * it leaves an honest client two codes' worth of typos, and the emailed link still works beyond it.
   */
  verifyPerAddress: { max: 10, windowMs: 24 * 60 * 60 * 1000 },
  /** Local checkout attempts from one IP (declined cards included). */
  checkoutPerIp: { max: 20, windowMs: 60 * 60 * 1000 },
  /** Checkouts started (Subscribe on /pricing) from one IP: each one is a stored checkout, or a Stripe session. */
  checkoutStartPerIp: { max: 20, windowMs: 60 * 60 * 1000 },
} as const satisfies Record<string, Limit>;

/**
 * The row's subject for a value: a keyed hash (HMAC-SHA256 with the database's limits key) of the
 * kind and the value (trimmed, lower case: an address counts the same in any case), cut to 32
 * characters of [A-Za-z0-9].
 */
export function limitSubject(key: Buffer, kind: string, value: string): string {
  return createHmac('sha256', key)
    .update(`rate-limit:${kind}\n${value.trim().toLowerCase()}`)
    .digest('base64url')
    .slice(0, 32)
    .replace(/[-_]/g, (c) => (c === '-' ? 'x' : 'y'));
}

/** The key of the rate limits kept in this database (from memory after the database was opened). */
export const limitsKey = (db: Db) => serverKey(db, 'rate-limits');

/** The moment to count at (tests move the clock) and the database that keeps the counts. */
export interface LimitContext {
  now?: number;
  db?: Db;
}

/** Counts one use; false when the subject has used up the window (nothing is counted then). */
export async function consume(kind: string, subject: string, limit: Limit, context: LimitContext = {}) {
  const { now = Date.now() } = context;
  const db = context.db ?? (await processDb());
  const key = await limitsKey(db);
  const at = new Date(now);
  const windowOver = sql`${rateLimits.windowStart} <= ${new Date(now - limit.windowMs)}`;
  const counted = await db
    .insert(rateLimits)
    .values({
      kind,
      subject: limitSubject(key, kind, subject),
      windowStart: at,
      count: 1,
      expiresAt: new Date(now + limit.windowMs),
    })
    .onConflictDoUpdate({
      target: [rateLimits.kind, rateLimits.subject],
      set: {
        windowStart: sql`case when ${windowOver} then excluded.window_start else ${rateLimits.windowStart} end`,
        count: sql`case when ${windowOver} then 1 else ${rateLimits.count} + 1 end`,
        expiresAt: sql`case when ${windowOver} then excluded.expires_at else ${rateLimits.expiresAt} end`,
      },
      setWhere: sql`${windowOver} or ${rateLimits.count} < ${limit.max}`,
    })
    .returning({ count: rateLimits.count });
  return counted.length > 0;
}

/**
 * Counts one use of each limit in ONE statement: true when every one of them had room, and then
 * each is counted; when one is seen full, none is. The check and the count are one
 * `insert … select … where not exists (a full window) on conflict do update … where count < max
 * returning`: the update's own condition is evaluated on the locked row, so no window ever goes
 * past its maximum, however many requests run at once; a request racing the one that fills a
 * window may still be counted in the others. So group only limits that bind the same sender
 * (their IP, the address from their IP). Kinds must differ.
 */
export async function consumeAll(
  uses: { kind: string; subject: string; limit: Limit }[],
  context: LimitContext = {},
): Promise<boolean> {
  const { now = Date.now() } = context;
  const db = context.db ?? (await processDb());
  const key = await limitsKey(db);
  const start = new Date(now).toISOString();
  const values = sql.join(
    uses.map(
      (u) =>
        sql`(${u.kind}, ${limitSubject(key, u.kind, u.subject)}, ${u.limit.max}::int, ${start}::timestamptz, ${new Date(now + u.limit.windowMs).toISOString()}::timestamptz)`,
    ),
    sql`, `,
  );
  // A row's window is its expiry minus its start; a window that began before now minus that is over.
  const over = sql`rate_limits.window_start <= excluded.window_start - (excluded.expires_at - excluded.window_start)`;
  const counted = await db.execute<{ kind: string }>(sql`
    with uses (kind, subject, max, window_start, expires_at) as (values ${values})
    insert into ${rateLimits} (kind, subject, window_start, count, expires_at)
    select kind, subject, window_start, 1, expires_at from uses
    where not exists (
      select 1 from ${rateLimits} r join uses u on r.kind = u.kind and r.subject = u.subject
      where r.window_start > u.window_start - (u.expires_at - u.window_start) and r.count >= u.max)
    on conflict (kind, subject) do update set
      window_start = case when ${over} then excluded.window_start else rate_limits.window_start end,
      count = case when ${over} then 1 else rate_limits.count + 1 end,
      expires_at = case when ${over} then excluded.expires_at else rate_limits.expires_at end
    where ${over} or rate_limits.count < (select u.max from uses u where u.kind = excluded.kind)
    returning kind`);
  return counted.rows.length === uses.length;
}

/**
 * A rolling-window budget: `limit.max` slots per subject, each a row of `rate_limits` (its subject the
 * keyed pseudonym of the value and the slot's number), held for `limit.windowMs` from the moment it was
 * taken. So in any `windowMs` at most `max` uses are taken (a fixed window would let `2 × max` through
 * around its end). Takes `uses` free slots in ONE statement, `insert … select (free slots) on conflict do
 * update … where the slot's time is over returning`: the condition is evaluated on the locked row, so two
 * requests racing for the last slot cannot both take it. Answers the slots taken (to give back with
 * `giveBack`), or null when there were not `uses` free ones (then none is kept). Slots are picked at random
 * among the free ones, so concurrent requests rarely collide while many are free; a request that collided
 * gives back what it took and tries again (a few times) while enough were free. The picked slots are
 * inserted in one order (by subject), and a statement PostgreSQL ends with `deadlock detected` (rolled back
 * whole) is tried again like a collision, so concurrent sign-ins never see that error.
 */
export async function takeBudget(
  kind: string,
  subject: string,
  limit: Limit,
  uses: number,
  context: LimitContext = {},
): Promise<BudgetTaken | null> {
  const { now = Date.now() } = context;
  const db = context.db ?? (await processDb());
  if (uses < 1) return { kind, subjects: [], at: now };
  if (uses > limit.max) return null;
  const key = await limitsKey(db);
  const at = new Date(now).toISOString();
  const until = new Date(now + limit.windowMs).toISOString();
  const slots = sql.join(
    Array.from({ length: limit.max }, (_, n) => sql`(${limitSubject(key, kind, `${subject}\n${n}`)})`),
    sql`, `,
  );
  for (let attempt = 0; attempt < 6; attempt++) {
    let result;
    try {
      result = await db.execute<{ subject: string | null; free: number | string }>(sql`
      with slots (subject) as (values ${slots}),
      free as (
        select s.subject from slots s left join ${rateLimits} r on r.kind = ${kind} and r.subject = s.subject
        where r.subject is null or r.expires_at <= ${at}::timestamptz),
      picked as (select subject from free order by random() limit ${uses}),
      taken as (
        insert into ${rateLimits} (kind, subject, window_start, count, expires_at)
        select ${kind}, subject, ${at}::timestamptz, 1, ${until}::timestamptz from picked
        where (select count(*) from free) >= ${uses}
        order by subject
        on conflict (kind, subject) do update set
          window_start = excluded.window_start, count = 1, expires_at = excluded.expires_at
        where rate_limits.expires_at <= excluded.window_start
        returning subject)
      select taken.subject, (select count(*) from free) as free from (select 1) one left join taken on true`);
    } catch (error) {
      // Nothing of a failed statement is kept: a deadlock is a collision like any other, tried again.
      if (isDeadlock(error)) continue;
      throw error;
    }
    const subjects = result.rows.flatMap((row) => (row.subject ? [row.subject] : []));
    const free = Number(result.rows[0]?.free ?? 0);
    if (subjects.length === uses) return { kind, subjects, at: now };
    await giveBack({ kind, subjects, at: now }, { db });
    if (free < uses) return null;
  }
  return null;
}

/** Slots taken by `takeBudget`, to give back. */
export interface BudgetTaken {
  kind: string;
  subjects: string[];
  at: number;
}

/**
 * PostgreSQL's `deadlock detected` (40P01), wherever the driver puts the code (drizzle wraps the
 * driver's error in `cause`). Statements here lock slot rows in one order (by subject), but the
 * unique index's speculative inserts can still wait on each other in a cycle; the statement is
 * rolled back whole, so it is safe to run again.
 */
function isDeadlock(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    if (e.code === '40P01') return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** Gives back slots taken by `takeBudget` (a use that turned out not to count), in one statement. */
export async function giveBack(taken: BudgetTaken, context: Pick<LimitContext, 'db'> = {}): Promise<void> {
  if (!taken.subjects.length) return;
  const db = context.db ?? (await processDb());
  for (let attempt = 0; ; attempt++) {
    try {
      await db
        .delete(rateLimits)
        .where(
          and(
            eq(rateLimits.kind, taken.kind),
            inArray(rateLimits.subject, taken.subjects),
            eq(rateLimits.windowStart, new Date(taken.at)),
          ),
        );
      return;
    } catch (error) {
      if (attempt >= 5 || !isDeadlock(error)) throw error;
    }
  }
}

/** How many slots of a `takeBudget` budget are free now. */
export async function budgetLeft(kind: string, subject: string, limit: Limit, context: LimitContext = {}) {
  const { now = Date.now() } = context;
  const db = context.db ?? (await processDb());
  const key = await limitsKey(db);
  const subjects = Array.from({ length: limit.max }, (_, n) => limitSubject(key, kind, `${subject}\n${n}`));
  const held = await db
    .select({ subject: rateLimits.subject })
    .from(rateLimits)
    .where(
      and(eq(rateLimits.kind, kind), inArray(rateLimits.subject, subjects), gt(rateLimits.expiresAt, new Date(now))),
    );
  return limit.max - held.length;
}

/** How many uses are left in the current window (for "N tries left"). */
export async function remaining(kind: string, subject: string, limit: Limit, context: LimitContext = {}) {
  const { now = Date.now() } = context;
  const db = context.db ?? (await processDb());
  const key = await limitsKey(db);
  const [current] = await db
    .select({ windowStart: rateLimits.windowStart, count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.kind, kind), eq(rateLimits.subject, limitSubject(key, kind, subject))));
  if (!current || now - current.windowStart.getTime() >= limit.windowMs) return limit.max;
  return Math.max(0, limit.max - current.count);
}

/** Deletes windows that have ended (the clean-up job); at most `max` rows a call. */
export async function purgeExpiredLimits(db: Db, now = Date.now(), max = 1000): Promise<number> {
  const expired = db
    .select({ kind: rateLimits.kind, subject: rateLimits.subject })
    .from(rateLimits)
    .where(lt(rateLimits.expiresAt, new Date(now)))
    .limit(max);
  const deleted = await db
    .delete(rateLimits)
    .where(sql`(${rateLimits.kind}, ${rateLimits.subject}) in (${expired})`)
    .returning({ kind: rateLimits.kind });
  return deleted.length;
}
