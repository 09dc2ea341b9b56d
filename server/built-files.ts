import type { RequestHandler } from 'express';
import expressStaticGzip from 'express-static-gzip';

/**
 * Files named by their content (the site's build, the overlays bundle, the Studio's build):
 * cached for good, and sent as the copy `scripts/precompress.mjs` made at build time when there
 * is one the browser takes (brotli first, then gzip; ADR 0036). Which copies exist is read once
 * when the server starts, as the build is part of what it deploys; a file without copies goes
 * through the per-request compression like any other answer.
 */
export const builtFiles = (root: string): RequestHandler => {
  const serve = expressStaticGzip(root, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: { immutable: true, maxAge: '1y', redirect: false },
  });
  return (req, res, next) => {
    // A path that does not decode is refused as everywhere else on the site (Express's 400);
    // left to the library, it would answer with its own text, "URI malformed".
    try {
      decodeURIComponent(req.path);
    } catch {
      return next(Object.assign(new URIError('malformed path'), { status: 400 }));
    }
    serve(req, res, next);
  };
};
