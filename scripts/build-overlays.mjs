/**
 * npm run build:overlays (part of `npm run build`): Sanity's visual editing overlays, the bundle a
 * preview session imports (app/preview/overlays.browser.tsx, ADR 0024). Built here, by esbuild of
 * its own, so that Remix's build never sees them: their lazy chunks would otherwise split the
 * framework into several files on every visitor's page. One minified ES module with its own React,
 * named by its content, in public/overlays/, beside manifest.json, which tells the server its URL.
 * Remix's build leaves the folder alone (it empties public/build/ only).
 */
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const outdir = 'public/overlays';
const manifest = path.join(outdir, 'manifest.json');

mkdirSync(outdir, { recursive: true });
const result = await build({
  entryPoints: ['app/preview/overlays.browser.tsx'],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  outdir,
  entryNames: 'overlays-[hash]',
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  // Written below only when its bytes changed: the same sources give the same file, and an
  // untouched file keeps its compressed copies current (scripts/precompress.mjs goes by date).
  write: false,
});
for (const out of result.outputFiles) {
  if (!existsSync(out.path) || !readFileSync(out.path).equals(out.contents)) writeFileSync(out.path, out.contents);
}
const [file] = Object.keys(result.metafile.outputs).filter((name) => name.endsWith('.js'));
const url = `/${path.relative('public', file).split(path.sep).join('/')}`;
writeFileSync(manifest, `${JSON.stringify({ url }, null, 2)}\n`);
// Older builds go, with their compressed copies (scripts/precompress.mjs); the same sources give
// the same name, so a server running meanwhile keeps its file, and this build keeps its copies.
for (const name of readdirSync(outdir)) {
  if (!name.startsWith(path.basename(file)) && name !== path.basename(manifest)) rmSync(path.join(outdir, name));
}
console.log(`overlays: ${url} (${(result.metafile.outputs[file].bytes / 1024).toFixed(0)} kB)`);
