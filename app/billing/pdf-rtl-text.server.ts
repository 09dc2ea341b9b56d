import { deflateSync, inflateSync } from 'node:zlib';

/**
 * Makes the text of right-to-left ligatures extract in reading order.
 *
 * react-pdf draws Arabic glyphs in visual order (right to left on the page) and records, for
 * each glyph, the characters it stands for in the font's ToUnicode map. A ligature glyph
 * stands for several characters: lam-alef (لا) for U+0644 U+0627, and any other ligature the
 * font forms (a client named عبد الله, say). The renderer writes those characters in logical
 * order. Poppler (pdftotext, Evince, Okular and the search indexers built on it) spreads a
 * glyph's characters over its width from left to right and then reads the right-to-left word
 * backwards, so "للاستشارات" came out as "لالستشارات" and a search for the firm's name failed.
 *
 * The renderer offers no way to change that map or to mark text with /ActualText (react-pdf
 * 4.9 emits no marked content at all; and poppler reverses an /ActualText string in a
 * right-to-left run the same way, so it would not help), so the finished file's ToUnicode maps
 * are rewritten here: a multi-character entry whose first character is right-to-left is stored
 * in visual order, which is the order poppler then reverses back. Single characters, Latin
 * ligatures and everything else in the file are left byte for byte as they were; only the
 * cross-reference offsets after a rewritten stream move.
 *
 * Trade-off: pdf.js (Firefox's viewer) reverses such entries itself, so there the one
 * ligature's two letters now come out swapped; poppler-based tools, which the issue and the
 * suite check, read the words as written. See docs/portal.md (invoice PDF).
 */
export function rtlLigaturesInReadingOrder(pdf: Buffer): Buffer {
  const text = pdf.toString('latin1');
  const refs = new Set([...text.matchAll(/\/ToUnicode (\d+) 0 R/g)].map((m) => Number(m[1])));
  if (refs.size === 0) return pdf;

  const edits: { start: number; end: number; bytes: Buffer }[] = [];
  for (const id of refs) {
    const head = new RegExp(
      `(?:^|\\n)${id} 0 obj\\n<<\\n/Length (\\d+)\\n(/Filter /FlateDecode\\n)?>>\\nstream\\n`,
    ).exec(text);
    if (!head) throw new Error(`invoice PDF: ToUnicode object ${id} is not a plain stream`);
    const objectStart = head.index + (head[0].startsWith('\n') ? 1 : 0);
    const dataStart = head.index + head[0].length;
    const length = Number(head[1]);
    const compressed = Boolean(head[2]);
    const dataEnd = dataStart + length;
    if (text.slice(dataEnd, dataEnd + 10) !== '\nendstream') {
      throw new Error(`invoice PDF: ToUnicode object ${id} has an unexpected length`);
    }
    const raw = pdf.subarray(dataStart, dataEnd);
    const cmap = (compressed ? inflateSync(raw) : raw).toString('latin1');
    const fixed = cmap.replace(/<([0-9a-fA-F]{4}(?: [0-9a-fA-F]{4})+)>/g, (entry, units: string) => {
      const codePoints = utf16ToCodePoints(units.split(' ').map((u) => parseInt(u, 16)));
      if (!isRightToLeft(codePoints[0])) return entry;
      return `<${codePointsToUtf16(codePoints.reverse())
        .map((u) => u.toString(16).padStart(4, '0'))
        .join(' ')}>`;
    });
    if (fixed === cmap) continue;
    const data = compressed ? deflateSync(Buffer.from(fixed, 'latin1')) : Buffer.from(fixed, 'latin1');
    const object = Buffer.concat([
      Buffer.from(
        `${id} 0 obj\n<<\n/Length ${data.length}\n${compressed ? '/Filter /FlateDecode\n' : ''}>>\nstream\n`,
        'latin1',
      ),
      data,
    ]);
    edits.push({ start: objectStart, end: dataEnd, bytes: object });
  }
  if (edits.length === 0) return pdf;
  return applyEdits(pdf, text, edits);
}

/** Splices the edited objects in and moves every later offset in the xref table by the change. */
function applyEdits(pdf: Buffer, text: string, edits: { start: number; end: number; bytes: Buffer }[]): Buffer {
  edits.sort((a, b) => a.start - b.start);
  const startxref = /startxref\n(\d+)\n%%EOF\s*$/.exec(text);
  if (!startxref) throw new Error('invoice PDF: no startxref');
  const xrefAt = Number(startxref[1]);
  if (edits.some((e) => e.end > xrefAt) || !text.startsWith('xref\n', xrefAt)) {
    throw new Error('invoice PDF: unexpected layout (a classic xref table after the objects)');
  }
  const shift = (offset: number) =>
    offset + edits.filter((e) => e.end <= offset).reduce((sum, e) => sum + e.bytes.length - (e.end - e.start), 0);

  const parts: Buffer[] = [];
  let at = 0;
  for (const e of edits) {
    parts.push(pdf.subarray(at, e.start), e.bytes);
    at = e.end;
  }
  parts.push(pdf.subarray(at, xrefAt));
  // Entries are fixed width ("0000012345 00000 n \n"), so the table keeps its length.
  const tail = text
    .slice(xrefAt)
    .replace(
      /^(\d{10}) (\d{5}) n/gm,
      (_, offset: string, gen: string) => `${String(shift(Number(offset))).padStart(10, '0')} ${gen} n`,
    )
    .replace(/startxref\n\d+/, `startxref\n${shift(xrefAt)}`);
  parts.push(Buffer.from(tail, 'latin1'));
  return Buffer.concat(parts);
}

function utf16ToCodePoints(units: number[]): number[] {
  return [...String.fromCharCode(...units)].map((c) => c.codePointAt(0)!);
}

function codePointsToUtf16(codePoints: number[]): number[] {
  const s = String.fromCodePoint(...codePoints);
  return [...Array(s.length).keys()].map((i) => s.charCodeAt(i));
}

/** Hebrew, Syriac, Arabic, Thaana, N'Ko and the Arabic and Hebrew presentation forms. */
function isRightToLeft(codePoint: number | undefined): boolean {
  if (codePoint === undefined) return false;
  return (
    (codePoint >= 0x0590 && codePoint <= 0x08ff) ||
    (codePoint >= 0xfb1d && codePoint <= 0xfdff) ||
    (codePoint >= 0xfe70 && codePoint <= 0xfeff) ||
    (codePoint >= 0x10800 && codePoint <= 0x10fff) ||
    (codePoint >= 0x1e800 && codePoint <= 0x1efff)
  );
}
