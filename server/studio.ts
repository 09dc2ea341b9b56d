import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type Express } from 'express';
import { log } from '~/lib/log.server';
import type { SiteLake } from './lake';
import { builtFiles } from './built-files';

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
 * Written as the page's script, so it names only what a browser has.
 */
const answerStudioChecksLocally = `function answerStudioChecksLocally() {
  const fetch = globalThis.fetch.bind(globalThis);
  globalThis.fetch = (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (/^https:\\/\\/sanity-cdn\\.(com|work)\\/v1\\/modules\\//.test(url))
      return Promise.resolve(new Response('{}', { headers: { 'Content-Type': 'application/json' } }));
    if (/^https:\\/\\/api\\.sanity\\.(io|work)\\/vX\\/intake\\/feedback/.test(url))
      return Promise.resolve(new Response(null, { status: 404 }));
    return fetch(input, init);
  };
}`;

/** Inter for the Studio (its theme asks for `Inter`): the variable font's faces, every weight in one file a script. */
function studioInterFaces(): string {
  return ['wght.css', 'wght-italic.css']
    .map((css) => readFileSync(path.join(interFiles, '..', css), 'utf8'))
    .join('\n')
    .replaceAll("font-family: 'Inter Variable'", 'font-family: Inter')
    .replaceAll('url(./files/', 'url(/studio/fonts/');
}

/** Mounts the Studio on the site's Express app, when it was built for the site (else says how). */
export function serveStudio(app: Express, lake: SiteLake): void {
  const studioBuiltForSite =
    existsSync(path.join(studioDist, 'index.html')) &&
    readFileSync(path.join(studioDist, 'index.html'), 'utf8').includes('src="/studio/static/');
  if (!studioBuiltForSite) {
    log.info('[lake] no built Studio in studio/dist: run `npm run studio:build` to serve it at /studio');
    return;
  }
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
  // The Studio's scripts (about 8 MB before compression) as `npm run studio:build` compressed them (ADR 0036).
  app.use('/studio/static', builtFiles(path.join(studioDist, 'static')));
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
  log.info(`[lake] the Studio at /studio, its API at ${lake.apiHost}`);
}
