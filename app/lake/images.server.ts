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
