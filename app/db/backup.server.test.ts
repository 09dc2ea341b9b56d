import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { BackupError, checkBackup, checkDatabase, pruneBackups, restoreBackup, writeBackup } from './backup.server';
import { requestBackup, serveBackups, socketPath } from './backup-service.server';
import { openDatabase } from './client.server';
import { FolderInUseError } from './folder-lock.server';
import { readMigrations } from './migrate.server';
import { testDatabaseKinds, openTestDatabase } from './test-support';
import type { Database, Db } from './types.server';

const folders: string[] = [];
const open: Database[] = [];
const scratch = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'backup-test-'));
  folders.push(dir);
  return dir;
};
afterEach(async () => {
  for (const d of open.splice(0)) await d.close();
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
}, 60_000);

async function dataFolder() {
  const dataDir = path.join(scratch(), 'data');
  const database = await openDatabase({ kind: 'pglite', dataDir });
  open.push(database);
  writeFileSync(path.join(dataDir, 'session-secret'), 'the-secret-of-this-folder-0123456789abcdef', { mode: 0o600 });
  return { dataDir, database };
}

const addRow = (db: Db, subject: string) =>
  db.execute(
    sql`insert into rate_limits (kind, subject, window_start, count, expires_at) values ('test', ${subject}, now(), 1, now() + interval '1 day')`,
  );
const subjects = async (db: Db) =>
  (
    await db.execute<{ subject: string }>(sql`select subject from rate_limits where kind = 'test' order by subject`)
  ).rows.map((r) => r.subject);

/** Restores a backup into a new folder and opens it as the server would. */
async function restored(backup: string) {
  const target = path.join(scratch(), 'restored');
  await restoreBackup(backup, target);
  const database = await openDatabase({ kind: 'pglite', dataDir: target });
  open.push(database);
  return { target, db: database.db };
}

// Each case opens, dumps and loads whole PGlite databases: seconds each on a loaded 2-core machine.
describe('backups of the embedded database', { timeout: 120_000 }, () => {
  it('a snapshot taken during a transaction holds what was committed and nothing of the transaction', async () => {
    const { dataDir, database } = await dataFolder();
    await addRow(database.db, 'committed');
    const dir = path.join(scratch(), 'backups');
    let made: Awaited<ReturnType<typeof writeBackup>> | undefined;
    await database.db.transaction(async (tx) => {
      await addRow(tx as unknown as Db, 'in-flight-1');
      made = await writeBackup({ snapshot: database.snapshot!, dataDir, dir });
      await addRow(tx as unknown as Db, 'in-flight-2');
    });
    await addRow(database.db, 'after');
    expect(made!.name).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/);
    expect(readdirSync(made!.path).sort()).toEqual(['database.tar.gz', 'manifest.json', 'session-secret']);
    expect(statSync(made!.path).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(made!.path, 'database.tar.gz')).mode & 0o777).toBe(0o600);
    const { target, db } = await restored(made!.path);
    expect(await subjects(db)).toEqual(['committed']);
    expect(readFileSync(path.join(target, 'session-secret'), 'utf8')).toBe(
      'the-secret-of-this-folder-0123456789abcdef',
    );
    expect(statSync(path.join(target, 'session-secret')).mode & 0o777).toBe(0o600);
  });

  it('names sort by time and never collide; the newest N are kept, other files and fresh partials are left', async () => {
    const { dataDir, database } = await dataFolder();
    const dir = path.join(scratch(), 'backups');
    const now = new Date('2026-11-29T08:30:00.000Z');
    const names: string[] = [];
    for (let i = 0; i < 4; i++)
      names.push((await writeBackup({ snapshot: database.snapshot!, dataDir, dir, now })).name);
    expect(names).toEqual([
      '2026-11-29T08-30-00-000Z',
      '2026-11-29T08-30-00-001Z',
      '2026-11-29T08-30-00-002Z',
      '2026-11-29T08-30-00-003Z',
    ]);
    writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    mkdirSync(path.join(dir, '.2026-11-29T07-00-00-000Z.partial'));
    mkdirSync(path.join(dir, '.2026-11-29T08-29-00-000Z.partial'));
    const old = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(path.join(dir, '.2026-11-29T07-00-00-000Z.partial'), old, old);
    expect(pruneBackups(dir, 2)).toEqual(names.slice(0, 2));
    expect(readdirSync(dir).sort()).toEqual(
      ['.2026-11-29T08-29-00-000Z.partial', ...names.slice(2), 'notes.txt'].sort(),
    );
  });

  it('a damaged or foreign backup is refused before the folder is touched', async () => {
    const { dataDir, database } = await dataFolder();
    const made = await writeBackup({ snapshot: database.snapshot!, dataDir, dir: path.join(scratch(), 'b') });
    const file = path.join(made.path, 'database.tar.gz');
    const bytes = readFileSync(file);
    bytes[bytes.length >> 1] ^= 0xff;
    writeFileSync(file, bytes);
    const target = path.join(scratch(), 'target');
    await expect(restoreBackup(made.path, target)).rejects.toThrow(/is damaged/);
    expect(existsSync(target)).toBe(false);
    await expect(restoreBackup(scratch(), target)).rejects.toThrow(BackupError);
  });

  it('refuses a folder that holds anything unless forced (the old database kept aside), and one a process has', async () => {
    const { dataDir, database } = await dataFolder();
    await addRow(database.db, 'from-backup');
    const made = await writeBackup({ snapshot: database.snapshot!, dataDir, dir: path.join(scratch(), 'b') });
    const other = await dataFolder();
    await addRow(other.database.db, 'was-there');
    await other.database.close();
    await expect(restoreBackup(made.path, other.dataDir)).rejects.toThrow(/is not empty.*--force/);
    const done = await restoreBackup(made.path, other.dataDir, { force: true, now: new Date('2026-11-29T09:00:00Z') });
    expect(done.replaced.map((p) => path.basename(p)).sort()).toEqual([
      'db.replaced-2026-11-29T09-00-00-000Z',
      'session-secret.replaced-2026-11-29T09-00-00-000Z',
    ]);
    const reopened = await openDatabase({ kind: 'pglite', dataDir: other.dataDir });
    open.push(reopened);
    expect(await subjects(reopened.db)).toEqual(['from-backup']);
    // A live process (here the test runner's parent) holds a third folder.
    const held = path.join(scratch(), 'held');
    mkdirSync(held);
    const owner = {
      pid: process.ppid,
      startTime: null,
      host: hostname(),
      startedAt: new Date().toISOString(),
      command: 'npm start',
      token: 'x',
    };
    writeFileSync(path.join(held, 'server.lock.1'), JSON.stringify(owner));
    await expect(restoreBackup(made.path, held, { force: true })).rejects.toThrow(FolderInUseError);
    expect(readdirSync(held)).toEqual(['server.lock.1']);
  });

  it('checks the migration level: a newer database than the code is refused, an older one is started on', async () => {
    const { dataDir, database } = await dataFolder();
    const made = await writeBackup({ snapshot: database.snapshot!, dataDir, dir: path.join(scratch(), 'b') });
    const ok = await checkBackup(made.path, path.join(scratch(), 'check'));
    expect(ok.problems).toEqual([]);
    expect(ok.migrations).toEqual({ applied: readMigrations().length, known: readMigrations().length });
    expect(Object.keys(ok.tables)).toContain('lake_documents');
    expect(Object.keys(ok.tables)).toContain('billing_invoices');
    await database.db.execute(
      sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-the-future', 99999999999999)`,
    );
    expect((await checkDatabase(database.db)).problems.join()).toMatch(/newer version of the site/);
    const newer = await writeBackup({ snapshot: database.snapshot!, dataDir, dir: path.join(scratch(), 'b') });
    await expect(restoreBackup(newer.path, path.join(scratch(), 'x'))).rejects.toThrow(/newer version/);
    await database.db.execute(sql`delete from drizzle.__drizzle_migrations where hash = 'from-the-future'`);
    await database.db.execute(sql`drop table lake_editor_preferences`);
    expect((await checkDatabase(database.db)).problems).toEqual(['table lake_editor_preferences is missing']);
  });

  it.each(testDatabaseKinds())('the same check reads a %s database and changes nothing', async (kind) => {
    const database = await openTestDatabase(kind);
    open.push(database);
    await addRow(database.db, 'one');
    const check = await checkDatabase(database.db);
    expect(check.problems).toEqual([]);
    expect(check.tables.rate_limits).toBe(1);
    expect(await subjects(database.db)).toEqual(['one']);
  });
});

describe('the running server makes the backups', { timeout: 120_000 }, () => {
  it('on request through the folder socket (owner only), one at a time, and on its schedule keeping N', async () => {
    const { dataDir, database } = await dataFolder();
    await addRow(database.db, 'a');
    const dir = path.join(scratch(), 'backups');
    const lines: string[] = [];
    const service = await serveBackups({ database, dataDir, dir, keep: 3, everyMs: null, log: (l) => lines.push(l) });
    try {
      expect(statSync(socketPath(dataDir)).mode & 0o777).toBe(0o600);
      const answers = await Promise.all([requestBackup(dataDir), requestBackup(dataDir), service.backup()]);
      const names = answers.map((a) => ('ok' in a ? (a.ok ? a.backup.name : a.error) : a.backup.name));
      expect(new Set(names).size).toBe(3);
      for (const name of names) expect(readdirSync(path.join(dir, name!))).toContain('database.tar.gz');
      expect(lines).toHaveLength(3);
    } finally {
      await service.close();
    }
    expect(existsSync(socketPath(dataDir))).toBe(false);
    const scheduled = await serveBackups({ database, dataDir, dir, keep: 2, everyMs: 150, log: (l) => lines.push(l) });
    try {
      await expect
        .poll(() => lines.filter((l) => l.includes('older ones removed')).length, { timeout: 10_000 })
        .toBeGreaterThan(1);
    } finally {
      await scheduled.close();
    }
    expect(readdirSync(dir).filter((n) => !n.startsWith('.'))).toHaveLength(2);
  });
});
