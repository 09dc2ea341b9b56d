import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { env } from '~/lib/env.server';
import { FolderInUseError, lockDataFolder } from './folder-lock.server';
import { importBillingLog } from './import-billing.server';
import { importWriteLog } from './import-log.server';
import { importPortalLog } from './import-portal.server';
import { applyMigrations } from './migrate.server';
import { retireMovedRecords } from './retire-log.server';
import { openPglite } from './pglite.server';
import * as schema from './schema.server';
import { loadServerKeys, rememberServerKeys } from './server-keys.server';
import type { Database, Db } from './types.server';
import { log } from '~/lib/log.server';

/**
 * The database door: the one module that opens a driver. Client data (today the forms' data and
 * the rate limits; next the portal and the billing engine) lives in PostgreSQL:
 * - embedded world: PGlite in `{CONTENT_DATA_DIR}/db/`, one process per data folder (locked);
 * - hosted world: a PostgreSQL server at DATABASE_URL (required there), through node-postgres.
 * The same schema (schema.server.ts) and SQL migrations (migrations/) serve both, applied at open;
 * then the database's own keys (server-keys.server.ts) are made if missing and read, once.
 */
export type OpenOptions = (
  { kind: 'pglite'; dataDir?: string; importLog?: boolean } | { kind: 'postgres'; url: string; poolSize?: number }
) & {
  /** false: open as it is, without migrating it or making its keys (a restore's check reads it unchanged). */
  migrate?: boolean;
  /** Called with every statement the application sends (tests count them); migrations are not logged. */
  logQuery?: (query: string, params: unknown[]) => void;
};

const logger = (options: OpenOptions) =>
  options.logQuery ? { logQuery: (query: string, params: unknown[]) => options.logQuery!(query, params) } : false;

const gzipAsync = promisify(gzip);

/** Where the embedded database lives in a data folder. */
export const databaseFolder = (dataDir: string) => path.join(path.resolve(dataDir), 'db');

/**
 * Opens a database and brings its schema up to date. `dataDir` set: PGlite in `{dataDir}/db`
 * with the folder locked for this process (FolderInUseError if another has it) and the earlier
 * write log's moved records imported once; unset: a new PGlite in memory (tests).
 */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.kind === 'pglite') {
    const lock = options.dataDir === undefined ? null : lockDataFolder(options.dataDir);
    const client = await openPglite(options.dataDir === undefined ? undefined : databaseFolder(options.dataDir));
    const db = drizzlePglite(client, { schema, logger: logger(options) }) as unknown as Db;
    try {
      const setup = drizzlePglite(client, { schema }) as unknown as Db;
      if (options.migrate !== false) {
        await applyMigrations(setup);
        rememberServerKeys(db, await loadServerKeys(setup));
      }
      if (options.dataDir !== undefined && options.importLog !== false && options.migrate !== false) {
        await importWriteLog(db, options.dataDir);
        await importPortalLog(db, options.dataDir);
        await importBillingLog(db, options.dataDir);
        // Last, once every import has committed: the log's copies go.
        const retired = await retireMovedRecords(options.dataDir);
        if (retired) log.info(`[db] removed ${retired.removed} moved private records from the write log`);
      }
    } catch (error) {
      await client.close();
      throw error;
    }
    return {
      db,
      kind: 'pglite',
      where: options.dataDir === undefined ? 'memory' : databaseFolder(options.dataDir),
      // The tar is PGlite's (one synchronous pass under its query mutex, ADR 0031); the gzip is
      // zlib's in libuv's thread pool, in one call. PGlite's own gzip streams 42 MB in small chunks,
      // each waiting behind every request in the event loop: 129 s once under test traffic.
      snapshot: async () => {
        const tar = new Uint8Array(await (await client.dumpDataDir('none')).arrayBuffer());
        return new Blob([new Uint8Array(await gzipAsync(tar))], { type: 'application/x-gzip' });
      },
      async close() {
        if (!client.closed) await client.close();
        lock?.release();
      },
    };
  }
  const url = new URL(options.url);
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    // Bounded waits: a query never hangs a request for longer than this.
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: 15_000,
    application_name: 'bawaba-site',
  });
  // An idle connection the server dropped: logged, and the pool makes a new one when needed.
  pool.on('error', (error) => log.error(`[db] idle connection lost: ${error.message}`));
  const db = drizzlePg(pool, { schema, logger: logger(options) }) as unknown as Db;
  try {
    const setup = drizzlePg(pool, { schema }) as unknown as Db;
    if (options.migrate !== false) {
      await applyMigrations(setup);
      rememberServerKeys(db, await loadServerKeys(setup));
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    db,
    kind: 'postgres',
    where: `${url.hostname}:${url.port || 5432}${url.pathname}`,
    close: () => pool.end(),
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

declare global {
  var __database: Promise<Database> | undefined;
}

/** The process's database, opened on first use from the environment (once per process). */
export function database(): Promise<Database> {
  if (!globalThis.__database) {
    const e = env();
    globalThis.__database = openDatabase(
      e.database.kind === 'postgres'
        ? { kind: 'postgres', url: e.database.url }
        : { kind: 'pglite', dataDir: e.database.dataDir },
    );
  }
  return globalThis.__database;
}

/**
 * A command's database (`npm run submissions`, `content:export`, `lake:editor`): the one the
 * environment names, with one connection, and the process's database from then on; when it
 * cannot be opened (another process has the embedded folder), says why and exits with 1.
 */
export async function openCommandDatabase(command: string): Promise<Database> {
  const e = env();
  try {
    const opened = await openDatabase(
      e.database.kind === 'postgres'
        ? { kind: 'postgres', url: e.database.url, poolSize: 1 }
        : { kind: 'pglite', dataDir: e.database.dataDir },
    );
    globalThis.__database = Promise.resolve(opened);
    return opened;
  } catch (error) {
    console.error(error instanceof FolderInUseError ? error.message : `${command}: ${String(error)}`);
    process.exit(1);
  }
}

/** The process's database (Drizzle), like `contentClient()` for content. */
export async function db(): Promise<Db> {
  return (await database()).db;
}

/**
 * At server start: take the embedded data folder (exiting at once, before the server listens,
 * when another process has it), then open the database (apply migrations, import the old
 * log), or stop the process with the reason.
 */
export function startDatabase(): Promise<Database> {
  const e = env();
  if (e.content.world === 'embedded') {
    // The folder holds the write log too, even when the database is a PostgreSQL server.
    try {
      lockDataFolder(e.content.dataDir);
    } catch (error) {
      log.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    }
  }
  const opening = database();
  opening.then(
    (d) => log.info(`[db] ${d.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}: ${d.where}`),
    (error: unknown) => {
      log.error(`[db] the database could not be opened: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
  return opening;
}
