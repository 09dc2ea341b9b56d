// The site's HTTP server, as remix-serve builds it, plus what remix-serve cannot do:
// - the visitor's address for per-IP limits, in the X-Bawaba-Client-Ip header (any value a
//   visitor sends under that name is replaced); behind a proxy TRUST_PROXY is the number of
//   proxies in front, so the address comes from X-Forwarded-For;
// - request bodies capped before anything reads them: 64 KB for forms, 1 MB for the two
//   webhooks; a larger declared body gets 413 and a body of unknown length 411, unread;
// - the warm path of the rendered-page cache, the Studio, the lake's API on the site's origin;
// - health and readiness (health.ts), one log line per request, the request metrics.
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
// The Express adapter's own request and response conversion (exported by its server module,
// not its index): Remix's handler is wrapped by the page cache in between.
import { createRemixRequest, sendRemixResponse } from '@remix-run/express/dist/server.js';
import { createRequestHandler, type AppLoadContext, type ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express, { type NextFunction, type Request, type Response } from 'express';
import { privateCacheHeaders, PUBLIC_CACHE } from '~/lib/cache-policy.server';
import { baseSecurityHeaders } from '~/lib/csp.server';
import type { ServerEnv } from '~/lib/env.server';
import { log } from '~/lib/log.server';
import { pageCache, preparedAnswer, withPageCache, PAGE_CACHE_HEADER } from '~/lib/page-cache.server';
import { onSiteLocation } from '~/lib/return-path';
import { trailingSlashTarget } from '~/lib/trailing-slash';
import { builtFiles } from './built-files';
import type { Health } from './health';
import type { SiteLake } from './lake';
import { routeMatcher } from './routes';
import { serveStudio } from './studio';

export type SiteOptions = {
  build: ServerBuild;
  env: ServerEnv;
  lake: SiteLake | null;
  health: Health;
  trustProxy: number;
  /** Off with REQUEST_LOG=0 (benchmarks, most tests). */
  requestLog: boolean;
  /** Told of every answered request (metrics). */
  onRequest?: (facts: RequestFacts) => void;
  /** Answers /metrics on this port when its token is set (metrics.ts); false otherwise. */
  answerMetrics?: (req: IncomingMessage, res: ServerResponse) => boolean;
};

export type RequestFacts = {
  method: string;
  route: string;
  status: number;
  seconds: number;
  cache: string | null;
};

const headerText = (value: string | string[] | number | undefined): string | null =>
  value === undefined ? null : Array.isArray(value) ? value.join(', ') : String(value);

// The path as Remix's request will have it (the Express adapter's URL: dot segments resolved).
const requestPath = (url: string) => {
  try {
    return new URL(`http://site${url}`).pathname;
  } catch {
    return url.split('?')[0];
  }
};

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
const BODY_LIMIT = 64 * 1024;
const WEBHOOK_BODY_LIMIT = 1024 * 1024;
const WEBHOOKS = new Set(['/api/revalidate', '/api/stripe/webhook']);

/** A request's own facts, kept on it for the log line and the load context. */
type Tagged = IncomingMessage & { requestId?: string; started?: bigint };

export function createSite(options: SiteOptions): http.Server {
  const { build, env, lake, health, trustProxy } = options;
  const baseHeaders = Object.entries(baseSecurityHeaders(env.behindHttps));
  const siteOrigin = (() => {
    try {
      return new URL(env.siteUrl).origin;
    } catch {
      return null;
    }
  })();
  const routeOf = routeMatcher(build.routes);
  const publicNames = new Set(readdirSync('public'));
  const routeLabel = (pathname: string): string => {
    if (pathname.startsWith(build.publicPath)) return 'static';
    if (publicNames.has(pathname.slice(1).split('/', 1)[0])) return 'static';
    if (pathname === '/studio' || pathname.startsWith('/studio/')) {
      if (/^\/studio\/sign-in(\.data)?\/?$/i.test(pathname)) return routeOf(pathname);
      return lake?.sitePath && pathname.startsWith(`${lake.sitePath}/`) ? 'lake' : 'studio';
    }
    return routeOf(pathname);
  };

  /** The request id: a trusted proxy's X-Request-Id (TRUST_PROXY), else a new one. */
  const requestIdOf = (req: IncomingMessage): string => {
    const given = headerText(req.headers['x-request-id']);
    return trustProxy > 0 && given && REQUEST_ID.test(given) ? given : randomUUID();
  };

  /** The log line and the metrics of a request, once it is answered (or its client left). */
  const track = (req: Tagged, res: ServerResponse) => {
    req.started = process.hrtime.bigint();
    req.requestId = requestIdOf(req);
    res.setHeader('X-Request-Id', req.requestId);
    const done = () => {
      const seconds = Number(process.hrtime.bigint() - req.started!) / 1e9;
      const facts: RequestFacts = {
        method: req.method ?? 'GET',
        route: routeLabel(requestPath(req.url ?? '/')),
        status: res.headersSent ? res.statusCode : 499,
        seconds,
        cache: headerText(res.getHeader(PAGE_CACHE_HEADER)),
      };
      options.onRequest?.(facts);
      if (options.requestLog)
        log.info({
          requestId: req.requestId,
          method: facts.method,
          route: facts.route,
          status: facts.status,
          durationMs: Math.round(seconds * 1e4) / 10,
          cache: facts.cache ?? undefined,
        });
    };
    // At debug level (LOG_LEVEL=debug) the request's arrival too: a test stops the server then.
    if (options.requestLog && log.isLevelEnabled('debug'))
      log.debug({
        event: 'request.received',
        requestId: req.requestId,
        method: req.method,
        route: routeLabel(requestPath(req.url ?? '/')),
      });
    res.once('finish', done);
    res.once('close', () => {
      if (!res.writableFinished) done();
    });
  };

  // The warm path (ADR 0023): a page the rendered-page cache holds is written as it was prepared
  // when stored (its headers, policy included, and the buffer in the form the browser takes, or
  // a 304), before Express, compression and Remix's adapter. Only GET and HEAD of an anonymous
  // request for a kept page are answered here; what Express's steps would do to such a request
  // is done here too: the headers every response gets and the private-caching rule. The slash
  // redirect, the body limits and the cross-site post check never apply (a kept page's path is
  // one the redirect let through, and these are reads).
  const cache = pageCache();
  function serveKept(req: IncomingMessage, res: ServerResponse): boolean {
    if (!cache || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    let parsed: URL;
    try {
      parsed = new URL(`http://site${req.url}`);
    } catch {
      return false;
    }
    const answer = preparedAnswer(cache, req.method, parsed, (name) => headerText(req.headers[name]));
    if (!answer) return false;
    for (const [name, value] of baseHeaders) res.setHeader(name, value);
    for (const [name, value] of answer.headers) res.setHeader(name, value);
    const forced = privateCacheHeaders({
      method: req.method,
      pathname: requestPath(req.url ?? '/'),
      setsCookie: false,
      vary: headerText(res.getHeader('Vary')),
      robots: headerText(res.getHeader('X-Robots-Tag')),
    });
    if (forced) for (const [name, value] of Object.entries(forced)) res.setHeader(name, value);
    res.writeHead(answer.status);
    res.end(answer.body ?? undefined);
    return true;
  }

  const app = express();
  app.disable('x-powered-by');
  if (trustProxy > 0) app.set('trust proxy', trustProxy);
  // Every response (pages, data, resource routes, static files, refusals) gets the base security
  // headers (nosniff, Referrer-Policy, HSTS behind HTTPS) unless it set its own value (e.g. the
  // booking confirmation's no-referrer). Then, last, the private-caching rule
  // (app/lib/cache-policy.server.ts): a portal route's answer, one that sets a cookie and one to
  // a post leave as `private, no-store` whoever made them, including resource routes and the
  // redirects Remix returns without its entry.
  app.use((req, res, next) => {
    const writeHead = res.writeHead;
    const hooked = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
      for (const [name, value] of baseHeaders) if (!res.hasHeader(name)) res.setHeader(name, value);
      const forced = privateCacheHeaders({
        method: req.method,
        pathname: requestPath(req.originalUrl ?? req.url),
        setsCookie: res.hasHeader('Set-Cookie'),
        vary: headerText(res.getHeader('Vary')),
        robots: headerText(res.getHeader('X-Robots-Tag')),
      });
      if (forced) for (const [name, value] of Object.entries(forced)) res.setHeader(name, value);
      // No redirect leaves the site by a path a browser reads as another host (`//host`, `/\\host`).
      const location = res.getHeader('Location');
      if (typeof location === 'string') res.setHeader('Location', onSiteLocation(location));
      return writeHead.apply(this, args as Parameters<Response['writeHead']>);
    };
    res.writeHead = hooked as unknown as Response['writeHead'];
    next();
  });
  // One URL per page: a GET or HEAD of a path with a trailing slash is sent, permanently, to the
  // bare path with its query (app/lib/trailing-slash.ts names the spec's exceptions and keeps the
  // target on this site). Public like any page of its path; a portal path's redirect is made
  // private by the hook above.
  app.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const target = trailingSlashTarget(req.originalUrl ?? req.url);
    if (!target) return next();
    res.status(301).set({ Location: target, 'Content-Type': 'text/plain; charset=utf-8' });
    res.set('Cache-Control', PUBLIC_CACHE);
    res.end(req.method === 'HEAD' ? undefined : `Moved Permanently: ${target}\n`);
  });
  app.use((req, _res, next) => {
    req.headers['x-bawaba-client-ip'] = (trustProxy > 0 ? req.ip : req.socket.remoteAddress) ?? 'unknown';
    next();
  });
  const refuse = (res: Response, status: number, en: string, ar: string) => {
    res
      .status(status)
      .set({ 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'close' })
      .send(`${en}\n${ar}\n`);
  };
  app.use((req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
    const limit = WEBHOOKS.has(req.path) ? WEBHOOK_BODY_LIMIT : BODY_LIMIT;
    const declared = req.headers['content-length'];
    if (declared === undefined) {
      if (req.headers['transfer-encoding']) return refuse(res, 411, 'Length required.', 'يلزم تحديد طول الطلب.');
      return next();
    }
    if (!/^\d+$/.test(declared) || Number(declared) > limit)
      return refuse(res, 413, 'The request is too large.', 'الطلب أكبر من الحد المسموح به.');
    next();
  });
  // A browser's form post (or any other state-changing request) from another site is refused
  // here, in the visitor's terms, before Remix (whose own check answers such a request with a
  // 500). Webhooks send no Origin. Accepted: an Origin that is this site (scheme, host and port:
  // the request's own, or SITE_URL's) AND whose host is the one Remix's own check compares it
  // with (X-Forwarded-Host's first value when present, else Host, whatever TRUST_PROXY says), so
  // nothing let through here fails there.
  app.use((req, res, next) => {
    const origin = req.headers.origin;
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS' || !origin) return next();
    let from: URL | null = null;
    try {
      from = new URL(origin);
    } catch {
      // "null" or malformed: not this site
    }
    const forwardedHost = headerText(req.headers['x-forwarded-host'])?.split(',')[0]?.trim() || null;
    const remixHost = forwardedHost ?? req.headers.host;
    const ownOrigins = [`${req.protocol}://${req.headers.host}`, siteOrigin];
    // Behind trusted proxies the request's own origin is the forwarded one.
    if (trustProxy > 0 && forwardedHost) ownOrigins.push(`${req.protocol}://${forwardedHost}`);
    if (from && from.origin !== 'null' && from.host === remixHost && ownOrigins.includes(from.origin)) return next();
    refuse(
      res,
      403,
      'This form was sent from another site and was not accepted.',
      'أُرسل هذا النموذج من موقع آخر فلم يُقبل.',
    );
  });
  app.use(compression());
  if (lake) serveStudio(app, lake);
  // The build's files, named by their content and cached for good, go out as the copies
  // `npm run build` compressed once at brotli's best (scripts/precompress.mjs, ADR 0036); the
  // compression above leaves an answer that already has its encoding alone, and compresses a file
  // that has no copy (a build made with `remix build` alone).
  app.use(build.publicPath, builtFiles(build.assetsBuildDirectory));
  // The preview's overlays bundle (scripts/build-overlays.mjs) is named by its content, like the
  // build's files: cached for good. Its manifest.json is not, and is left to the rule below.
  const serveOverlays = builtFiles('public/overlays');
  app.use('/overlays', (req, res, next) =>
    /^\/overlays-[A-Z0-9]+\.js$/.test(req.path) ? serveOverlays(req, res, next) : next(),
  );
  // The rest of public/ (favicon, interface strings): looked up on disk only for paths under one
  // of its top-level names, read at start (the folder is part of the deployed build), so a page
  // request does not cost a failed file lookup. A folder is not served (`redirect: false`): its
  // slash form would answer the slash redirect above with another, in a loop.
  const servePublic = express.static('public', { maxAge: '1h', redirect: false });
  app.use((req, res, next) => {
    const first = req.path.slice(1).split('/', 1)[0];
    if (publicNames.has(first)) servePublic(req, res, next);
    else next();
  });
  // Remix behind the rendered-page cache (ADR 0010; PAGE_CACHE=off renders every request), which
  // keeps what it may and answers misses from what it kept (ADR 0023). Loaders and actions get
  // the request's id and a logger that carries it (app/lib/load-context.ts).
  const remix = createRequestHandler(build, build.mode);
  const handle = withPageCache(remix, cache);
  app.all('*', async (req: Request, res: Response, next: NextFunction) => {
    try {
      const requestId = (req as Tagged).requestId ?? randomUUID();
      const context: AppLoadContext = { requestId, log: log.child({ requestId }) };
      await sendRemixResponse(res, await handle(createRemixRequest(req, res), context));
    } catch (error) {
      next(error);
    }
  });

  // The lake's API on the site's own origin (a public site behind its HTTPS front, ADR 0025):
  // answered before everything else here. It is an API of its own: its bodies (image uploads, up
  // to 10 MB), its event streams (never compressed or cached) and its CORS and sign-in checks
  // are the lake's, not those of the site's pages and forms.
  const lakeSitePath = lake?.sitePath ? `${lake.sitePath}/` : null;
  const server = http.createServer((req, res) => {
    if (health.answer(req, res) || options.answerMetrics?.(req, res)) return;
    track(req, res);
    if (lake && lakeSitePath && req.url?.startsWith(lakeSitePath)) return lake.handle(req, res);
    if (!serveKept(req, res)) app(req, res);
  });
  // The Studio's presence WebSocket on the site's own origin (a public site, with the lake's
  // API): any other upgrade is refused.
  server.on('upgrade', (req, socket, head) => {
    if (!(lake && lakeSitePath && req.url?.startsWith(lakeSitePath) && lake.upgrade(req, socket, head)))
      socket.destroy();
  });
  // Headers must arrive within 10 s and a whole request within 30 s; idle keep-alive ends after
  // 5 s. Node checks these timeouts every connectionsCheckingInterval (30 s by default, which let
  // a trickling client hold a connection up to 60 s): every 5 s, so a slow request ends by 35 s.
  // Set before 'listening', when Node starts its check.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  // (Node has the setting since 18.12; its types here do not name it yet.)
  const checked = server as http.Server & { connectionsCheckingInterval: number };
  checked.connectionsCheckingInterval = 5_000;
  // Tests only: SERVER_TEST_REQUEST_TIMEOUT_MS shortens the whole-request timeout (and checks it
  // every second) so a trickling client is cut off in seconds; never set it in production.
  if (process.env.SERVER_TEST_REQUEST_TIMEOUT_MS) {
    server.requestTimeout = Number(process.env.SERVER_TEST_REQUEST_TIMEOUT_MS);
    server.headersTimeout = Math.min(server.headersTimeout, server.requestTimeout);
    checked.connectionsCheckingInterval = 1_000;
  }
  return server;
}
