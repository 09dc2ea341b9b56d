import { crc32, deflateRawSync, constants as zlib } from 'node:zlib';

/**
 * A page body compressed once and served gzipped many times with a different string of a
 * fixed length (the CSP nonce) in its holes, without compressing the page again.
 *
 * The text between holes is compressed once into raw deflate blocks that end on a byte
 * boundary (a sync flush, no final block). Per response the gzip stream is put together:
 * gzip header, the first part's blocks, the fill as a stored (uncompressed) deflate block,
 * the next part's blocks, ..., an empty final block and the trailer (CRC-32 and length of the
 * whole text): one ordinary gzip member, which every client decodes.
 *
 * Each part is compressed with the text before it as its dictionary, the holes written as NUL
 * bytes of the fill's length, so it compresses about as well as the page in one piece. Where
 * the decoder has the fill the compressor saw NULs, and a back reference only copies bytes
 * equal to the text being written: a body without NUL bytes (HTML from React) never refers
 * into a hole. A body with one is compressed part by part without dictionaries (larger, still
 * correct). The fill must have the length given here, or the distances would be off.
 */
export interface GzipWithHoles {
  /** The uncompressed text between holes (n + 1 parts for n holes). */
  parts: Buffer[];
  /** Each part as raw deflate blocks ending with a sync flush. */
  deflated: Buffer[];
  /** Bytes of the compressed parts (the parts are views into the body they were cut from). */
  compressedBytes: number;
  /** The length every fill must have. */
  fillLength: number;
}

// ID1 ID2, CM=8 (deflate), no flags, no time, XFL 0, OS 255 (unknown).
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
// A final, empty block with fixed codes: BFINAL=1, BTYPE=01, end-of-block (what zlib ends a stream with).
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);
/** A stored block's length field is 16 bits. */
const MAX_STORED = 0xffff;

/** The parts of `body` between occurrences of `hole` (views, not copies). */
export function splitAtHoles(body: Buffer, hole: string): Buffer[] {
  const needle = Buffer.from(hole);
  const parts: Buffer[] = [];
  let start = 0;
  for (let at = body.indexOf(needle); at !== -1; at = body.indexOf(needle, start)) {
    parts.push(body.subarray(start, at));
    start = at + needle.length;
  }
  parts.push(body.subarray(start));
  return parts;
}

/** The deflate window: how far back a reference reaches. */
const WINDOW = 32 * 1024;

/** Splits `body` at every occurrence of `hole` and compresses the parts, for fills of `fillLength` bytes. */
export function compressWithHoles(body: Buffer, hole: string, fillLength: number): GzipWithHoles {
  const parts = splitAtHoles(body, hole);
  const history = body.includes(0) ? null : filled(parts, '\0'.repeat(fillLength));
  let start = 0;
  const deflated = parts.map((part) => {
    const dictionary = history && start > 0 ? history.subarray(Math.max(0, start - WINDOW), start) : undefined;
    start += part.length + fillLength;
    return deflateRawSync(part, { finishFlush: zlib.Z_SYNC_FLUSH, ...(dictionary ? { dictionary } : {}) });
  });
  return { parts, deflated, compressedBytes: deflated.reduce((sum, d) => sum + d.length, 0), fillLength };
}

function storedBlock(data: Buffer): Buffer {
  const len = data.length;
  const header = Buffer.from([0x00, len & 0xff, len >> 8, ~len & 0xff, (~len >> 8) & 0xff]);
  return Buffer.concat([header, data]);
}

/** The gzip body with `fill` in every hole. */
export function gzipFilled(compressed: GzipWithHoles, fill: string): Buffer {
  const filler = Buffer.from(fill);
  if (filler.length !== compressed.fillLength) throw new Error('gzipFilled: the fill has another length');
  if (filler.length > MAX_STORED) throw new Error('gzipFilled: fill longer than one stored block');
  const block = storedBlock(filler);
  const out: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let length = 0;
  compressed.parts.forEach((part, i) => {
    if (i > 0) {
      out.push(block);
      crc = crc32(filler, crc);
      length += filler.length;
    }
    out.push(compressed.deflated[i]!);
    crc = crc32(part, crc);
    length += part.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length >>> 0, 4);
  out.push(FINAL_BLOCK, trailer);
  return Buffer.concat(out);
}

/** The uncompressed body with `fill` in every hole. */
export function filled(parts: Buffer[], fill: string): Buffer {
  const filler = Buffer.from(fill);
  const out: Buffer[] = [];
  parts.forEach((part, i) => {
    if (i > 0) out.push(filler);
    out.push(part);
  });
  return Buffer.concat(out);
}

/**
 * Whether a request's Accept-Encoding takes gzip: named (or `*`) with a q above 0. A missing
 * header means identity (what a client that names nothing is sure to read).
 */
export function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  let star: boolean | null = null;
  for (const item of header.split(',')) {
    const [coding, ...params] = item.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const ok = q === undefined || Number(q) > 0;
    if (coding === 'gzip' || coding === 'x-gzip') return ok;
    if (coding === '*') star = ok;
  }
  return star ?? false;
}
