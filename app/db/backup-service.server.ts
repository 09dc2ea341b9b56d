import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import path from 'node:path';
import { env } from '~/lib/env.server';
import { log } from '~/lib/log.server';
import { pruneBackups, writeBackup, type MadeBackup } from './backup.server';
import { database } from './client.server';
import type { Database } from './types.server';

/**
 * Backups made by the running server (ADR 0031). PGlite lives in the server's process, so only
 * that process can read the embedded database while the site runs: it makes the backups, on a
 * schedule (BACKUP_EVERY) and when `npm run backup` asks it to.
 *
 * The request comes through a Unix socket in the data folder (`backup.sock`), not an HTTP route:
 * nothing on any network can reach it, and the file system decides who may ask (the socket is
 * the owner's only, mode 600, like the data folder's secret next to it). The protocol is one line
 * each way: `backup` in, a JSON answer out.
 */
export const socketPath = (dataDir: string) => path.join(path.resolve(dataDir), 'backup.sock');
/** Linux's limit on a socket's path (sun_path, 108 bytes with its final zero). */
const SOCKET_PATH_MAX = 107;

export type BackupAnswer = { ok: true; backup: MadeBackup; removed: string[] } | { ok: false; error: string };

export type BackupService = {
  /** Makes a backup now (one at a time: a request during another waits for its turn). */
  backup(): Promise<{ backup: MadeBackup; removed: string[] }>;
  close(): Promise<void>;
};

export function serveBackups(options: {
  database: Database;
  dataDir: string;
  dir: string;
  keep: number;
  everyMs: number | null;
  log?: (line: string) => void;
}): Promise<BackupService> {
  const say = options.log ?? ((line: string) => log.info({ event: 'backup' }, line));
  const snapshot = options.database.snapshot;
  if (!snapshot) throw new Error('backups: only the embedded database (PGlite) is backed up by the server');
  let queue: Promise<unknown> = Promise.resolve();
  const backup = () => {
    const run = queue.then(async () => {
      const made = await writeBackup({ snapshot, dataDir: options.dataDir, dir: options.dir });
      const removed = pruneBackups(path.resolve(options.dir), options.keep);
      say(
        `[backup] ${made.path} (${(made.bytes / 1e6).toFixed(1)} MB, ${made.ms} ms)` +
          (removed.length ? `; older ones removed (BACKUP_KEEP=${options.keep}): ${removed.join(', ')}` : ''),
      );
      return { backup: made, removed };
    });
    queue = run.catch(() => {});
    return run;
  };
  const timer =
    options.everyMs === null
      ? null
      : setInterval(() => {
          backup().catch((error: unknown) => say(`[backup] the scheduled backup failed: ${errorText(error)}`));
        }, options.everyMs).unref();

  const file = socketPath(options.dataDir);
  const server: Server = createServer((socket) => {
    let line = '';
    socket.setEncoding('utf8');
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on('error', () => {});
    socket.on('data', (chunk: string) => {
      line += chunk;
      if (line.length > 100) return socket.destroy();
      if (!line.includes('\n')) return;
      socket.setTimeout(0);
      const answer = (value: BackupAnswer) => socket.end(JSON.stringify(value) + '\n');
      if (line.trim() !== 'backup') return answer({ ok: false, error: 'unknown request' });
      backup().then(
        (made) => answer({ ok: true, ...made }),
        (error: unknown) => answer({ ok: false, error: errorText(error) }),
      );
    });
  });
  const removeSocket = () => {
    try {
      unlinkSync(file);
    } catch {
      // gone already
    }
  };
  return new Promise((resolve) => {
    const service: BackupService = {
      backup,
      async close() {
        if (timer) clearInterval(timer);
        process.off('exit', removeSocket);
        await new Promise<void>((done) => (server.listening ? server.close(() => done()) : done()));
        removeSocket();
        await queue;
      },
    };
    if (Buffer.byteLength(file) > SOCKET_PATH_MAX) {
      say(`[backup] ${file} is too long a path for a socket: \`npm run backup\` cannot reach this server`);
      return resolve(service);
    }
    // The caller holds the data folder's lock: a socket file there is a stopped server's.
    if (existsSync(file)) removeSocket();
    server.once('error', (error) => {
      say(`[backup] \`npm run backup\` cannot reach this server: ${errorText(error)}`);
      resolve(service);
    });
    server.listen(file, () => {
      chmodSync(file, 0o600);
      process.on('exit', removeSocket);
      resolve(service);
    });
  });
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The server's backups (server.mjs starts them once it listens): in the embedded world with
 * PGlite only; the hosted world's PostgreSQL is backed up with pg_dump (docs/operating.md).
 */
export async function startBackupService(): Promise<BackupService | null> {
  const e = env();
  if (e.database.kind !== 'pglite') return null;
  const service = await serveBackups({
    database: await database(),
    dataDir: e.database.dataDir,
    dir: e.backups.dir,
    keep: e.backups.keep,
    everyMs: e.backups.everySeconds === null ? null : e.backups.everySeconds * 1000,
  });
  if (e.backups.everySeconds !== null)
    log.info(
      { event: 'backup.scheduled' },
      `[backup] every ${e.backups.everySeconds / 60} min into ${path.resolve(e.backups.dir)}, the newest ${e.backups.keep} kept`,
    );
  return service;
}

/** No server answers on the folder's socket (none runs, or one too old to make backups). */
export class NoServerError extends Error {
  override name = 'NoServerError';
}

/** Asks the server that has `dataDir` for a backup (`npm run backup`); NoServerError when none answers. */
export function requestBackup(dataDir: string, timeoutMs = 600_000): Promise<BackupAnswer> {
  const file = socketPath(dataDir);
  return new Promise((resolve, reject) => {
    if (!existsSync(file)) return reject(new NoServerError(`no server answers at ${file}`));
    const socket = createConnection(file);
    let text = '';
    socket.setEncoding('utf8');
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      reject(new Error(`the server did not answer within ${timeoutMs / 1000} s`));
    });
    socket.on('connect', () => socket.write('backup\n'));
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ECONNREFUSED' || error.code === 'ENOENT'
          ? new NoServerError(`no server answers at ${file}`)
          : error,
      ),
    );
    socket.on('end', () => {
      try {
        resolve(JSON.parse(text) as BackupAnswer);
      } catch {
        reject(new Error(`the server's answer was not understood: ${text.slice(0, 200)}`));
      }
    });
  });
}
