/**
 * Databases of a test's own. Store-level tests run on both engines:
 * - PGlite, always (in memory, or in a folder when the test needs one);
 * - a real PostgreSQL when TEST_DATABASE_URL names a server (scripts/test-all.sh starts a
 *   throwaway cluster and sets it): each test gets a new database there, dropped at close, copied
 *   from a migrated template as PGlite's are (pglite.server.ts).
 * In CI (CI=true) PostgreSQL is required: without TEST_DATABASE_URL its tests fail, never skip.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from './client.server';
import { applyMigrations, migrationsHash } from './migrate.server';
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

async function adminQuery(statement: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: adminUrl(), connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await client.query(statement, params);
  } finally {
    await client.end();
  }
}

const newDatabaseName = () => `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
const urlOf = (name: string) => {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
};
const databaseExists = async (name: string) =>
  (await adminQuery('select 1 from pg_database where datname = $1', [name])).rowCount === 1;

declare global {
  var __postgresTemplate: Promise<string> | undefined;
}

/**
 * The empty database with every migration applied, made once per set of migrations (its name
 * carries their hash) and kept on the test server: a test's database is copied from it (CREATE
 * DATABASE … TEMPLATE, a tenth of a second) instead of migrated anew (a second or more on a busy
 * machine, for each of hundreds of tests). Made under a name of its own and renamed into place,
 * so test processes making it at once never copy half of one; it takes no connections after, as
 * PostgreSQL copies a template only while no one is connected to it. The migrations still run
 * on a real PostgreSQL from nothing: when this template is made.
 */
async function postgresTemplate(): Promise<string> {
  globalThis.__postgresTemplate ??= (async () => {
    const name = `test_template_${migrationsHash().slice(0, 24)}`;
    if (await databaseExists(name)) return name;
    const work = newDatabaseName();
    await adminQuery(`create database "${work}"`);
    try {
      const database = await openDatabase({ kind: 'postgres', url: urlOf(work), poolSize: 1, migrate: false });
      try {
        await applyMigrations(database.db);
      } finally {
        await database.close();
      }
      await adminQuery(`alter database "${work}" with allow_connections false`);
      // A connection just closed can take a moment to leave the server (55006: still in use).
      for (let attempt = 1; ; attempt++) {
        try {
          await adminQuery(`alter database "${work}" rename to "${name}"`);
          break;
        } catch (error) {
          if ((error as { code?: string }).code !== '55006' || attempt === 50) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    } catch (error) {
      await adminQuery(`drop database if exists "${work}" with (force)`);
      // Another process put its template there first: use that one.
      if (!(await databaseExists(name))) throw error;
    }
    return name;
  })().catch((error: unknown) => {
    globalThis.__postgresTemplate = undefined;
    throw error;
  });
  return globalThis.__postgresTemplate;
}

/**
 * A new database on the test server, with every migration applied (a copy of the template);
 * returns its URL and how to drop it.
 */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const template = await postgresTemplate();
  const name = newDatabaseName();
  await adminQuery(`create database "${name}" template "${template}"`);
  return { url: urlOf(name), drop: () => adminQuery(`drop database if exists "${name}" with (force)`).then(() => {}) };
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
