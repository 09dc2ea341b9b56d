import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockDataFolder } from '~/db/folder-lock.server';
import { parseArguments } from './submissions-args';

const run = promisify(execFile);
const NOW = Date.UTC(2026, 11, 5, 12);

describe('npm run submissions: arguments', () => {
  it('defaults to the last 30 days, both kinds, text', () => {
    expect(parseArguments([], NOW)).toEqual({
      since: new Date(NOW - 30 * 86_400_000),
      kinds: ['faq', 'newsletter'],
      csv: false,
    });
  });

  it('reads --since, --until, --kind and --csv; refuses anything else', () => {
    expect(parseArguments(['--since', '2026-11-01', '--until', '2026-11-15T12:00Z', '--kind', 'faq', '--csv'])).toEqual(
      {
        since: new Date('2026-11-01T00:00:00Z'),
        until: new Date('2026-11-15T12:00:00Z'),
        kinds: ['faq'],
        csv: true,
      },
    );
    expect(() => parseArguments(['--since', '2026-13-01'])).toThrow(/not a date/);
    expect(() => parseArguments(['--since', 'yesterday'])).toThrow(/takes a date/);
    expect(() => parseArguments(['--since'])).toThrow(/takes a date/);
    expect(() => parseArguments(['--kind', 'all'])).toThrow(/faq or newsletter/);
    expect(() => parseArguments(['--since', '2026-11-02', '--until', '2026-11-01'])).toThrow(/after --since/);
    expect(() => parseArguments(['--everything'])).toThrow(/unknown argument/);
  });
});

describe('npm run submissions: the command', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'submissions-cli-'));
    // A data folder written by the previous version: its submissions are imported at the first open.
    cpSync(path.join('app', 'db', 'fixtures', 'main-data'), path.join(dir, 'data'), { recursive: true });
  });
  afterEach(() => {
    globalThis.__folderLocks?.get(path.join(dir, 'data'))?.release();
    rmSync(dir, { recursive: true, force: true });
  });
  const command = (args: string[]) =>
    run(
      process.execPath,
      ['node_modules/vite-node/vite-node.mjs', '--config', 'vitest.config.ts', 'scripts/submissions.ts', ...args],
      {
        // LOG_LEVEL: as a person runs it (the logger is silent under vitest, whose variables the child inherits).
        env: {
          ...process.env,
          CONTENT_DATA_DIR: path.join(dir, 'data'),
          DATABASE_URL: '',
          SANITY_PROJECT_ID: '',
          LOG_LEVEL: 'info',
        },
      },
    );

  it('exports CSV on standard output only (what the stores say goes to standard error), and refuses a folder a server holds', async () => {
    const { stdout, stderr } = await command(['--since', '2026-11-01', '--kind', 'faq', '--csv']);
    const lines = stdout.split('\r\n');
    expect(lines[0]).toBe('kind,submitted_at,name,email,phone,locale,page,question,id,confirmed_at,wording_version');
    expect(lines.slice(1, 3).sort()).toEqual([
      "faq,2026-11-20T09:00:04.000Z,Fixture Person,Fixture.Person@Example.com,'+971 50 000 0001,en,/faq,How long does a trade licence take?,923855f7-ee10-40f3-80b4-3a88d14db516,,",
      "faq,2026-11-20T09:00:04.000Z,سارة,sara@example.ae,'+971 50 000 0002,ar,/ar/faq,كم تستغرق الرخصة؟,62d9a134-8611-4762-b1ec-75d4c00ca530,,",
    ]);
    expect(lines[3]).toBe('');
    expect(stderr).toMatch(/imported from .*content-writes\.ndjson: 2 FAQ questions, 2 newsletter sign-ups/);
    expect(stderr).toMatch(/2 submissions \(faq\) from 2026-11-01T00:00:00\.000Z/);
    // The sign-ups stored before double opt-in are kept, unconfirmed, and never exported.
    const newsletter = await command(['--since', '2020-01-01', '--kind', 'newsletter', '--csv']);
    expect(newsletter.stdout.split('\r\n').filter(Boolean)).toHaveLength(1);
    expect(newsletter.stderr).toMatch(/0 submissions \(newsletter\)/);

    // A server (here: this process) holds the folder: the command says who, and lists nothing.
    lockDataFolder(path.join(dir, 'data'));
    const refused = await command(['--since', '2026-11-01']).then(
      () => null,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused!.stderr).toContain(`is in use by another process: pid ${process.pid}`);
  }, 60_000);
});
