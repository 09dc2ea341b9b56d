import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { env } from '~/lib/env.server';
import { LAKE_SITE_PATH, lakeOnSite, lakePort, startLake, type StartedLake } from '~/lake/start.server';
import { log } from '~/lib/log.server';

/** The local Content Lake as the site's server sees it (ADR 0025). */
export type SiteLake = {
  apiHost: string;
  /** The path under which the site's own server answers the lake's API, or null (its own port). */
  sitePath: string | null;
  handle: (req: IncomingMessage, res: ServerResponse) => void;
  /** The Studio's presence WebSocket on the site's own server (sitePath): false = refuse it. */
  upgrade: (req: IncomingMessage, socket: Duplex, head?: Buffer) => boolean;
  /** Resolves once the lake answers (or could not start): readiness waits for it. */
  started: Promise<boolean>;
  /** At shutdown: its port and its streams close. */
  close(): Promise<void>;
};

/**
 * The local Content Lake in the embedded world (ADR 0025), or null in the hosted world (or with
 * LAKE=off): nothing changes. On a public HTTPS site the lake's API is answered by the site's own
 * server under /studio/api (`handle`, `sitePath`), behind the site's TLS front; otherwise on its
 * loopback TLS port. It starts in the background (the site listens without waiting for it); a
 * lake that cannot start is logged and the site runs on.
 */
export function startSiteLake(): SiteLake | null {
  const e = env();
  if (e.content.world !== 'embedded' || process.env.LAKE === 'off') return null;
  const starting = startLake();
  let lake: StartedLake | undefined;
  const started = starting.then(
    (value) => ((lake = value), true),
    (error: unknown) => {
      log.error(
        { event: 'lake.failed', err: error instanceof Error ? error.message : String(error) },
        '[lake] the local Content Lake did not start',
      );
      return false;
    },
  );
  const onSite = lakeOnSite(e.siteUrl);
  return {
    apiHost: onSite ? `${new URL(e.siteUrl).origin}${LAKE_SITE_PATH}` : `https://localhost:${lakePort()}`,
    sitePath: onSite ? LAKE_SITE_PATH : null,
    handle: (req, res) => {
      starting.then(
        (lake) => lake.handle(req, res),
        () => {
          res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
          res.end('The local Content Lake did not start (see the server log)\n');
        },
      );
    },
    // The lake starts in the background; a socket asked for before it is up is refused (the Studio retries).
    upgrade: (req, socket, head) => Boolean(lake?.upgrade(req, socket, head)),
    started,
    close: () => starting.then((lake) => lake.close()).catch(() => {}),
  };
}
