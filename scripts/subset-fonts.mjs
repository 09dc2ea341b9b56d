#!/usr/bin/env node
// Writes the two font files the site serves as its own, each cut to what the site writes and
// with its weight axis kept only from 400 to 700 (the site's normal, medium, semibold and bold):
// - app/fonts/noto-kufi-arabic-subset.woff2: Noto Kufi Arabic (the variable font of
//   @fontsource-variable/noto-kufi-arabic) cut to the letters, marks, punctuation and digits of
//   Arabic text; about 15 KB instead of the package's 124 KB Arabic file.
// - app/fonts/inter-latin-subset.woff2: Inter (@fontsource-variable/inter) with the same
//   characters as the package's Latin file (basic Latin, Latin-1, general punctuation, the euro
//   sign...); about 30 KB instead of 48 KB. Every page loads it: Latin text and digits inside
//   Arabic pages are set in Inter too.
// Run again after upgrading a font package:
//   node scripts/subset-fonts.mjs
// The @font-face rules that serve them (their unicode-range must match the texts below) are in
// app/tailwind.css; root.tsx preloads the page language's file.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import subsetFont from 'subset-font';

const require = createRequire(import.meta.url);
const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)).join('');

// Arabic comma, semicolon and question mark (U+060C, U+061B-061F), the letters with hamza,
// tatweel, harakat and shadda (U+0621-0655), Arabic-Indic digits and separators (U+0660-066D),
// superscript alef and the Persian letters a name may carry, Arabic full stop, and the joiners
// and direction marks (U+200C-200F).
const ARABIC =
  range(0x060c, 0x060c) +
  range(0x061b, 0x061f) +
  range(0x0621, 0x0655) +
  range(0x0660, 0x066d) +
  '\u0670\u067e\u0686\u0698\u06a4\u06a9\u06af\u06cc\u06d4' +
  range(0x200c, 0x200f);

// The unicode-range of @fontsource-variable/inter's Latin file (U+0000-00FF, U+0131,
// U+0152-0153, U+02BB-02BC, U+02C6, U+02DA, U+02DC, U+0304, U+0308, U+0329, U+2000-206F,
// U+20AC, U+2122, U+2191, U+2193, U+2212, U+2215, U+FEFF, U+FFFD); other Latin letters
// (Latin Extended) stay with the package's own files.
const LATIN =
  range(0x20, 0x7e) +
  range(0xa0, 0xff) +
  '\u0131\u0152\u0153\u02bb\u02bc\u02c6\u02da\u02dc\u0304\u0308\u0329' +
  range(0x2000, 0x206f) +
  '\u20ac\u2122\u2191\u2193\u2212\u2215\ufeff\ufffd';

const fonts = [
  {
    source: '@fontsource-variable/noto-kufi-arabic/files/noto-kufi-arabic-arabic-wght-normal.woff2',
    text: ARABIC,
    out: 'app/fonts/noto-kufi-arabic-subset.woff2',
  },
  {
    source: '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2',
    text: LATIN,
    out: 'app/fonts/inter-latin-subset.woff2',
  },
];

for (const { source, text, out } of fonts) {
  const data = await subsetFont(readFileSync(require.resolve(source)), text, {
    targetFormat: 'woff2',
    variationAxes: { wght: { min: 400, max: 700 } },
  });
  writeFileSync(out, data);
  console.log(`${out}: ${data.length} bytes`);
}
