import type { Logger } from 'pino';

/**
 * What the site's server (server/index.ts) passes every loader and action through Remix's load
 * context: the request's id (the one its log line carries) and a logger that adds it to every
 * line. A test or a stub that passes no context gets neither: read them as optional.
 */
declare module '@remix-run/server-runtime' {
  interface AppLoadContext {
    requestId?: string;
    log?: Logger;
  }
}

export {};
