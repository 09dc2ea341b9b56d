import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Liveness and readiness (issue 44), answered before everything else in the server (no page
 * cache, no Express, no request log line, no rate limit), so an orchestrator may poll them every
 * second:
 * - GET /healthz: 200 while the process can serve at all (its event loop answers);
 * - GET /readyz: 200 when it is started, not draining, and each dependency answered within its
 *   timeout; else 503. A check's result is kept for a second and concurrent polls share one run,
 *   so polling costs at most one database round trip and one content query a second.
 * The answers name the checks and `ok` / `fail` only: no version, path, host or error text (the
 * reason goes to the log, once per change).
 */
export type Phase = 'starting' | 'ready' | 'draining';
export type Check = () => Promise<unknown>;

export const HEALTH_PATHS = new Set(['/healthz', '/readyz']);
const CHECK_TIMEOUT_MS = 2_000;
const KEEP_MS = 1_000;

export class Health {
  phase: Phase = 'starting';
  private last: { at: number; result: Promise<Record<string, boolean>> } | null = null;
  private failing = new Set<string>();

  constructor(
    private readonly checks: Record<string, Check>,
    private readonly onChange: (name: string, ok: boolean, reason?: string) => void = () => {},
    private readonly timeoutMs = CHECK_TIMEOUT_MS,
  ) {}

  /** Each dependency's state, checked at most once a KEEP_MS. */
  dependencies(now = Date.now()): Promise<Record<string, boolean>> {
    if (this.last && now - this.last.at < KEEP_MS) return this.last.result;
    const result = Promise.all(
      Object.entries(this.checks).map(async ([name, check]) => {
        try {
          await withTimeout(check(), this.timeoutMs);
          if (this.failing.delete(name)) this.onChange(name, true);
          return [name, true] as const;
        } catch (error) {
          if (!this.failing.has(name)) {
            this.failing.add(name);
            this.onChange(name, false, error instanceof Error ? error.message : String(error));
          }
          return [name, false] as const;
        }
      }),
    ).then((entries) => Object.fromEntries(entries));
    this.last = { at: now, result };
    return result;
  }

  /** Answers /healthz or /readyz; false for any other path. */
  answer(req: IncomingMessage, res: ServerResponse): boolean {
    const path = (req.url ?? '').split('?')[0];
    if (!HEALTH_PATHS.has(path) || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    const send = (status: number, body: Record<string, unknown>) => {
      res.writeHead(status, {
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        'X-Robots-Tag': 'noindex',
      });
      res.end(req.method === 'HEAD' ? undefined : `${JSON.stringify(body)}\n`);
    };
    if (path === '/healthz') {
      send(200, { status: 'ok' });
      return true;
    }
    if (this.phase !== 'ready') {
      send(503, { status: this.phase });
      return true;
    }
    this.dependencies().then(
      (checks) => {
        const ok = Object.values(checks).every(Boolean) && this.phase === 'ready';
        const shown = Object.fromEntries(Object.entries(checks).map(([name, up]) => [name, up ? 'ok' : 'fail']));
        send(ok ? 200 : 503, {
          status: ok ? 'ready' : this.phase === 'ready' ? 'unavailable' : this.phase,
          checks: shown,
        });
      },
      () => send(503, { status: 'unavailable' }),
    );
    return true;
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
