import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';
import type { Db } from './types.server';

/**
 * The SQL migrations (app/db/migrations/, written by `npm run db:generate` from the schema),
 * applied at start in both worlds. Read from the checkout at run time (the server runs from
 * the project folder, as it does for public/); MIGRATIONS_DIR points elsewhere if needed.
 */
export function migrationsFolder(): string {
  const dir = path.resolve(process.env.MIGRATIONS_DIR ?? 'app/db/migrations');
  if (!existsSync(path.join(dir, 'meta', '_journal.json')))
    throw new Error(`database migrations not found in ${dir} (run the server from the project folder)`);
  return dir;
}

export function readMigrations(): MigrationMeta[] {
  return readMigrationFiles({ migrationsFolder: migrationsFolder() });
}

/** One hash of every migration: names a database template built from them (pglite.server.ts). */
export function migrationsHash(migrations = readMigrations()): string {
  const h = createHash('sha256');
  for (const m of migrations) h.update(`${m.folderMillis}:${m.hash}\n`);
  return h.digest('hex');
}

/** Any constant: the advisory lock that lets one server copy at a time migrate. */
const MIGRATION_LOCK = 270_019;

/**
 * Applies the migrations not yet applied, in one transaction, holding an advisory lock: several
 * server copies starting at once on one PostgreSQL wait for each other instead of racing to
 * create the same tables. Bookkeeping in Drizzle's own table (drizzle.__drizzle_migrations), so
 * `drizzle-kit migrate` would agree with it. Returns how many were applied.
 */
export async function applyMigrations(db: Db, migrations = readMigrations()): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await tx.execute(sql`create schema if not exists drizzle`);
    await tx.execute(
      sql`create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`,
    );
    const last = await tx.execute<{ created_at: string | number | null }>(
      sql`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    );
    const lastAt = Number(last.rows[0]?.created_at ?? -1);
    let applied = 0;
    for (const m of migrations) {
      if (m.folderMillis <= lastAt) continue;
      for (const statement of m.sql) if (statement.trim()) await tx.execute(sql.raw(statement));
      await tx.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${m.hash}, ${m.folderMillis})`,
      );
      applied++;
    }
    return applied;
  });
}
