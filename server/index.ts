// The site's production server (issue 44): `npm start` (node server.mjs build/index.js). Remix
// compiles this module with the app into the server build (remix.config.js `server`), so it
// imports the app's modules themselves (typed: a renamed or removed piece fails `npm run
// typecheck`) and shares their one instance with the routes (the page cache the webhook clears
// is the one the server answers from). Start-up and shutdown are written here, in order.
import '~/lib/load-context';
import * as build from '@remix-run/dev/server-build';
import { broadcastDevReady, installGlobals, type ServerBuild } from '@remix-run/node';
import { sql } from 'drizzle-orm';
import { database, startDatabase } from '~/db/client.server';
import { startBackupService } from '~/db/backup-service.server';
import { startContentSync } from '~/lib/content-sync.server';
import { flushErrors, startErrorReporting } from '~/lib/errors.server';
import { env } from '~/lib/env.server';
import { log } from '~/lib/log.server';
import { startPortal } from '~/portal/start.server';
import { stopPortalJobTimer } from '~/portal/jobs.server';
import { contentClient } from '~/sanity/client.server';
import { Health } from './health';
import { answerMetrics, countRequest, metricsOptions, registerGauges, startMetricsServer } from './metrics';
import { startSiteLake } from './lake';
import { createSite } from './site';

const serverBuild = build as unknown as ServerBuild;

/** How long requests in flight may take to finish after SIGTERM before the process exits anyway. */
const DRAIN_MS = Number(process.env.SHUTDOWN_DRAIN_MS ?? 10_000);

export async function start(): Promise<void> {
  installGlobals({ nativeFetch: serverBuild.future.v3_singleFetch });
  // 1. The environment, validated once (a malformed setting stops here, with its reason).
  const e = env();
  // Errors to Sentry when SENTRY_DSN is set (scrubbed as the logs are); a malformed DSN stops here.
  await startErrorReporting(process.env.SENTRY_DSN);
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST || undefined;
  // 2. The embedded data folder is taken (a second server on it exits here, before it listens)
  //    and the database opened (migrations applied); 3. the content client says which world runs.
  const opening = startDatabase();
  contentClient();
  // 4. The client portal's periodic jobs (renewals, reminders, emails), and in the embedded world
  //    the demo clients; 5. this copy listens for content changes other copies report through
  //    the database (a webhook reaches one copy), to clear its caches too.
  const portal = startPortal();
  const sync = startContentSync();
  // 6. The local Content Lake (embedded world), in the background.
  const lake = startSiteLake();
  // 7. Readiness: the database answers a query and the content source a small one.
  const health = new Health(
    {
      database: async () => (await database()).db.execute(sql`select 1`),
      content: () => contentClient().fetch('count(*[_type == "siteSettings"])', {}, { perspective: 'published' }),
    },
    (name, ok, reason) =>
      ok
        ? log.info({ event: 'health.recovered', check: name }, `[health] ${name} answers again`)
        : log.warn({ event: 'health.failed', check: name, reason }, `[health] ${name} does not answer`),
  );
  // 8. Metrics: the scrape-time gauges, and /metrics on METRICS_PORT (loopback) or behind a token.
  const metricsAt = metricsOptions();
  registerGauges();
  const metricsServer = startMetricsServer(metricsAt);
  // 9. The HTTP server; ready once the database, the demo clients and the lake are there.
  const trustProxy = Number(process.env.TRUST_PROXY ?? 0);
  const server = createSite({
    build: serverBuild,
    env: e,
    lake,
    health,
    trustProxy,
    requestLog: process.env.REQUEST_LOG !== '0',
    onRequest: countRequest,
    answerMetrics: (req, res) => answerMetrics(metricsAt, req, res),
  });
  server.listen(port, host, () => log.info(`[server] http://${host ?? 'localhost'}:${port}`));
  // 10. Backups of the embedded database while the site runs (ADR 0031): on BACKUP_EVERY, and for
  //     `npm run backup` through the data folder's socket. Once the database is open.
  const backups = opening
    .then(() => startBackupService())
    .catch((error: unknown) => {
      log.error({ event: 'backup.not-started', err: error }, '[backup] not started');
      return null;
    });
  void Promise.all([opening, portal, lake?.started]).then(() => {
    if (health.phase === 'starting') health.phase = 'ready';
    if (serverBuild.mode === 'development') void broadcastDevReady(serverBuild);
  });

  // Shutdown, the same steps backwards. SIGTERM (or SIGINT): readiness answers 503 at once, the
  // server stops accepting connections and closes idle keep-alive ones, requests in flight
  // finish (at most DRAIN_MS), the jobs' run in progress finishes, then the lake and the database
  // close. A second signal exits at once.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      log.warn({ event: 'shutdown.forced', signal }, '[server] second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    health.phase = 'draining';
    log.info({ event: 'shutdown.started', signal }, `[server] ${signal}: draining`);
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const drained = await Promise.race([
      closed.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), DRAIN_MS).unref()),
    ]);
    if (!drained) {
      log.warn({ event: 'shutdown.cut', afterMs: DRAIN_MS }, '[server] requests still open: closing them');
      server.closeAllConnections();
    }
    await stopPortalJobTimer();
    await flushErrors();
    // A backup being written finishes (its turn is awaited); no new one starts.
    await (await backups)?.close();
    metricsServer?.close();
    await lake?.close();
    await (await sync)?.close().catch(() => {});
    await database()
      .then((d) => d.close())
      .catch(() => {});
    log.info({ event: 'shutdown.done' }, '[server] stopped');
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void stop(signal));
}
