import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Assume } from 'drizzle-orm/utils';
import type * as schema from './schema.server';

/** What a raw `execute` answers in both drivers (PGlite's Results, node-postgres' QueryResult). */
export type RowsResult<T> = { rows: T[] };
export interface RowsResultHKT extends PgQueryResultHKT {
  type: RowsResult<Assume<this['row'], Record<string, unknown>>>;
}

/**
 * The database, whichever world: Drizzle over PGlite (embedded) or over node-postgres (hosted).
 * The only type other modules see; none of them imports a driver.
 */
export type Db = PgDatabase<RowsResultHKT, typeof schema>;

/** A transaction handed to `db.transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export type DatabaseKind = 'pglite' | 'postgres';

/** An open database and what it runs on. */
export interface Database {
  readonly db: Db;
  readonly kind: DatabaseKind;
  /** Where it lives: the data folder (PGlite), 'memory', or the server's host and database name. */
  readonly where: string;
  /**
   * PGlite only: the whole database as one consistent tarball (gzip), taken while it keeps
   * serving: committed transactions in, one in flight left out (ADR 0031, app/db/backup.server.ts).
   */
  snapshot?(): Promise<Blob>;
  close(): Promise<void>;
  /** The connection pool's use (hosted PostgreSQL; PGlite has one connection and no pool). */
  poolUse?(): { total: number; idle: number; waiting: number };
}
