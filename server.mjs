// The site's production server: `npm start` (node server.mjs build/index.js).
// Express with the Remix adapter, as remix-serve does, plus what remix-serve cannot set:
// - the visitor's address for per-IP limits, in the X-Bawaba-Client-Ip header (any value a
//   visitor sends under that name is replaced); behind a proxy set TRUST_PROXY to the number
//   of proxies in front, so the address comes from X-Forwarded-For;
// - timeouts of seconds, not minutes: a client that trickles its headers or body is cut off;
// - request bodies capped before anything reads them: 64 KB for forms, 1 MB for the two
//   webhooks; a larger declared body gets 413 and a body of unknown length 411, unread.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
// The Express adapter's own request and response conversion (exported by its server module,
// not its index): Remix's handler is wrapped by the page cache in between.
import { createRemixRequest, sendRemixResponse } from '@remix-run/express/dist/server.js';
import { createRequestHandler, installGlobals } from '@remix-run/node';
import compression from 'compression';
import express from 'express';
import morgan from 'morgan';

process.env.NODE_ENV = process.env.NODE_ENV ?? 'production';
const buildPath = path.resolve(process.argv[2] ?? 'build/index.js');
const build = await import(pathToFileURL(buildPath).href);
installGlobals({ nativeFetch: build.future.v3_singleFetch });

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST || undefined;
const trustProxy = Number(process.env.TRUST_PROXY ?? 0);
// The site's origin as the build reads it (SITE_URL, or without it the address listened on).
const siteOrigin = (() => {
  try {
    return new URL(build.entry.module.siteUrl?.() ?? process.env.SITE_URL ?? `http://localhost:${port}`).origin;
  } catch {
    return null;
  }
})();

// The warm path (ADR 0023): a page the rendered-page cache holds is written as it was prepared
// when stored (its headers, policy included, and the buffer in the form the browser takes, or a
// 304), before Express, compression and Remix's adapter. Only GET and HEAD of an anonymous
// request for a kept page are answered here; everything else goes to Express. What Express's
// steps would do to such a request is done here too: the headers every response gets and the
// private-caching rule (the hook below); the slash redirect, the body limits and the cross-site
// post check never apply (a kept page's path is one the redirect let through, and these are
// reads).
const cachedAnswer = build.entry.module.cachedAnswer;
const requestLog = process.env.REQUEST_LOG !== '0' ? morgan('tiny') : null;
const noop = () => {};
function serveKept(req, res) {
  if (!cachedAnswer || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  const answer = cachedAnswer(req.method, req.url, (name) => headerText(req.headers[name]));
  if (!answer) return false;
  requestLog?.(req, res, noop);
  for (const [name, value] of baseHeaders) res.setHeader(name, value);
  for (const [name, value] of answer.headers) res.setHeader(name, value);
  const forced = cacheHeaders?.({
    method: req.method,
    pathname: requestPath(req),
    setsCookie: false,
    vary: headerText(res.getHeader('Vary')),
    robots: headerText(res.getHeader('X-Robots-Tag')),
  });
  if (forced) for (const [name, value] of Object.entries(forced)) res.setHeader(name, value);
  res.writeHead(answer.status);
  res.end(answer.body ?? undefined);
  return true;
}

// The local Content Lake (embedded world only, ADR 0025): Sanity's API for the Studio over HTTP/2
// and TLS on its own loopback port, or, on a public HTTPS site, on the site's own origin under
// /studio/api (below), started in the background. In the hosted world `startLocalLake` answers null.
const lake = build.entry.module.startLocalLake?.() ?? null;

const app = express();
app.disable('x-powered-by');
if (trustProxy > 0) app.set('trust proxy', trustProxy);
// Every response (pages, data, resource routes, static files, refusals) gets the headers of
// responseSecurityHeaders (entry.server.tsx: nosniff, Referrer-Policy, HSTS behind HTTPS) unless
// it set its own value (e.g. the booking confirmation's no-referrer).
// Then, last, the private-caching rule (responseCacheHeaders, app/lib/cache-policy.server.ts):
// a portal route's answer, one that sets a cookie and one to a post leave as `private, no-store`
// whoever made them, including resource routes and the redirects Remix returns without its entry.
const baseHeaders = Object.entries(build.entry.module.responseSecurityHeaders?.() ?? {});
const cacheHeaders = build.entry.module.responseCacheHeaders;
const onSiteLocation = build.entry.module.onSiteLocation;
const headerText = (value) => (value === undefined ? null : Array.isArray(value) ? value.join(', ') : String(value));
// The path as Remix's request will have it (the Express adapter's URL: dot segments resolved).
const requestPath = (req) => {
  try {
    return new URL(`http://site${req.originalUrl ?? req.url}`).pathname;
  } catch {
    return (req.originalUrl ?? req.url).split('?')[0];
  }
};
app.use((req, res, next) => {
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    for (const [name, value] of baseHeaders) if (!res.hasHeader(name)) res.setHeader(name, value);
    const forced = cacheHeaders?.({
      method: req.method,
      pathname: requestPath(req),
      setsCookie: res.hasHeader('Set-Cookie'),
      vary: headerText(res.getHeader('Vary')),
      robots: headerText(res.getHeader('X-Robots-Tag')),
    });
    if (forced) for (const [name, value] of Object.entries(forced)) res.setHeader(name, value);
    // No redirect leaves the site by a path a browser reads as another host (`//host`, `/\\host`).
    const location = res.getHeader('Location');
    if (typeof location === 'string' && onSiteLocation) res.setHeader('Location', onSiteLocation(location));
    return writeHead.apply(this, args);
  };
  next();
});
// One URL per page: a GET or HEAD of a path with a trailing slash is sent, permanently, to the
// bare path with its query (app/lib/trailing-slash.ts names the spec's exceptions and keeps the
// target on this site). Public like any page of its path; a portal path's redirect is made
// private by the hook above.
const slashTarget = build.entry.module.trailingSlashTarget;
const publicCache = build.entry.module.PUBLIC_CACHE;
app.use((req, res, next) => {
  if (!slashTarget || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
  const target = slashTarget(req.originalUrl ?? req.url);
  if (!target) return next();
  res.status(301).set({ Location: target, 'Content-Type': 'text/plain; charset=utf-8' });
  if (publicCache) res.set('Cache-Control', publicCache);
  res.end(req.method === 'HEAD' ? undefined : `Moved Permanently: ${target}\n`);
});
app.use((req, _res, next) => {
  req.headers['x-bawaba-client-ip'] = (trustProxy > 0 ? req.ip : req.socket.remoteAddress) ?? 'unknown';
  next();
});
const BODY_LIMIT = 64 * 1024;
const WEBHOOK_BODY_LIMIT = 1024 * 1024;
const WEBHOOKS = new Set(['/api/revalidate', '/api/stripe/webhook']);
const refuse = (res, status, en, ar) => {
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
// here, in the visitor's terms, before Remix (whose own check answers such a request with a 500).
// Webhooks send no Origin. Accepted: an Origin that is this site (scheme, host and port: the
// request's own, or SITE_URL's) AND whose host is the one Remix's own check compares it with
// (X-Forwarded-Host's first value when present, else Host, whatever TRUST_PROXY says), so nothing
// let through here fails there.
app.use((req, res, next) => {
  const origin = req.headers.origin;
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS' || !origin) return next();
  let from = null;
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
// The built Studio (`npm run studio:build`, studio/dist) at /studio, pointed at the local lake by
// /studio/lake-config.js, loaded before its bundle (studio/env.ts reads it). Embedded world only.
const studioDist = path.resolve('studio/dist');
const interFiles = path.resolve('node_modules/@fontsource-variable/inter/files');
/**
 * Runs in the Studio's page before its bundle (lake-config.js). Two calls of the Studio go to
 * Sanity's hosts whatever its configuration says (Sanity 5.31: no option turns them off), and
 * offline they only fail, with console errors: they are answered here, in the page, and never
 * leave the machine. The version check (sanity-cdn.com/v1/modules/…, on load and every 15
 * minutes): this Studio is built with its version pinned (no auto-updates), so there is nothing
 * to report. The help menu's check for Sanity's feedback service: not offered (404).
 */
function answerStudioChecksLocally() {
  const fetch = globalThis.fetch.bind(globalThis);
  globalThis.fetch = (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (/^https:\/\/sanity-cdn\.(com|work)\/v1\/modules\//.test(url))
      return Promise.resolve(new Response('{}', { headers: { 'Content-Type': 'application/json' } }));
    if (/^https:\/\/api\.sanity\.(io|work)\/vX\/intake\/feedback/.test(url))
      return Promise.resolve(new Response(null, { status: 404 }));
    return fetch(input, init);
  };
}
/** Inter for the Studio (its theme asks for `Inter`): the variable font's faces, every weight in one file a script. */
function studioInterFaces() {
  return ['wght.css', 'wght-italic.css']
    .map((css) => readFileSync(path.join(interFiles, '..', css), 'utf8'))
    .join('\n')
    .replaceAll("font-family: 'Inter Variable'", 'font-family: Inter')
    .replaceAll('url(./files/', 'url(/studio/fonts/');
}
const studioBuiltForSite =
  existsSync(path.join(studioDist, 'index.html')) &&
  readFileSync(path.join(studioDist, 'index.html'), 'utf8').includes('src="/studio/static/');
if (lake && studioBuiltForSite) {
  const studioPage = readFileSync(path.join(studioDist, 'index.html'), 'utf8')
    // Sanity's dashboard bridge, from its CDN: not used here, and offline it would only fail.
    .replace(/<script src="https:\/\/core\.sanity-cdn\.com\/bridge\.js"[^>]*><\/script>/, '')
    // Nothing leaves the machine (issue 39): the Studio's Inter comes from the site (the same
    // @fontsource files, at /studio/fonts), not from studio-static.sanity.io ...
    .replace(/\s*@font-face\s*{[^}]*studio-static\.sanity\.io[^}]*}/g, '')
    .replace('<style>', `<style>\n${studioInterFaces()}`)
    // ... and its icons from its own build: Sanity writes them at /static/, not under the base path.
    .replaceAll(' href="/static/', ' href="/studio/static/')
    .replace('<title>', '<script src="/studio/lake-config.js"></script><title>');
  const lakeConfig = `window.__BAWABA_LAKE__=${JSON.stringify({ apiHost: lake.apiHost })};\n(${answerStudioChecksLocally})();\n`;
  app.get('/studio/lake-config.js', (_req, res) => {
    res.set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' }).send(lakeConfig);
  });
  app.use('/studio/fonts', express.static(interFiles, { immutable: true, maxAge: '1y', redirect: false }));
  app.use(
    '/studio/static',
    express.static(path.join(studioDist, 'static'), { immutable: true, maxAge: '1y', redirect: false }),
  );
  app.get(['/studio', '/studio/*'], (req, res, next) => {
    // The editors' sign-in page (/studio/sign-in, and its single-fetch data) is the site's own.
    if (/^\/studio\/sign-in(\.data)?\/?$/i.test(req.path)) return next();
    res
      .set({
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Robots-Tag': 'noindex',
        // An editor's signed-in Studio must not be framed by another site (clickjacking of
        // Publish or Delete). Sanity's bundle brings its own scripts and styles, so the policy
        // here is the framing rule only; the site's pages carry the full one.
        'Content-Security-Policy': "frame-ancestors 'self'",
        'X-Frame-Options': 'SAMEORIGIN',
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'strict-origin-when-cross-origin',
      })
      .send(studioPage);
  });
  console.log(`[lake] the Studio at /studio, its API at ${lake.apiHost}`);
} else if (lake)
  console.log('[lake] no built Studio in studio/dist: run `npm run studio:build` to serve it at /studio');
app.use(
  build.publicPath,
  express.static(build.assetsBuildDirectory, { immutable: true, maxAge: '1y', redirect: false }),
);
// The rest of public/ (favicon, interface strings): looked up on disk only for paths under one
// of its top-level names, read once at start (the folder is part of the deployed build), so a
// page request does not cost a failed file lookup. A folder is not served (`redirect: false`):
// its slash form would answer the slash redirect above with another, in a loop.
const publicNames = new Set(readdirSync('public'));
const servePublic = express.static('public', { maxAge: '1h', redirect: false });
app.use((req, res, next) => {
  const first = req.path.slice(1).split('/', 1)[0];
  if (publicNames.has(first)) servePublic(req, res, next);
  else next();
});
if (requestLog) app.use(requestLog);
// Remix behind the rendered-page cache (ADR 0010; PAGE_CACHE=off renders every request), which
// keeps what it may and answers misses from what it kept (ADR 0023).
const remix = createRequestHandler(build, process.env.NODE_ENV);
const handle = build.entry.module.withPageCache ? build.entry.module.withPageCache(remix) : remix;
app.all('*', async (req, res, next) => {
  try {
    await sendRemixResponse(res, await handle(createRemixRequest(req, res)));
  } catch (error) {
    next(error);
  }
});

// The lake's API on the site's own origin (a public site behind its HTTPS front, ADR 0025):
// answered before everything else here. It is an API of its own: its bodies (image uploads, up
// to 10 MB), its event streams (never compressed or cached) and its CORS and sign-in checks are
// the lake's, not those of the site's pages and forms.
const lakeSitePath = lake?.sitePath ? `${lake.sitePath}/` : null;
const server = http
  .createServer((req, res) => {
    if (lakeSitePath && req.url?.startsWith(lakeSitePath)) return lake.handle(req, res);
    if (!serveKept(req, res)) app(req, res);
  })
  .listen(port, host, () => console.log(`[server] http://${host ?? 'localhost'}:${port}`));
// Backups of the embedded database while the site runs (ADR 0031): on BACKUP_EVERY and for `npm run backup`.
build.entry.module.startBackupService().catch((error) => console.error(`[backup] not started: ${error.message}`));
// The Studio's presence WebSocket on the site's own origin (a public site, with the lake's API):
// any other upgrade is refused.
server.on('upgrade', (req, socket, head) => {
  if (!(lakeSitePath && req.url?.startsWith(lakeSitePath) && lake.upgrade(req, socket, head))) socket.destroy();
});
// Headers must arrive within 10 s and a whole request within 30 s; idle keep-alive ends after 5 s.
// Node checks these timeouts every connectionsCheckingInterval (30 s by default, which let a
// trickling client hold a connection up to 60 s): every 5 s, so a slow request ends by 35 s.
// Set before 'listening', when Node starts its check.
server.headersTimeout = 10_000;
server.requestTimeout = 30_000;
server.keepAliveTimeout = 5_000;
server.connectionsCheckingInterval = 5_000;
// Tests only: SERVER_TEST_REQUEST_TIMEOUT_MS shortens the whole-request timeout (and checks it
// every second) so a trickling client is cut off in seconds; never set it in production.
if (process.env.SERVER_TEST_REQUEST_TIMEOUT_MS) {
  server.requestTimeout = Number(process.env.SERVER_TEST_REQUEST_TIMEOUT_MS);
  server.headersTimeout = Math.min(server.headersTimeout, server.requestTimeout);
  server.connectionsCheckingInterval = 1_000;
}
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => server.close(() => process.exit(0)));
