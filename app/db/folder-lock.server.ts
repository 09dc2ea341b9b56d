import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

/**
 * One process per embedded data folder: the embedded database (PGlite) and the write log are
 * single-process stores, and two servers on one folder would both apply the same change.
 *
 * The lock is a file `server.lock.<generation>` in the folder, holding the owner's pid, the
 * kernel's start time of that pid (so a reused pid is not taken for the owner), the host and the
 * command. No native module, no advisory locks: only operations the file system does atomically.
 * - A lock file appears whole or not at all: written aside, then hard-linked to its name, which
 *   fails when the name exists (O_EXCL semantics), so two processes can never both create it.
 * - The highest generation is the lock. Its owner alive (same host, pid alive, same start time):
 *   the folder is in use, and the caller is told by whom.
 * - Its owner gone (killed with kill -9, or the machine restarted): the next generation is
 *   created. Two processes recovering the same stale lock race for the same next name, and the
 *   link lets exactly one of them have it; the other finds a live owner on its next look. A
 *   stale lock is never deleted before it is replaced, so there is no moment where a third
 *   process could slip in: after creating its generation a process checks that no higher one
 *   exists (a higher one can only be made by whoever found this one stale, which a live owner
 *   never is), then deletes the older ones.
 * - Released (its file deleted) when the process exits normally; after a crash it is stale.
 */
export type LockOwner = {
  pid: number;
  /** /proc/<pid>/stat start time (Linux), to tell a reused pid from the owner. */
  startTime: string | null;
  host: string;
  startedAt: string;
  command: string;
  token: string;
};

export interface FolderLock {
  readonly dir: string;
  readonly file: string;
  readonly owner: LockOwner;
  release(): void;
}

export class FolderInUseError extends Error {
  readonly dir: string;
  readonly owner: LockOwner;
  constructor(dir: string, owner: LockOwner) {
    super(
      `[data] ${dir} is in use by another process: pid ${owner.pid}` +
        `${owner.host === hostname() ? '' : ` on ${owner.host}`}, started ${owner.startedAt} (${owner.command}). ` +
        'One server per data folder: stop that process first, or give this one another CONTENT_DATA_DIR.',
    );
    this.name = 'FolderInUseError';
    this.dir = dir;
    this.owner = owner;
  }
}

const LOCK = /^server\.lock\.(\d{1,15})$/;

declare global {
  var __folderLocks: Map<string, FolderLock> | undefined;
}

function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22, counted after the command name, which is in parentheses and may hold spaces.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** The names in a folder; none when the folder does not exist (yet, or any more). */
export function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

function generations(dir: string): number[] {
  return namesIn(dir)
    .map((n) => LOCK.exec(n)?.[1])
    .filter((g): g is string => g !== undefined)
    .map(Number)
    .sort((a, b) => b - a);
}

const fileOf = (dir: string, generation: number) => path.join(dir, `server.lock.${generation}`);

/** The owner written in a lock file; null when it is gone; 'unreadable' when it is not a lock. */
function readOwner(file: string): LockOwner | null | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const owner = JSON.parse(text) as LockOwner;
    return Number.isInteger(owner.pid) && typeof owner.token === 'string' ? owner : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/** Whether the lock's owner still runs. Another host's process cannot be checked: taken as alive. */
export function ownerAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    // EPERM: it exists, under another user.
  }
  const now = processStartTime(owner.pid);
  return !(owner.startTime && now && now !== owner.startTime);
}

/**
 * Takes the folder for this process, or throws FolderInUseError naming the process that has it.
 * Taking it again in the same process returns the same lock.
 */
export function lockDataFolder(folder: string, command = process.argv.slice(1).join(' ')): FolderLock {
  const dir = path.resolve(folder);
  const held = (globalThis.__folderLocks ??= new Map());
  const existing = held.get(dir);
  if (existing) return existing;
  mkdirSync(dir, { recursive: true });
  const owner: LockOwner = {
    pid: process.pid,
    startTime: processStartTime(process.pid),
    host: hostname(),
    startedAt: new Date().toISOString(),
    command: command.slice(0, 200),
    token: randomBytes(12).toString('base64url'),
  };
  for (let attempt = 0; attempt < 50; attempt++) {
    const all = generations(dir);
    const top = all[0];
    // Any live owner holds the folder (normally only the highest generation is left; an older
    // file is one whose cleanup was cut short, and a file that is not a lock is ignored).
    for (const g of all) {
      const current = readOwner(fileOf(dir, g));
      if (current === null || current === 'unreadable') continue;
      if (current.pid === process.pid && current.host === owner.host) {
        // This process took it earlier (its module evaluated again): it is ours.
        return remember(dir, fileOf(dir, g), current);
      }
      if (ownerAlive(current)) throw new FolderInUseError(dir, current);
    }
    const generation = (top ?? 0) + 1;
    const file = fileOf(dir, generation);
    const temp = path.join(dir, `.server.lock.${process.pid}.${owner.token}.tmp`);
    writeFileSync(temp, JSON.stringify(owner) + '\n', { mode: 0o644 });
    try {
      linkSync(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue; // another process took it: look again
      throw error;
    } finally {
      unlinkSync(temp);
    }
    if (generations(dir)[0]! > generation) {
      unlinkSync(file);
      continue;
    }
    for (const older of generations(dir)) {
      if (older < generation) {
        try {
          unlinkSync(fileOf(dir, older));
        } catch {
          // gone already
        }
      }
    }
    return remember(dir, file, owner);
  }
  throw new Error(`[data] could not lock ${dir}: the lock kept changing hands`);
}

function remember(dir: string, file: string, owner: LockOwner): FolderLock {
  const lock: FolderLock = {
    dir,
    file,
    owner,
    release() {
      process.off('exit', lock.release);
      globalThis.__folderLocks?.delete(dir);
      const current = readOwner(file);
      if (current && current !== 'unreadable' && current.token === owner.token) {
        try {
          unlinkSync(file);
        } catch {
          // already gone
        }
      }
    },
  };
  process.on('exit', lock.release);
  globalThis.__folderLocks!.set(dir, lock);
  return lock;
}
