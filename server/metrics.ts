import { timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import { database } from '~/db/client.server';
import { log } from '~/lib/log.server';
import { gaugeAtScrape, metrics } from '~/lib/metrics.server';
import type { RequestFacts } from './site';

/**
 * Where /metrics is read (issue 44): on METRICS_PORT (its own server, on METRICS_HOST, loopback
 * by default), and/or on the site's own port when METRICS_TOKEN is set, to a request that sends
 * `Authorization: Bearer <token>`. Neither set: no metrics endpoint (the counters still count).
 */
export type MetricsOptions = { port: number | null; host: string; token: string | null };

export function metricsOptions(environment = process.env): MetricsOptions {
  const port = environment.METRICS_PORT ? Number(environment.METRICS_PORT) : null;
  const token = environment.METRICS_TOKEN?.trim() || null;
  if (token && token.length < 16) throw new Error('METRICS_TOKEN must be at least 16 characters');
  return { port, host: environment.METRICS_HOST || '127.0.0.1', token };
}

/** The scrape-time gauges: the mail queue (all copies' mail, from the database) and the pool. */
export function registerGauges(): void {
  gaugeAtScrape(
    'bawaba_mail_queue',
    'Mail not yet sent, by state: pending, sending (claimed), retrying (a send failed and will be tried again), dropped in the last day (given up).',
    ['state'],
    async () => {
      const { db } = await database();
      const { rows } = await db.execute<{ pending: number; sending: number; retrying: number; dropped: number }>(sql`
        select count(*) filter (where status = 'pending')::int as pending,
               count(*) filter (where status = 'sending')::int as sending,
               count(*) filter (where status = 'pending' and attempts > 0)::int as retrying,
               count(*) filter (where status = 'dropped' and created_at > now() - interval '1 day')::int as dropped
        from mail_queue where status <> 'sent'`);
      const row = rows[0] ?? { pending: 0, sending: 0, retrying: 0, dropped: 0 };
      return (['pending', 'sending', 'retrying', 'dropped'] as const).map((state) => [{ state }, Number(row[state])]);
    },
  );
  gaugeAtScrape(
    'bawaba_db_pool_connections',
    "The database pool's connections by state (total, idle, waiting: requests queued for one). PGlite: total 1.",
    ['state'],
    async () => {
      const d = await database();
      const use = d.poolUse?.() ?? { total: 1, idle: 0, waiting: 0 };
      return (['total', 'idle', 'waiting'] as const).map((state) => [{ state }, use[state]]);
    },
  );
}

/** Counts a request (site.ts calls it for every answered request but health checks). */
export function countRequest(facts: RequestFacts): void {
  const m = metrics();
  const labels = { route: facts.route, method: facts.method, status: String(facts.status) };
  m.requests.inc(labels);
  m.duration.observe(labels, facts.seconds);
  if (facts.cache === 'hit' || facts.cache === 'miss' || facts.cache === 'bypass')
    m.pageCache.inc({ outcome: facts.cache });
}

async function sendMetrics(res: ServerResponse): Promise<void> {
  const { registry } = metrics();
  const text = await registry.metrics();
  res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' });
  res.end(text);
}

/** The token check of /metrics on the site's port: true when the request was answered here. */
export function answerMetrics(options: MetricsOptions, req: IncomingMessage, res: ServerResponse): boolean {
  if (!options.token || (req.url ?? '').split('?')[0] !== '/metrics') return false;
  const given = Buffer.from(req.headers.authorization ?? '');
  const wanted = Buffer.from(`Bearer ${options.token}`);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
    res.writeHead(401, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end('Unauthorized\n');
    return true;
  }
  void sendMetrics(res).catch(() => res.writeHead(500).end());
  return true;
}

/** The metrics' own server on METRICS_PORT (null when unset). */
export function startMetricsServer(options: MetricsOptions): http.Server | null {
  if (options.port === null) return null;
  const server = http.createServer((req, res) => {
    if ((req.url ?? '').split('?')[0] !== '/metrics') return void res.writeHead(404).end();
    void sendMetrics(res).catch(() => res.writeHead(500).end());
  });
  server.listen(options.port, options.host, () => log.info(`[metrics] http://${options.host}:${options.port}/metrics`));
  return server;
}
