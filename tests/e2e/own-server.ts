import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';

/**
 * A site server of a test's own (`node server.mjs <build>/index.js`), started and stopped so that
 * a test never talks to the wrong process:
 * - the port must be free first (a stale server of an aborted run would otherwise answer for ours);
 * - a start is complete only when THIS child printed that it listens and answers `/`;
 * - a child that exits while starting fails the start at once, with its own output;
 * - `kill` sends SIGKILL and waits for the exit, so a restart never races the old process.
 * Inherited variables that would change the world, billing, mail or the signing secret are
 * removed; pass what the test needs in `env`.
 */
export type OwnServer = { child: ChildProcess; base: string; output: string[]; exited: Promise<string> };

const BUILD = process.env.BUILD_NAME ? `build-${process.env.BUILD_NAME}` : 'build';
const INHERITED_OUT = [
  'SESSION_SECRET',
  'SESSION_SECRET_PREVIOUS',
  'SANITY_PROJECT_ID',
  'SANITY_DATASET',
  'SANITY_API_HOST',
  'SANITY_READ_TOKEN',
  'SANITY_WRITE_TOKEN',
  'DATABASE_URL',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'SMTP_URL',
  'OUTBOX_DIR',
  'CONTENT_DATASET_FILE',
  'PORTAL_TEST_HOOKS',
  'BILLING',
];

export const portInUse = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

export async function startOwnServer(port: number, dataDir: string, env: Record<string, string>): Promise<OwnServer> {
  for (let i = 0; (await portInUse(port)) && i < 50; i++) await new Promise((r) => setTimeout(r, 100));
  if (await portInUse(port)) throw new Error(`port ${port} is taken by another process: stop it first`);
  const server = spawnOwnServer(port, dataDir, env);
  const { child, base, output, exited } = server;
  const status: { gone: string | null } = { gone: null };
  void exited.then((how) => (status.gone = how));
  const listening = `[server] http://127.0.0.1:${port}`;
  for (const started = Date.now(); Date.now() - started < 30_000;) {
    if (status.gone)
      throw new Error(`the server on ${port} stopped while starting (${status.gone}):\n${output.join('')}`);
    if (output.join('').includes(listening)) {
      try {
        if ((await fetch(`${base}/`)).ok && !status.gone) return server;
      } catch {
        // listening, not answering yet
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  await exited;
  throw new Error(`the server on ${port} did not start within 30 s:\n${output.join('')}`);
}

/**
 * The same server, spawned without waiting for it: for a test of a start that must fail (it
 * awaits `exited` and reads `output`). Everything else goes through `startOwnServer`.
 */
export function spawnOwnServer(port: number, dataDir: string, env: Record<string, string>): OwnServer {
  mkdirSync(dataDir, { recursive: true });
  const base = `http://127.0.0.1:${port}`;
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const key of INHERITED_OUT) delete childEnv[key];
  Object.assign(
    childEnv,
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_URL: base,
      CONTENT_DATA_DIR: dataDir,
      PORTAL_JOBS_INTERVAL_SECONDS: '0',
      REQUEST_LOG: '0',
    },
    env,
  );
  const child = spawn(process.execPath, ['server.mjs', `./${BUILD}/index.js`], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (d) => output.push(String(d)));
  child.stderr!.on('data', (d) => output.push(String(d)));
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? `exit code ${code}`)),
  );
  return { child, base, output, exited };
}

/**
 * Stops the server and waits for it to exit. SIGKILL by default; a test that lets the server
 * finish its work (a graceful stop) passes SIGTERM. A server that already exited (killed by
 * the test itself, or a start that failed) is only waited for.
 */
export async function kill(server: OwnServer, signal: NodeJS.Signals = 'SIGKILL') {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  await server.exited;
}
