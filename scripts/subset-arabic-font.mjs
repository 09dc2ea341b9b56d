#!/usr/bin/env node
// Writes app/fonts/noto-kufi-arabic-subset.woff2, the one Arabic font file the site serves:
// Noto Kufi Arabic (the variable font of @fontsource-variable/noto-kufi-arabic) cut to the
// letters, marks, punctuation and digits that Arabic text in this site uses, with its weight
// axis kept only from 400 to 700 (the site's normal, medium, semibold and bold). About 15 KB
// instead of the 124 KB of the package's Arabic file. Latin text inside Arabic pages uses Inter,
// which English pages load anyway. Run again after upgrading the font package:
//   node scripts/subset-arabic-font.mjs
// The @font-face that serves it (and its unicode-range, which must match TEXT below) is in
// app/tailwind.css; root.tsx preloads it on Arabic pages.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import subsetFont from 'subset-font';

const require = createRequire(import.meta.url);
const source = require.resolve('@fontsource-variable/noto-kufi-arabic/files/noto-kufi-arabic-arabic-wght-normal.woff2');
const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)).join('');
// Arabic comma, semicolon and question mark (U+060C, U+061B-061F), the letters with hamza,
// tatweel, harakat and shadda (U+0621-0655), Arabic-Indic digits and separators (U+0660-066D),
// superscript alef and the Persian letters a name may carry, Arabic full stop, and the joiners
// and direction marks (U+200C-200F).
const TEXT =
  range(0x060c, 0x060c) +
  range(0x061b, 0x061f) +
  range(0x0621, 0x0655) +
  range(0x0660, 0x066d) +
  '\u0670\u067e\u0686\u0698\u06a4\u06a9\u06af\u06cc\u06d4' +
  range(0x200c, 0x200f);

const out = await subsetFont(readFileSync(source), TEXT, {
  targetFormat: 'woff2',
  variationAxes: { wght: { min: 400, max: 700 } },
});
writeFileSync('app/fonts/noto-kufi-arabic-subset.woff2', out);
console.log(`app/fonts/noto-kufi-arabic-subset.woff2: ${out.length} bytes`);
