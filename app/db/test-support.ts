/**
 * Databases of a test's own. Store-level tests run on both engines:
 * - PGlite, always (in memory, or in a folder when the test needs one);
 * - a real PostgreSQL when TEST_DATABASE_URL names a server (scripts/test-all.sh starts a
 *   throwaway cluster and sets it): each test gets a new database there, dropped at close.
 * In CI (CI=true) PostgreSQL is required: without TEST_DATABASE_URL its tests fail, never skip.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from './client.server';
import type { Database, DatabaseKind } from './types.server';

export function testDatabaseKinds(): DatabaseKind[] {
  return process.env.TEST_DATABASE_URL || process.env.CI === 'true' ? ['pglite', 'postgres'] : ['pglite'];
}

function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url)
    throw new Error(
      'TEST_DATABASE_URL is not set: the PostgreSQL tests need a server (scripts/test-all.sh starts one; ' +
        'or run scripts/test-postgres.sh start and export what it prints)',
    );
  return url;
}

/** A new, empty database on the test server; returns its URL and how to drop it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = adminUrl();
  const name = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin, connectionTimeoutMillis: 10_000 });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database "${name}"`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists "${name}" with (force)`) };
}

/**
 * A fresh database of the given kind, migrated. PGlite: in memory, or in `{dataDir}/db` (the
 * folder locked, the old write log imported) when a folder is given.
 */
export async function openTestDatabase(
  kind: DatabaseKind,
  options: { dataDir?: string; poolSize?: number; logQuery?: (query: string, params: unknown[]) => void } = {},
): Promise<Database> {
  if (kind === 'pglite') return openDatabase({ kind: 'pglite', dataDir: options.dataDir, logQuery: options.logQuery });
  const created = await createPostgresDatabase();
  try {
    const database = await openDatabase({
      kind: 'postgres',
      url: created.url,
      poolSize: options.poolSize,
      logQuery: options.logQuery,
    });
    return {
      ...database,
      async close() {
        await database.close();
        await created.drop();
      },
    };
  } catch (error) {
    await created.drop();
    throw error;
  }
}

/** Makes `database()` / `db()` answer with this database (for code that takes no db argument). */
export function installDatabase(database: Database | undefined): void {
  globalThis.__database = database ? Promise.resolve(database) : undefined;
}
