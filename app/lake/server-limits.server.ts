import http2, { type Http2SecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';

/**
 * The lake's HTTP/2 (and HTTP/1.1) server over TLS with the site's own port's timeouts
 * (server.mjs): a client that trickles its headers or body, or keeps a connection open doing
 * nothing, is cut off in seconds, not minutes (ADR 0025, "Limits"; operating.md).
 *
 * - TLS handshake: 10 s.
 * - HTTP/1.1 (allowHTTP1): headers within 10 s, a whole request within 30 s, idle keep-alive 5 s,
 *   checked every 5 s (Node's defaults are 60 s, 5 min and 30 s; keep-alive none).
 * - HTTP/2: a session with no open stream for 5 s is closed (its event streams keep a Studio's
 *   session open; a session that never opens a request, or only trickles one's headers, is not
 *   kept); a request body must arrive within 30 s (readBody in limits.server.ts); at most 256
 *   streams at once on one session (a Studio tab opens 7-10 listeners, tabs share a session).
 */
export type LakeServerTimeouts = {
  handshakeMs: number;
  headersMs: number;
  requestMs: number;
  idleMs: number;
  checkMs: number;
  maxStreams: number;
};

export const LAKE_SERVER_TIMEOUTS: LakeServerTimeouts = {
  handshakeMs: 10_000,
  headersMs: 10_000,
  requestMs: 30_000,
  idleMs: 5_000,
  checkMs: 5_000,
  maxStreams: 256,
};

export function createLakeServer(
  tls: { cert: Buffer | string; key: Buffer | string },
  handler: (req: Http2ServerRequest, res: Http2ServerResponse) => void,
  overrides: Partial<LakeServerTimeouts> = {},
): Http2SecureServer {
  const t = { ...LAKE_SERVER_TIMEOUTS, ...overrides };
  const server = http2.createSecureServer(
    {
      cert: tls.cert,
      key: tls.key,
      allowHTTP1: true,
      handshakeTimeout: t.handshakeMs,
      settings: { maxConcurrentStreams: t.maxStreams },
    },
    handler,
  );
  // HTTP/1.1 connections (Node's http checks, set before 'listening' when it starts checking).
  const h1 = server as unknown as {
    headersTimeout: number;
    requestTimeout: number;
    keepAliveTimeout: number;
    connectionsCheckingInterval: number;
  };
  h1.headersTimeout = t.headersMs;
  h1.requestTimeout = t.requestMs;
  h1.keepAliveTimeout = t.idleMs;
  h1.connectionsCheckingInterval = t.checkMs;
  server.on('session', (session) => {
    let open = 0;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        session.close();
        // A peer that ignores the GOAWAY is dropped.
        setTimeout(() => session.destroy(), 1_000).unref();
      }, t.idleMs);
      timer.unref();
    };
    arm();
    session.on('stream', (stream) => {
      open++;
      clearTimeout(timer);
      stream.once('close', () => {
        if (--open === 0 && !session.closed && !session.destroyed) arm();
      });
    });
    session.once('close', () => clearTimeout(timer));
  });
  return server;
}
