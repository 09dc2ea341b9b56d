import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { applyMigrations, migrationsHash, readMigrations } from './migrate.server';
import * as schema from './schema.server';
import type { Db } from './types.server';
import { log as logger } from '~/lib/log.server';

/**
 * PGlite (PostgreSQL in WebAssembly, in this process) for the embedded world and for tests.
 *
 * A new PGlite folder runs initdb, which costs seconds (3.6-5 s measured here on two shared
 * cores, up to 16 s under load); reopening a folder costs a quarter of a second. Tests and the
 * end-to-end servers start on fresh folders all the time, so the empty database, with every
 * migration applied, is made once and kept as a template: a folder copied from it opens in
 * about half a second (ADR 0019 has the figures). The template is keyed by PGlite's version and
 * the migrations' hash, kept in node_modules/.cache/ (the project's own, never a shared temp
 * folder another user could plant a database in), made aside and renamed into place, so
 * processes making it at once never see half of one. Without a writable node_modules the
 * folder is made by initdb as usual.
 *
 * Durability: PGlite's file system layer does not fsync. A process killed with kill -9 keeps
 * every committed transaction (the writes reached the kernel); a power loss may lose the last
 * ones. The hosted world's PostgreSQL has no such caveat.
 */
function pgliteVersion(): string {
  const require = createRequire(import.meta.url);
  let dir = path.dirname(require.resolve('@electric-sql/pglite'));
  for (let i = 0; i < 5; i++, dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@electric-sql/pglite' && pkg.version) return pkg.version;
    }
  }
  return 'unknown';
}

type Template = { folder: string; tarball: string };

declare global {
  var __pgliteTemplate: Promise<Template | null> | undefined;
  var __pgliteTemplateBlob: Promise<Blob> | undefined;
}

function templateRoot(): string | null {
  const modules = path.resolve('node_modules');
  try {
    if (!statSync(modules).isDirectory()) return null;
  } catch {
    return null;
  }
  return path.join(modules, '.cache', 'bawaba-pglite-template');
}

async function makeTemplate(): Promise<Template | null> {
  const root = templateRoot();
  if (!root) return null;
  const migrations = readMigrations();
  const key = createHash('sha256')
    .update(`pglite ${pgliteVersion()}\n${migrationsHash(migrations)}`)
    .digest('hex')
    .slice(0, 24);
  const ready = path.join(root, key);
  const template = { folder: path.join(ready, 'pgdata'), tarball: path.join(ready, 'pgdata.tar') };
  if (existsSync(path.join(ready, 'ready'))) return template;
  try {
    mkdirSync(root, { recursive: true });
    const work = path.join(root, `.${key}.${process.pid}.${randomBytes(4).toString('hex')}`);
    mkdirSync(work, { recursive: true });
    const pg = await PGlite.create(path.join(work, 'pgdata'));
    try {
      await applyMigrations(drizzle(pg, { schema }) as unknown as Db, migrations);
      const dump = await pg.dumpDataDir('none');
      writeFileSync(path.join(work, 'pgdata.tar'), Buffer.from(await dump.arrayBuffer()));
    } finally {
      await pg.close();
    }
    writeFileSync(path.join(work, 'ready'), new Date().toISOString() + '\n');
    try {
      renameSync(work, ready);
    } catch (error) {
      // Another process put its template there first: use that one.
      rmSync(work, { recursive: true, force: true });
      if (!existsSync(path.join(ready, 'ready'))) throw error;
    }
    return template;
  } catch (error) {
    logger.error(`[db] no database template (each new database runs initdb): ${String(error)}`);
    return null;
  }
}

function template(): Promise<Template | null> {
  globalThis.__pgliteTemplate ??= makeTemplate();
  return globalThis.__pgliteTemplate;
}

/** A PGlite folder holds a database once initdb has written PG_VERSION. */
const isDatabaseFolder = (folder: string) => existsSync(path.join(folder, 'PG_VERSION'));

/**
 * Opens (creating when new) the PGlite database in `folder`, or a new one in memory when the
 * folder is undefined. The caller holds the data folder's lock. Migrations are applied after.
 */
export async function openPglite(folder: string | undefined): Promise<PGlite> {
  const t = await template();
  if (folder === undefined) {
    if (!t) return PGlite.create();
    globalThis.__pgliteTemplateBlob ??= readFile(t.tarball).then((bytes) => new Blob([bytes]));
    return PGlite.create({ loadDataDir: await globalThis.__pgliteTemplateBlob });
  }
  if (t && !isDatabaseFolder(folder)) {
    // A new folder: a copy of the template, made aside and renamed into place, so a crash
    // mid-copy leaves no half database behind (the next start copies again).
    const aside = `${folder}.new-${process.pid}`;
    rmSync(aside, { recursive: true, force: true });
    cpSync(t.folder, aside, { recursive: true });
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(path.dirname(folder), { recursive: true });
    renameSync(aside, folder);
  }
  mkdirSync(path.dirname(folder), { recursive: true });
  return PGlite.create(folder);
}

/**
 * Writes a database from a tarball PGlite made (`dumpDataDir`, a backup) into `folder`, which
 * must not hold one yet. Opening it replays the write-ahead log the tarball holds, as after a
 * crash, so only committed transactions remain (ADR 0031); closing it shuts it down cleanly.
 */
export async function loadPgliteFolder(folder: string, tarball: Blob): Promise<void> {
  if (isDatabaseFolder(folder)) throw new Error(`${folder} already holds a database`);
  mkdirSync(folder, { recursive: true });
  const pg = await PGlite.create({ dataDir: folder, loadDataDir: tarball });
  await pg.close();
}
