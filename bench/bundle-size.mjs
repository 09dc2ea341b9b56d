#!/usr/bin/env node
// Prints the size of what a browser downloads: the client entry, the shared chunks, each
// route's module and the CSS, raw and gzip; then the home page's first scripts in all, every
// page's, and the chunks loaded on demand; last, a bare Remix page's first scripts (bench/bare,
// the site's versions) and each page's distance from it (issue 43: a plain page within 15 kB
// gzip). Run after a build; the argument is its browser folder:
// public/build (the classic `remix build`, the default) or build-vite/client (`npx remix vite:build`).
// Both write Remix's manifest (manifest-<hash>.js, in the folder or its assets/), which is read here.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

// --budget: exits 1 when a plain page (the 404, the legal pages) is more than 15 kB gzip above the
// bare page; the test run calls it after the production build (scripts/test-all.sh).
const budget = process.argv.includes('--budget');
const dir = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 'public/build';
/** A build's browser folder: its Remix manifest, its files, and the file behind each URL. */
const readBuild = (dir) => {
  const files = readdirSync(dir, { recursive: true }).map(String);
  const manifestFile = files.find((f) => /^manifest-.*\.js$/.test(path.basename(f)));
  if (!manifestFile) throw new Error(`no manifest in ${dir}: run npm run build first`);
  const manifest = JSON.parse(
    readFileSync(path.join(dir, manifestFile), 'utf8')
      .replace(/^window\.__remixManifest=/, '')
      .replace(/;$/, ''),
  );
  // The URL prefix the folder is served at (/build/, /build-vite/): the manifest's own URL less its path in the folder.
  const prefix = manifest.url.slice(0, manifest.url.length - manifestFile.split(path.sep).join('/').length);
  return {
    manifest,
    files,
    fileOf: (url) => path.join(dir, url.slice(prefix.length)),
    urlOf: (file) => prefix + file.split(path.sep).join('/'),
  };
};
const site = readBuild(dir);
const { manifest, files, urlOf } = site;
const size = (url, build = site) => {
  const buf = readFileSync(build.fileOf(url));
  return { raw: buf.length, gz: gzipSync(buf, { level: 9 }).length };
};
/** A route's module and the chunks it imports. */
const filesOf = (r) => [r.module, ...(r.imports ?? [])];
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
const row = (name, files, build) => {
  const total = files.reduce(
    (a, f) => {
      const s = size(f, build);
      return { raw: a.raw + s.raw, gz: a.gz + s.gz };
    },
    { raw: 0, gz: 0 },
  );
  console.log(`${name.padEnd(34)} ${kb(total.raw).padStart(10)} ${kb(total.gz).padStart(10)}`);
  return total;
};
console.log(`${'what'.padEnd(34)} ${'raw'.padStart(10)} ${'gzip'.padStart(10)}`);
const entry = [manifest.entry.module, ...manifest.entry.imports];
const base = row('entry + shared (every page)', entry);
const seen = new Set(entry);
const routes = Object.values(manifest.routes).filter(
  (r) => r.id.startsWith('en/') || r.id === 'root' || r.id === 'locale-en',
);
for (const r of routes) {
  const files = filesOf(r).filter((f) => !seen.has(f));
  row(`route ${r.id}`, files);
}
const css = files.filter((f) => f.endsWith('.css')).map(urlOf);
row('CSS', css);
const fonts = files.filter((f) => f.endsWith('.woff2'));
console.log(
  `fonts: ${fonts.length} subset files in the build; a page downloads only the subsets its text uses (unicode-range)`,
);
console.log(`first page JS (entry + shared) gzip: ${kb(base.gz)}`);

// What the home page links (module preloads: entry, shared, root, shell, page), and the chunks
// no page links: code fetched with import() once a page runs (the shell's deferred widgets,
// ADR 0012; the preview's visual editing).
const linked = new Set();
for (const id of ['root', 'locale-en', 'en/home']) {
  const r = manifest.routes[id];
  if (r) for (const f of filesOf(r)) linked.add(f);
}
for (const f of entry) linked.add(f);
row(`home page, first scripts (${linked.size} files)`, [...linked]);
// Each page's first scripts the same way: one request each, so the file count matters as much as
// the bytes on a slow phone (app/kit.ts keeps what pages share in one chunk).
const pages = new Map();
for (const r of routes.filter((r) => r.id.startsWith('en/'))) {
  const files = new Set(entry);
  for (const id of ['root', 'locale-en', r.id]) for (const f of filesOf(manifest.routes[id])) files.add(f);
  pages.set(r.id, row(`  ${r.id} ${files.size} files`, [...files]));
}
const everyLinked = new Set(entry);
for (const r of Object.values(manifest.routes)) for (const f of filesOf(r)) everyLinked.add(f);
const onDemand = files
  .filter((f) => f.endsWith('.js') && !path.basename(f).startsWith('manifest-'))
  .map(urlOf)
  .filter((f) => !everyLinked.has(f));
row(`on demand, import() (${onDemand.length} chunks)`, onDemand);

// The yardstick: a bare Remix v2 page of the same versions (bench/bare resolves the site's
// node_modules), built here the way bench/compare.mjs builds it when its build is missing.
const bareDir = path.resolve('bench/bare');
if (!existsSync(path.join(bareDir, 'public/build'))) {
  const built = spawnSync(process.execPath, [path.resolve('node_modules/@remix-run/dev/dist/cli.js'), 'build'], {
    cwd: bareDir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const bareBuild = readBuild(path.join(bareDir, 'public/build'));
const bareFiles = new Set([bareBuild.manifest.entry.module, ...bareBuild.manifest.entry.imports]);
for (const r of Object.values(bareBuild.manifest.routes)) for (const f of filesOf(r)) bareFiles.add(f);
const bare = row(`bare Remix page (${bareFiles.size} files)`, [...bareFiles], bareBuild);
console.log('distance from the bare page, gzip (goal for a plain page: at most 15 kB):');
for (const [id, total] of pages) console.log(`  ${id.padEnd(32)} ${`+${kb(total.gz - bare.gz)}`.padStart(10)}`);
const PLAIN_PAGES = ['en/not-found', 'en/privacy-policy', 'en/terms-of-service', 'en/cookies-policy'];
if (budget) {
  const over = PLAIN_PAGES.filter((id) => !pages.has(id) || pages.get(id).gz - bare.gz > 15 * 1024);
  console.log(
    over.length
      ? `over the 15 kB budget: ${over.join(', ')}`
      : `plain pages within 15 kB of the bare page: ${PLAIN_PAGES.join(', ')}`,
  );
  if (over.length) process.exit(1);
}
