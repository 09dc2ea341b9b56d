import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Database, Db } from './types.server';
import { log as logger } from '~/lib/log.server';

/**
 * What several server copies on one PostgreSQL coordinate through the database itself:
 * - `runExclusive`: a piece of work runs in one copy at a time, the others skip it (an advisory
 *   lock, taken with pg_try_advisory_lock and held on one connection for the run);
 * - `notify` / `listen`: a message from one copy reaches every copy (NOTIFY / LISTEN).
 * PGlite is one process per data folder (folder-lock.server.ts) and one connection in it, so
 * there the exclusion is kept in the process and LISTEN is PGlite's own `listen`.
 */

/** Advisory lock keys (any int8, one per kind of work; the migrations' lock is 270_019). */
export const LOCK_KEYS = {
  /** The portal's periodic jobs (app/portal/jobs.server.ts). */
  portalJobs: 270_027_001,
} as const;

type Driver = { kind: 'pglite'; pglite: PGlite } | { kind: 'postgres'; pool: pg.Pool };

/** The driver under a database (Drizzle keeps it as `$client`); only this folder touches it. */
function driverOf(database: Database): Driver {
  const client = (database.db as unknown as { $client: unknown }).$client;
  return database.kind === 'postgres'
    ? { kind: 'postgres', pool: client as pg.Pool }
    : { kind: 'pglite', pglite: client as PGlite };
}

export type Exclusive<T> = { ran: true; value: T } | { ran: false };

/** Keys held in this process, per PGlite instance. */
const heldInProcess = new WeakMap<object, Set<number>>();

/**
 * Runs `work` unless another holder has `key` (then `{ ran: false }` at once, nothing waits).
 * PostgreSQL: a session-level advisory lock on a connection of the pool kept for the run, and
 * released on it after; if that connection breaks, the server ends its session and with it the
 * lock, so a copy that dies mid-run never keeps the others out. (A lock lost that way while the
 * work goes on lets another copy start: the work must stay safe to repeat, as the jobs are.)
 * PGlite: the key is held in this process (the only one on that database).
 */
export async function runExclusive<T>(
  database: Database,
  key: number,
  work: () => Promise<T>,
  log: (message: string) => void = (m) => logger.error(`[db] ${m}`),
): Promise<Exclusive<T>> {
  const driver = driverOf(database);
  if (driver.kind === 'pglite') {
    let held = heldInProcess.get(driver.pglite);
    if (!held) heldInProcess.set(driver.pglite, (held = new Set()));
    if (held.has(key)) return { ran: false };
    held.add(key);
    try {
      return { ran: true, value: await work() };
    } finally {
      held.delete(key);
    }
  }
  const client = await driver.pool.connect();
  let healthy = true;
  // A checked-out client has no error listener of the pool's: without one, a dropped
  // connection would be an uncaught error.
  const onError = (error: Error) => {
    healthy = false;
    log(`the connection holding lock ${key} broke (${error.message}): the lock is released`);
  };
  client.on('error', onError);
  try {
    const { rows } = await client
      .query<{ locked: boolean }>('select pg_try_advisory_lock($1::bigint) as locked', [key])
      .catch((error: unknown) => {
        healthy = false;
        throw error;
      });
    if (rows[0]?.locked !== true) return { ran: false };
    try {
      return { ran: true, value: await work() };
    } finally {
      if (healthy)
        await client.query('select pg_advisory_unlock($1::bigint)', [key]).catch((error: unknown) => {
          // Closing the connection (below) ends the session, which releases the lock.
          healthy = false;
          log(`could not release lock ${key}: ${String(error)}`);
        });
    }
  } finally {
    client.removeListener('error', onError);
    client.release(healthy ? undefined : true);
  }
}

/** A channel name as LISTEN takes it (an identifier; it cannot be a bound parameter). */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

/** Largest payload sent: PostgreSQL refuses more than 8000 bytes; callers keep theirs small. */
export const MAX_NOTIFY_BYTES = 2000;

/** Sends `payload` to every listener on `channel`, in every process connected to the database. */
export async function notify(db: Db, channel: string, payload: string): Promise<void> {
  if (!CHANNEL.test(channel)) throw new Error(`not a channel name: ${channel}`);
  if (Buffer.byteLength(payload) > MAX_NOTIFY_BYTES) throw new Error(`notify ${channel}: payload too large`);
  await db.execute(sql`select pg_notify(${channel}, ${payload})`);
}

export interface ListenOptions {
  /** Each payload received on the channel (including this process's own). */
  onMessage: (payload: string) => void;
  /** After the connection was lost and made again: messages sent meanwhile were missed. */
  onReconnect?: () => void;
  log?: (message: string) => void;
  /** First wait before reconnecting (doubling up to 30 s); tests shorten it. */
  retryMs?: number;
  /** How often the listening connection is checked (a dead peer sends no error). */
  pingMs?: number;
}

export interface Listening {
  close(): Promise<void>;
}

/**
 * Listens on `channel`. PostgreSQL: a dedicated connection (not one of the pool's), made again
 * when it drops (logged; `onReconnect` is called once it listens again) and checked every
 * `pingMs`. PGlite: its own listen, in this process.
 */
export async function listen(database: Database, channel: string, options: ListenOptions): Promise<Listening> {
  if (!CHANNEL.test(channel)) throw new Error(`not a channel name: ${channel}`);
  const log = options.log ?? ((m: string) => logger.error(`[db] ${m}`));
  const driver = driverOf(database);
  if (driver.kind === 'pglite') {
    const stop = await driver.pglite.listen(channel, (payload) => options.onMessage(payload));
    return {
      async close() {
        if (!driver.pglite.closed) await stop();
      },
    };
  }
  const { connectionString } = driver.pool.options;
  const retryMs = options.retryMs ?? 1000;
  const pingMs = options.pingMs ?? 30_000;
  let current: pg.Client | null = null;
  let closed = false;
  let attempt = 0;
  let retry: NodeJS.Timeout | undefined;

  const dropped = (client: pg.Client, reason: string) => {
    if (closed || current !== client) return;
    current = null;
    log(`LISTEN ${channel}: connection lost (${reason}); reconnecting`);
    client.removeAllListeners('end');
    void client.end().catch(() => {});
    schedule();
  };
  const connect = async () => {
    const client = new pg.Client({
      connectionString,
      application_name: 'bawaba-site listen',
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
      query_timeout: 10_000,
    });
    client.on('notification', (message) => {
      if (message.channel === channel) options.onMessage(message.payload ?? '');
    });
    client.on('error', (error) => dropped(client, error.message));
    client.on('end', () => dropped(client, 'connection ended'));
    try {
      await client.connect();
      await client.query(`listen ${channel}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      throw error;
    }
    if (closed) {
      await client.end().catch(() => {});
      return;
    }
    current = client;
  };
  const schedule = () => {
    const wait = Math.min(30_000, retryMs * 2 ** Math.min(attempt++, 10));
    retry = setTimeout(async () => {
      if (closed) return;
      try {
        await connect();
        attempt = 0;
        log(`LISTEN ${channel}: listening again`);
        options.onReconnect?.();
      } catch (error) {
        log(
          `LISTEN ${channel}: could not reconnect (${String(error)}); next try in ${Math.min(30_000, retryMs * 2 ** Math.min(attempt, 10))} ms`,
        );
        schedule();
      }
    }, wait);
    retry.unref();
  };
  const ping = setInterval(() => {
    const client = current;
    if (client) client.query('select 1').catch((error: unknown) => dropped(client, `no answer: ${String(error)}`));
  }, pingMs);
  ping.unref();

  try {
    await connect();
  } catch (error) {
    log(`LISTEN ${channel}: could not connect (${String(error)}); retrying`);
    schedule();
  }
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(ping);
      const client = current;
      current = null;
      if (client) {
        client.removeAllListeners('end');
        await client.end().catch(() => {});
      }
    },
  };
}
