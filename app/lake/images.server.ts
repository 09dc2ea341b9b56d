import {
  chooseFormat,
  MAX_WIDTH,
  number,
  type ImageResizer,
  type ImageSpec,
  type NormalizedRequest,
  type SourceImage,
  type Verdict,
} from '~/features/images/resize.server';
import { MAX_SOURCE_EXAMPLE, MAX_SOURCE_PIXELS } from '~/lib/image-limits';
import sharp from 'sharp';
import { LakeError } from './mutations';

/**
 * The lake's image URLs (`/images/{project}/{dataset}/{file}`, what the Studio builds with
 * `@sanity/image-url`) read into one of the few variants the site's resizer makes (ADR 0025), so
 * that no URL, signed in or not, can make the lake work hard: the lake resizes through the site's
 * own ImageResizer (its slots, queue and 503, its disk cache), never on its own.
 *
 * What Studio 4.22.1 asks for (read from its source, `sanity/lib/index.js`):
 * - previews (lists, references, search): `w` = `h` = 15, 25, 33, 73 or 160 with `fit=crop` and
 *   the screen's `dpr` (1-3); a block image 600×400;
 * - the image field: `w=2000&fit=max&auto=format` with `dpr`;
 * - Review changes: `h=190&fit=max` with `dpr`; the asset browser: `h=200` (× its DPI) and
 *   `h=800` with `fit=max`;
 * - the file's own download: `?dl` (the original).
 *
 * Widths snap up to LAKE_WIDTHS (a doubling ladder from a retina list thumbnail to the site's
 * largest width, 2048: the image field's 2000 becomes the site's own largest variant, the same
 * cache file), never above the source; `dpr` counts up to 3; a crop box's ratio snaps to
 * LAKE_ASPECTS (squares for previews, 3:2 for the block image). A height alone, or a box with
 * `fit=max`/`clip` (or none), is a bounding box: the output width is what fits, snapped.
 */
export const LAKE_WIDTHS: readonly number[] = [64, 128, 256, 512, 1024, MAX_WIDTH];
export const LAKE_MAX_WIDTH = LAKE_WIDTHS[LAKE_WIDTHS.length - 1]!;
export const LAKE_ASPECTS: readonly number[] = [2 / 3, 1, 3 / 2];
const MAX_DPR = 3;

/** The smallest lake width at or above `width`, the largest beyond them all. */
export function snapLakeWidth(width: number): number {
  for (const allowed of LAKE_WIDTHS) if (allowed >= width) return allowed;
  return LAKE_MAX_WIDTH;
}

function snapLakeAspect(ratio: number): number {
  let best = LAKE_ASPECTS[0]!;
  for (const aspect of LAKE_ASPECTS)
    if (Math.abs(Math.log(aspect / ratio)) < Math.abs(Math.log(best / ratio))) best = aspect;
  return best;
}

export type LakeImageRequest = NormalizedRequest | { original: true } | { status: 400; message: string };

/**
 * `{original: true}` for the file as uploaded (no size and no format asked: `?dl`, or nothing);
 * a variant for the resizer; or a 400.
 */
export function normalizeLakeRequest(
  source: Pick<SourceImage, 'width' | 'height' | 'extension'>,
  query: URLSearchParams,
  accept: string,
): LakeImageRequest {
  const w = number(query.get('w'));
  const h = number(query.get('h'));
  const dprValue = number(query.get('dpr'));
  if (w === null || h === null || dprValue === null) return { status: 400, message: 'w, h and dpr must be numbers' };
  const fm = query.get('fm');
  const auto = query.get('auto');
  if (w === undefined && h === undefined && !fm && auto !== 'format') return { original: true };
  const dpr = Math.min(MAX_DPR, Math.max(1, dprValue ?? 1));
  const { format, varyAccept } = chooseFormat({ fm, auto, accept, sourceExtension: source.extension });
  const sourceWidth = Math.max(1, source.width);
  const sourceHeight = Math.max(1, source.height);
  const boxWidth = w ? w * dpr : Infinity;
  const boxHeight = h ? h * dpr : Infinity;
  const fit = query.get('fit');

  if (boxWidth !== Infinity && boxHeight !== Infinity && (fit === 'crop' || fit === 'min')) {
    const aspect = snapLakeAspect(boxWidth / boxHeight);
    // The crop box, shrunk (keeping its ratio) until it fits inside the source: never enlarged.
    const width = Math.max(1, Math.min(snapLakeWidth(boxWidth), sourceWidth, Math.floor(sourceHeight * aspect)));
    return { spec: { width, height: Math.max(1, Math.round(width / aspect)), fit: 'cover', format }, varyAccept };
  }
  // A bounding box (fit=max, clip, or a side alone): the width that fits in it, snapped up the ladder.
  const fits = Math.min(boxWidth, boxHeight * (sourceWidth / sourceHeight), LAKE_MAX_WIDTH);
  const width = Math.max(1, Math.min(snapLakeWidth(Math.max(1, Math.ceil(fits))), sourceWidth));
  return { spec: { width, fit: 'inside', format }, varyAccept };
}

export type LakeResizeOptions = {
  /** Requests that may wait for room in the queue at once (default 32); past them: 503 at once. */
  waiters?: number;
  /** How long one waits for room before its 503 (default 20 s). */
  waitMs?: number;
};

/**
 * The site's resizer as the lake uses it. A Studio list shows a preview of every image in it at
 * once (some 30 distinct thumbnails on a first visit, before the disk cache has them): the lake's
 * requests queue in half of the resizer's queue only, so the site's pages always find the other
 * half, and one that finds no room waits for it (a bounded number of them, for a bounded time)
 * rather than show the editor a broken preview; past that, 503 with Retry-After. The work itself
 * stays the resizer's: one resize per slot, and a variant made once is kept on disk.
 */
export function lakeResizer(resizer: Pick<ImageResizer, 'get' | 'queueLimit'>, options: LakeResizeOptions = {}) {
  const waiters = options.waiters ?? 32;
  const waitMs = options.waitMs ?? 20_000;
  const queueLimit = Math.floor(resizer.queueLimit / 2);
  let waiting = 0;
  return async function get(source: SourceImage, spec: ImageSpec): Promise<Verdict> {
    let verdict = await resizer.get(source, spec, { queueLimit });
    if (verdict.kind !== 'busy' || waiting >= waiters) return verdict;
    waiting++;
    try {
      const until = Date.now() + waitMs;
      while (verdict.kind === 'busy' && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        verdict = await resizer.get(source, spec, { queueLimit });
      }
    } finally {
      waiting--;
    }
    return verdict;
  };
}

/** An upload as the lake keeps it: the bytes to store (metadata stripped) and what the asset document says of them. */
export type AcceptedUpload = { bytes: Buffer; extension: string; width: number; height: number; hasAlpha: boolean };

/**
 * An editor's upload, checked and cleaned before it is stored (issue 40):
 * - not an image sharp reads, or of a type not in `types`: refused;
 * - more pixels than the resizer decodes (MAX_SOURCE_PIXELS): refused, with the figures, since
 *   every variant of it would fail;
 * - EXIF (GPS position, camera owner, author), XMP, IPTC and PNG text chunks removed: the original
 *   is public at its image URL. The orientation is applied to the pixels and the ICC colour profile
 *   kept, so the image looks as it did; an image without such metadata is stored as sent.
 */
export async function acceptUpload(bytes: Buffer, types: Record<string, string>): Promise<AcceptedUpload> {
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes).metadata();
  } catch {
    throw new LakeError('The upload is not an image the lake can read', 400, 'assetError');
  }
  const extension = String(meta.format ?? 'bin').replace('jpeg', 'jpg');
  if (!types[extension]) throw new LakeError(`Images of type ${extension} are not accepted`, 400, 'assetError');
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width * height > MAX_SOURCE_PIXELS) throw new LakeError(tooLarge(width, height), 400, 'assetError');
  const personal = meta.exif || meta.xmp || meta.iptc || (meta.comments?.length ?? 0) > 0;
  if (!personal) return { bytes, extension, width, height, hasAlpha: meta.hasAlpha ?? false };
  const animated = (meta.pages ?? 1) > 1;
  // Without keepExif/keepXmp/withMetadata sharp writes none of them; rotate() (a single frame
  // only) turns the EXIF orientation into pixels, since the tag itself goes.
  let pipeline = sharp(bytes, { animated, limitInputPixels: MAX_SOURCE_PIXELS });
  if (!animated) pipeline = pipeline.rotate();
  pipeline = pipeline.keepIccProfile();
  const cleaned = await (
    extension === 'jpg'
      ? pipeline.jpeg({ quality: 92 })
      : extension === 'png'
        ? pipeline.png({ compressionLevel: 9, palette: meta.isPalette })
        : extension === 'webp'
          ? pipeline.webp({ quality: 92 })
          : pipeline.gif()
  ).toBuffer({ resolveWithObject: true });
  return {
    bytes: cleaned.data,
    extension,
    width: cleaned.info.width,
    height: animated ? height : cleaned.info.height,
    hasAlpha: meta.hasAlpha ?? false,
  };
}

/** The refusal of an image too large for the resizer, in both languages (the editor may read either). */
function tooLarge(width: number, height: number): string {
  const megapixels = Math.round((width * height) / 1e6);
  const limit = Math.round(MAX_SOURCE_PIXELS / 1e6);
  return (
    `The image is ${width} × ${height} pixels (${megapixels} megapixels); the largest accepted is ` +
    `${limit} megapixels, for example ${MAX_SOURCE_EXAMPLE}. Make it smaller and upload it again. ` +
    `/ أبعاد الصورة ${width} × ${height} بكسل (${megapixels} ميغابكسل)، وأكبر ما يُقبل ${limit} ميغابكسل، ` +
    `مثل ${MAX_SOURCE_EXAMPLE}. صغّر الصورة ثم ارفعها من جديد.`
  );
}

/**
 * The name of a `?dl=` download: the name asked for (Sanity's download links), reduced to safe
 * characters and without its own extension, then the file's real one, so no link can make the
 * browser save `a.html` from an image. Without a usable name, the file's own.
 */
export function downloadName(asked: string | null, fileName: string): string {
  const extension = fileName.slice(fileName.lastIndexOf('.'));
  const base = (asked ?? '')
    .replace(/[^A-Za-z0-9._ -]/g, '')
    .trim()
    .replace(/\.[^.]*$/, '')
    .replace(/^[. ]+|[. ]+$/g, '');
  return base ? `${base}${extension}` : fileName;
}
