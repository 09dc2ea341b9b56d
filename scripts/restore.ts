/**
 * npm run restore -- BACKUP DATA_FOLDER [--force]
 *   Restores a backup (`npm run backup`) into a stopped, new or empty data folder, after checking
 *   it: its dump is whole (SHA-256), it opens, it is this site's database at a migration level
 *   this code can start on, and every table reads. Refused while a process has the folder, and
 *   into a folder that holds anything unless --force (which keeps the old database and secret
 *   aside as *.replaced-TIME).
 * npm run restore -- --check BACKUP
 *   The same check, nothing restored.
 * npm run restore -- --check postgres://…
 *   The same check of a PostgreSQL database (the hosted world, after pg_restore); changes nothing.
 * Exits 2 on bad arguments, 1 when the check or the restore fails.
 */
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BackupError, checkBackup, checkDatabase, restoreBackup, type DatabaseCheck } from '~/db/backup.server';
import { openDatabase } from '~/db/client.server';
import { FolderInUseError } from '~/db/folder-lock.server';

const USAGE = 'usage: npm run restore -- BACKUP DATA_FOLDER [--force] | --check BACKUP | --check postgres://…';

function print(check: DatabaseCheck) {
  const rows = Object.values(check.tables).reduce((a, b) => a + b, 0);
  console.log(
    `migrations: ${check.migrations.applied} of ${check.migrations.known}` +
      (check.migrations.applied < check.migrations.known ? ' (the rest are applied when the server starts)' : ''),
  );
  console.log(`tables: ${Object.keys(check.tables).length}, rows: ${rows}`);
  for (const [name, count] of Object.entries(check.tables)) console.log(`  ${name}\t${count}`);
  for (const problem of check.problems) console.error(`problem: ${problem}`);
}

async function main() {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const check = args.includes('--check');
  const positional = args.filter((a) => !a.startsWith('--'));
  if (
    args.some((a) => a.startsWith('--') && a !== '--force' && a !== '--check') ||
    positional.length !== (check ? 1 : 2) ||
    (check && force)
  ) {
    console.error(USAGE);
    process.exit(2);
  }
  const [source, target] = positional as [string, string | undefined];
  if (check && /^postgres(ql)?:\/\//.test(source)) {
    const opened = await openDatabase({ kind: 'postgres', url: source, poolSize: 1, migrate: false });
    try {
      const result = await checkDatabase(opened.db);
      print(result);
      if (result.problems.length) process.exit(1);
    } finally {
      await opened.close();
    }
    return;
  }
  if (check) {
    const scratch = path.join(os.tmpdir(), `restore-check-${process.pid}`);
    try {
      const result = await checkBackup(source, scratch);
      console.log(`backup of ${result.manifest.createdAt}, ${(result.manifest.database.bytes / 1e6).toFixed(1)} MB`);
      print(result);
      if (result.problems.length) process.exit(1);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    return;
  }
  const result = await restoreBackup(source, target!, { force });
  print(result);
  for (const kept of result.replaced) console.log(`kept aside: ${kept}`);
  console.log(
    `restored ${path.resolve(source)} into ${path.resolve(target!)}: start the server with CONTENT_DATA_DIR=${target}`,
  );
}

try {
  await main();
} catch (error) {
  console.error(
    error instanceof BackupError || error instanceof FolderInUseError
      ? `restore: ${error.message}`
      : `restore: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}
