/**
 * npm run backup
 * A consistent copy of the embedded database (client data and the editors' content) and of the
 * data folder's signing secret, into a folder named by the time under BACKUP_DIR (default
 * backups/), while the site runs (ADR 0031, docs/operating.md#back-up). A server running on the
 * data folder (CONTENT_DATA_DIR) makes it, asked through the folder's socket; with no server
 * running the command opens the folder itself. Older backups beyond BACKUP_KEEP are removed.
 * The hosted world's PostgreSQL is backed up with pg_dump instead.
 * Exits 2 when there is nothing this command can back up, 1 when the backup failed.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pruneBackups, writeBackup } from '~/db/backup.server';
import { NoServerError, requestBackup } from '~/db/backup-service.server';
import { databaseFolder, openDatabase } from '~/db/client.server';
import { FolderInUseError, lockDataFolder } from '~/db/folder-lock.server';
import { env } from '~/lib/env.server';

const fail = (code: number, message: string): never => {
  console.error(`backup: ${message}`);
  process.exit(code);
};

// What the server's modules say while this runs goes to standard error; standard output carries the result.
const log = console.log;
console.log = console.error;

async function main() {
  const e = env();
  if (e.database.kind !== 'pglite')
    fail(2, 'the database is PostgreSQL (DATABASE_URL): back it up with pg_dump (docs/operating.md#back-up)');
  const { dataDir } = e.database as { dataDir: string };
  try {
    const answer = await requestBackup(dataDir);
    if (!answer.ok) return fail(1, `the server could not make it: ${answer.error}`);
    report(answer.backup, answer.removed, 'made by the running server');
    return;
  } catch (error) {
    if (!(error instanceof NoServerError)) return fail(1, error instanceof Error ? error.message : String(error));
  }
  // No server answers: this process opens the folder, unless another one has it.
  if (!existsSync(path.join(databaseFolder(dataDir), 'PG_VERSION')))
    fail(2, `there is no database in ${databaseFolder(dataDir)} (CONTENT_DATA_DIR=${dataDir})`);
  let lock;
  try {
    lock = lockDataFolder(dataDir, 'npm run backup');
  } catch (error) {
    if (error instanceof FolderInUseError)
      fail(
        1,
        `${error.message}\nThat process does not make backups (a command, or a server from before them): run this again when it ends.`,
      );
    throw error;
  }
  const opened = await openDatabase({ kind: 'pglite', dataDir, migrate: false, importLog: false });
  try {
    const made = await writeBackup({ snapshot: opened.snapshot!, dataDir, dir: e.backups.dir });
    report(made, pruneBackups(path.resolve(e.backups.dir), e.backups.keep), 'no server was running');
  } finally {
    await opened.close();
    lock.release();
  }
}

function report(made: { path: string; bytes: number; ms: number }, removed: string[], how: string) {
  log(`${made.path}\t${(made.bytes / 1e6).toFixed(1)} MB\t${made.ms} ms\t(${how})`);
  if (removed.length) log(`removed (BACKUP_KEEP): ${removed.join(', ')}`);
}

await main();
