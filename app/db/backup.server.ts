import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { databaseFolder, openDatabase } from './client.server';
import { lockDataFolder, namesIn } from './folder-lock.server';
import { readMigrations } from './migrate.server';
import { loadPgliteFolder } from './pglite.server';
import * as schema from './schema.server';
import type { Database, Db } from './types.server';

/**
 * Backups of the embedded database (ADR 0031, docs/operating.md#back-up). A backup is a folder
 * named by its UTC time (`2026-11-29T08-30-00-123Z`, so names sort by age) holding:
 * - `database.tar.gz`: PGlite's own dump of its data folder (`dumpDataDir`), taken by the process
 *   that has the database open: client data and the editors' content (the lake is in the same
 *   database, uploaded images included);
 * - `session-secret`: the data folder's signing secret, when it has one, so sessions and form
 *   tokens survive a restore (which makes a backup as private as the server);
 * - `manifest.json`: when, the dump's size and SHA-256, the migration level.
 * A backup is written aside (`.NAME.partial`) and renamed when whole; files are the owner's only.
 */
export const BACKUP_NAME = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;
const DATABASE_FILE = 'database.tar.gz';
const MANIFEST_FILE = 'manifest.json';
const SECRET_FILE = 'session-secret';

export type BackupManifest = {
  format: 1;
  createdAt: string;
  database: { file: string; bytes: number; sha256: string };
  /** Migrations the site that made it had applied (the database itself says too: checkDatabase). */
  migrations: { applied: number; last: string | null };
  sessionSecret: boolean;
};

export type MadeBackup = { name: string; path: string; bytes: number; ms: number };

/** A backup that cannot be used, a folder that may not be restored into: said in the message. */
export class BackupError extends Error {
  override name = 'BackupError';
}

export const backupName = (at: Date) => at.toISOString().replace(/:/g, '-').replace('.', '-');

/**
 * Makes a backup of the database `snapshot` dumps (the caller has it open) and of the data
 * folder's signing secret, into `dir`. Names never collide: a taken name moves on a millisecond.
 */
export async function writeBackup(options: {
  snapshot: () => Promise<Blob>;
  dataDir: string;
  dir: string;
  now?: Date;
}): Promise<MadeBackup> {
  const started = performance.now();
  const dir = path.resolve(options.dir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let at = (options.now ?? new Date()).getTime();
  while (
    existsSync(path.join(dir, backupName(new Date(at)))) ||
    existsSync(path.join(dir, `.${backupName(new Date(at))}.partial`))
  )
    at++;
  const name = backupName(new Date(at));
  const work = path.join(dir, `.${name}.partial`);
  mkdirSync(work, { mode: 0o700 });
  try {
    const tarball = Buffer.from(await (await options.snapshot()).arrayBuffer());
    writeFileSync(path.join(work, DATABASE_FILE), tarball, { mode: 0o600 });
    const secret = path.join(path.resolve(options.dataDir), SECRET_FILE);
    const hasSecret = existsSync(secret);
    if (hasSecret) writeFileSync(path.join(work, SECRET_FILE), readFileSync(secret), { mode: 0o600 });
    const migrations = readMigrations();
    const manifest: BackupManifest = {
      format: 1,
      createdAt: new Date(at).toISOString(),
      database: { file: DATABASE_FILE, bytes: tarball.length, sha256: sha256(tarball) },
      migrations: { applied: migrations.length, last: migrations.at(-1)?.hash ?? null },
      sessionSecret: hasSecret,
    };
    writeFileSync(path.join(work, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n', { mode: 0o600 });
    renameSync(work, path.join(dir, name));
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
  const bytes = statSync(path.join(dir, name, DATABASE_FILE)).size;
  return { name, path: path.join(dir, name), bytes, ms: Math.round(performance.now() - started) };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Keeps the newest `keep` backups in `dir` (by name, which is by time) and deletes the older
 * ones; a partial backup an interrupted process left (over an hour old) goes too. Other files
 * in the folder are never touched. Returns the names deleted.
 */
export function pruneBackups(dir: string, keep: number, now = Date.now()): string[] {
  const names = namesIn(dir);
  const backups = names.filter((n) => BACKUP_NAME.test(n)).sort();
  const removed = backups.slice(0, Math.max(0, backups.length - Math.max(1, keep)));
  for (const name of removed) rmSync(path.join(dir, name), { recursive: true, force: true });
  for (const name of names.filter((n) => /^\..+\.partial$/.test(n))) {
    const full = path.join(dir, name);
    if (now - statSync(full).mtimeMs > 3_600_000) rmSync(full, { recursive: true, force: true });
  }
  return removed;
}

/** Reads a backup's manifest and dump and checks the dump is the one the manifest describes. */
export function readBackup(backup: string): { manifest: BackupManifest; tarball: Buffer; secret: Buffer | null } {
  const dir = path.resolve(backup);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(dir, MANIFEST_FILE), 'utf8')) as BackupManifest;
  } catch {
    throw new BackupError(`${dir} is not a backup (no readable ${MANIFEST_FILE})`);
  }
  if (manifest.format !== 1 || manifest.database?.file !== DATABASE_FILE)
    throw new BackupError(`${dir}: a backup format this site does not know (${String(manifest.format)})`);
  let tarball: Buffer;
  try {
    tarball = readFileSync(path.join(dir, DATABASE_FILE));
  } catch {
    throw new BackupError(`${dir}: ${DATABASE_FILE} is missing`);
  }
  if (tarball.length !== manifest.database.bytes || sha256(tarball) !== manifest.database.sha256)
    throw new BackupError(`${dir}: ${DATABASE_FILE} is damaged (its size or SHA-256 differs from the manifest's)`);
  const secretFile = path.join(dir, SECRET_FILE);
  const secret = manifest.sessionSecret && existsSync(secretFile) ? readFileSync(secretFile) : null;
  if (manifest.sessionSecret && !secret) throw new BackupError(`${dir}: ${SECRET_FILE} is missing`);
  return { manifest, tarball, secret };
}

export type DatabaseCheck = {
  /** Migrations applied in the database, and how many this site's code has. */
  migrations: { applied: number; known: number };
  /** Rows in each of the site's tables that the database has. */
  tables: Record<string, number>;
  /** Why it may not be used; empty when it may. */
  problems: string[];
};

/** The site's tables (schema.server.ts), as `schema.name` or `name` for the public schema. */
export function siteTables(): string[] {
  return (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table) => {
      const config = getTableConfig(table);
      return config.schema ? `${config.schema}.${config.name}` : config.name;
    })
    .sort();
}

/**
 * Whether a database (a restored backup, or a PostgreSQL database pg_restore filled) is this
 * site's and can be started on: its migrations are this code's (the same ones, in order, none
 * unknown), and at the code's level every table exists; each table is counted (which reads it).
 * An older level is fine: the server applies the rest at start. Changes nothing.
 */
export async function checkDatabase(db: Db): Promise<DatabaseCheck> {
  const known = readMigrations();
  const problems: string[] = [];
  const present = await db.execute<{ name: string }>(
    sql`select case when table_schema = 'public' then table_name else table_schema || '.' || table_name end as name
        from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`,
  );
  const existing = new Set(present.rows.map((r) => r.name));
  if (!existing.has('drizzle.__drizzle_migrations'))
    return {
      migrations: { applied: 0, known: known.length },
      tables: {},
      problems: ["not this site's database: it has no migrations table"],
    };
  const applied = (
    await db.execute<{ hash: string }>(sql`select hash from drizzle.__drizzle_migrations order by created_at, id`)
  ).rows;
  if (applied.length > known.length)
    problems.push(
      `made by a newer version of the site: ${applied.length} migrations applied, this one knows ${known.length}`,
    );
  const differs = applied.findIndex((m, i) => i < known.length && m.hash !== known[i]!.hash);
  if (differs >= 0) problems.push(`migration ${differs + 1} is not this site's (another project's database?)`);
  const tables: Record<string, number> = {};
  for (const name of siteTables()) {
    if (!existing.has(name)) {
      if (applied.length >= known.length) problems.push(`table ${name} is missing`);
      continue;
    }
    const [schemaName, tableName] = name.includes('.') ? name.split('.') : ['public', name];
    const counted = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from ${sql.identifier(schemaName!)}.${sql.identifier(tableName!)}`,
    );
    tables[name] = Number(counted.rows[0]?.n ?? 0);
  }
  return { migrations: { applied: applied.length, known: known.length }, tables, problems };
}

/**
 * Opens a backup's database in a scratch data folder and checks it (checkDatabase): a backup
 * whose dump is damaged, does not open, or is not this site's at a level it can start on fails.
 * `keep` leaves the opened folder for the caller (a restore moves its `db/` into place).
 */
export async function checkBackup(
  backup: string,
  scratch: string,
): Promise<DatabaseCheck & { manifest: BackupManifest }> {
  const { manifest, tarball } = readBackup(backup);
  rmSync(scratch, { recursive: true, force: true });
  try {
    await loadPgliteFolder(
      databaseFolder(scratch),
      new Blob([new Uint8Array(tarball)], { type: 'application/x-gzip' }),
    );
  } catch (error) {
    throw new BackupError(`${path.resolve(backup)}: the database does not open (${errorText(error)})`);
  }
  let opened: Database;
  try {
    opened = await openDatabase({ kind: 'pglite', dataDir: scratch, migrate: false, importLog: false });
  } catch (error) {
    throw new BackupError(`${path.resolve(backup)}: the database does not open (${errorText(error)})`);
  }
  try {
    return { ...(await checkDatabase(opened.db)), manifest };
  } finally {
    await opened.close();
  }
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Restores a backup into a stopped (or new, or empty) data folder: checks it first (checkBackup,
 * in a scratch folder inside the target, so the move into place is a rename), then puts its
 * database and signing secret in place. Refused while a process has the folder (its lock is held
 * here throughout, so no server can start on it meanwhile) and, without `force`, when the folder
 * already holds anything; with `force` what it held is kept aside as `db.replaced-TIME` and
 * `session-secret.replaced-TIME`, never deleted.
 */
export async function restoreBackup(
  backup: string,
  dataDir: string,
  options: { force?: boolean; now?: Date } = {},
): Promise<DatabaseCheck & { manifest: BackupManifest; replaced: string[] }> {
  const target = path.resolve(dataDir);
  readBackup(backup); // a backup that cannot be read is refused before the folder is touched
  const lock = lockDataFolder(target, 'npm run restore'); // FolderInUseError names the process
  const scratch = path.join(target, `.restore-${process.pid}`);
  try {
    const occupied = readdirSync(target).filter((n) => !/^server\.lock\.\d+$/.test(n) && n !== path.basename(scratch));
    if (occupied.length && !options.force)
      throw new BackupError(
        `${target} is not empty (${occupied.slice(0, 5).join(', ')}${occupied.length > 5 ? ', …' : ''}): restore into a new folder, or pass --force to replace its database and secret (the old ones are kept aside)`,
      );
    const checked = await checkBackup(backup, scratch);
    if (checked.problems.length) throw new BackupError(`${path.resolve(backup)}: ${checked.problems.join('; ')}`);
    const { secret } = readBackup(backup);
    const stamp = backupName(options.now ?? new Date());
    const replaced: string[] = [];
    const db = databaseFolder(target);
    if (existsSync(db)) {
      renameSync(db, `${db}.replaced-${stamp}`);
      replaced.push(`${db}.replaced-${stamp}`);
    }
    renameSync(databaseFolder(scratch), db);
    const secretFile = path.join(target, SECRET_FILE);
    if (secret) {
      if (existsSync(secretFile)) {
        copyFileSync(secretFile, `${secretFile}.replaced-${stamp}`);
        replaced.push(`${secretFile}.replaced-${stamp}`);
      }
      writeFileSync(`${secretFile}.new`, secret, { mode: 0o600 });
      renameSync(`${secretFile}.new`, secretFile);
    }
    return { ...checked, replaced };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    lock.release();
  }
}
