/**
 * npm run build:compress (part of `npm run build`, after Remix's build and the overlays): a brotli
 * (quality 11) and a gzip (level 9) copy beside every script, stylesheet and SVG image of
 * public/build/ and public/overlays/ (and of studio/dist/static/ after the Studio's build), which
 * the server sends as they are (server/built-files.ts, express-static-gzip)
 * instead of compressing each response again (ADR 0036). Quality 11 is too slow to run per request
 * and makes the first-load scripts about 14% smaller than the on-the-fly quality 4 did; fonts and
 * images are compressed formats already and are left alone. Files whose copies are newer are
 * skipped, so a second run costs nothing; Remix empties public/build/ on each build and the
 * overlays' build removes its old files, copies included.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

// The folders named on the command line, else the site's: `npm run studio:build` names the
// Studio's own (studio/dist/static), which is built beside the site's build, not after it.
const roots = process.argv.length > 2 ? process.argv.slice(2) : ['public/build', 'public/overlays'];
const compressible = /\.(js|css|svg)$/;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function* filesUnder(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(file);
    else if (compressible.test(entry.name)) yield file;
  }
}

const newer = async (copy, than) => (await stat(copy).catch(() => null))?.mtimeMs >= than;

let files = 0;
let before = 0;
let after = 0;
const work = [];
for (const root of roots) {
  for await (const file of filesUnder(root)) {
    work.push(
      (async () => {
        const { mtimeMs } = await stat(file);
        if ((await newer(`${file}.br`, mtimeMs)) && (await newer(`${file}.gz`, mtimeMs))) return;
        const bytes = await readFile(file);
        const [br, gz] = await Promise.all([
          brotli(bytes, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            },
          }),
          gzipAsync(bytes, { level: constants.Z_BEST_COMPRESSION }),
        ]);
        await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        files += 1;
        before += bytes.length;
        after += br.length;
      })(),
    );
  }
}
await Promise.all(work);
console.log(
  files
    ? `precompressed ${files} files: ${(before / 1024).toFixed(0)} kB, ${(after / 1024).toFixed(0)} kB with brotli`
    : 'precompressed: every file was up to date',
);
