import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The server's metrics (issue 44), in Prometheus' text format: one registry a process, read at
 * /metrics (server/metrics.ts says where: METRICS_PORT on loopback, or behind METRICS_TOKEN on
 * the site's port). Labels are bounded: a route is its pattern (`/ar/insights/:slug`), never a
 * path; a status is the number. Gauges read at scrape time (the mail queue, the database pool)
 * are registered by the server with `collect`.
 */
declare global {
  var __metrics: ReturnType<typeof create> | undefined;
}

function create() {
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'bawaba-site' });
  return {
    registry,
    requests: new Counter({
      name: 'bawaba_http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'] as const,
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'bawaba_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    pageCache: new Counter({
      name: 'bawaba_page_cache_total',
      help: 'Page requests by the rendered-page cache outcome (hit, miss, bypass).',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    jobRuns: new Counter({
      name: 'bawaba_job_runs_total',
      help: "Runs of the portal's periodic jobs by this process, by outcome (ok, failed: the run or one of its items failed).",
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    lakeRequests: new Counter({
      name: 'bawaba_lake_requests_total',
      help: "Requests to the local Content Lake's API (the Studio), by status class.",
      labelNames: ['status'] as const,
      registers: [registry],
    }),
  };
}

export function metrics(): ReturnType<typeof create> {
  globalThis.__metrics ??= create();
  return globalThis.__metrics;
}

/** A gauge read when scraped (its `read` answers the values by label set). */
export function gaugeAtScrape<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  read: () => Promise<Array<[Partial<Record<L, string>>, number]>>,
): void {
  const { registry } = metrics();
  if (registry.getSingleMetric(name)) registry.removeSingleMetric(name);
  new Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      try {
        for (const [labels, value] of await read()) this.set(labels, value);
      } catch {
        // An unreadable source leaves the gauge empty; readiness says which dependency is down.
      }
    },
  });
}
