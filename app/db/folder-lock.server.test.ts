import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FolderInUseError, lockDataFolder, ownerAlive, type LockOwner } from './folder-lock.server';

let dir: string;
const children: ChildProcess[] = [];
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'folder-lock-'));
});
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  globalThis.__folderLocks?.get(dir)?.release();
  rmSync(dir, { recursive: true, force: true });
});

type Run = { child: ChildProcess; output: () => string; exit: Promise<number | string> };

/** Starts a process that takes the folder (app/db/folder-lock.child.ts), optionally at a set instant. */
function holder(goAt?: number): Run {
  const args = ['node_modules/vite-node/vite-node.mjs', 'app/db/folder-lock.child.ts', dir];
  if (goAt) args.push(String(goAt));
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const exit = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code!)),
  );
  return { child, output: () => out, exit };
}

/** Resolves when the process says it holds the folder, or fails with what it said when it exits. */
async function locked(run: Run): Promise<void> {
  for (const started = Date.now(); Date.now() - started < 20_000;) {
    if (run.output().includes(`locked ${run.child.pid}`)) return;
    if (run.child.exitCode !== null) throw new Error(`exited ${run.child.exitCode}: ${run.output()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no lock within 20 s: ${run.output()}`);
}

const lockFiles = () => readdirSync(dir).filter((n) => n.startsWith('server.lock.'));

describe('one process per data folder', () => {
  it('a second process on the folder exits at once, naming the folder and the process that has it', async () => {
    const first = holder();
    await locked(first);
    const second = holder();
    expect(await second.exit).toBe(3);
    expect(second.output()).toContain(`${dir} is in use by another process: pid ${first.child.pid}`);
    // …and what that process is (its command line).
    expect(second.output()).toMatch(/started \S+ \(\S*vite-node\.mjs /);
    expect(first.child.exitCode).toBeNull();
  });

  it('a lock left by a process killed with kill -9 does not block the next start', async () => {
    const first = holder();
    await locked(first);
    first.child.kill('SIGKILL');
    expect(await first.exit).toBe('SIGKILL');
    expect(lockFiles()).toHaveLength(1); // left behind
    const next = holder();
    await locked(next);
    // The stale generation is replaced, then removed: one lock file, the new owner's.
    expect(lockFiles()).toEqual(['server.lock.2']);
    expect(JSON.parse(readFileSync(path.join(dir, 'server.lock.2'), 'utf8'))).toMatchObject({ pid: next.child.pid });
  });

  it('processes starting at the same instant: exactly one wins, on a new folder and on a stale lock', async () => {
    for (const round of ['new folder', 'stale lock', 'stale lock again']) {
      if (round !== 'new folder') {
        // Whoever won the last round is killed with kill -9: its lock is stale now.
        for (const c of children.splice(0)) c.kill('SIGKILL');
        await new Promise((r) => setTimeout(r, 200));
      }
      const goAt = Date.now() + 2500;
      const runs = [holder(goAt), holder(goAt), holder(goAt)];
      const settled = await Promise.all(
        runs.map((r) =>
          locked(r).then(
            () => 'won',
            () => 'refused',
          ),
        ),
      );
      expect(
        settled.filter((s) => s === 'won'),
        `${round}: ${runs.map((r) => r.output()).join(' | ')}`,
      ).toHaveLength(1);
      const winner = runs[settled.indexOf('won')]!;
      for (const r of runs.filter((r) => r !== winner)) {
        expect(await r.exit).toBe(3);
        expect(r.output()).toContain(`pid ${winner.child.pid}`);
      }
      expect(lockFiles()).toHaveLength(1);
    }
  }, 60_000);
});

describe('lockDataFolder in this process', () => {
  const owner = (extra: Partial<LockOwner>): LockOwner => ({
    pid: 1,
    startTime: null,
    host: hostname(),
    startedAt: '2026-11-01T00:00:00.000Z',
    command: 'node server.mjs build/index.js',
    token: 'other',
    ...extra,
  });
  const procStart = (pid: number) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
  };

  it('is taken once per process (again = the same lock) and released: the file goes', () => {
    const lock = lockDataFolder(dir);
    expect(lockDataFolder(dir)).toBe(lock);
    expect(lockFiles()).toEqual(['server.lock.1']);
    lock.release();
    expect(lockFiles()).toEqual([]);
  });

  it('a live owner (pid and start time agree) holds it; a reused pid or a file that is not a lock does not', () => {
    writeFileSync(path.join(dir, 'server.lock.4'), JSON.stringify(owner({ startTime: procStart(1) })));
    expect(ownerAlive(owner({ startTime: procStart(1) }))).toBe(true);
    expect(() => lockDataFolder(dir)).toThrow(FolderInUseError);
    expect(() => lockDataFolder(dir)).toThrow(/in use by another process: pid 1, started 2026-11-01/);
    // The same pid started at another time is another process: the lock is stale.
    writeFileSync(path.join(dir, 'server.lock.4'), JSON.stringify(owner({ startTime: '1' })));
    writeFileSync(path.join(dir, 'server.lock.5'), 'not json');
    const lock = lockDataFolder(dir);
    expect(lock.file).toBe(path.join(dir, 'server.lock.6'));
    expect(lockFiles()).toEqual(['server.lock.6']);
  });

  it('a lock from another host cannot be checked: it is taken as held', () => {
    writeFileSync(path.join(dir, 'server.lock.1'), JSON.stringify(owner({ host: 'elsewhere', pid: 999_999 })));
    expect(() => lockDataFolder(dir)).toThrow(/pid 999999 on elsewhere/);
  });
});
