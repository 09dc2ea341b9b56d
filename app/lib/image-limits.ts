/**
 * The largest image the site's resizer decodes (app/features/images/resize.server.ts), in pixels.
 * A source above it cannot make any variant, so the lake refuses such an upload (issue 40) and
 * the Studio's upload message names the limit (studio/upload-messages.ts). Plain data: the Studio
 * imports it too.
 */
export const MAX_SOURCE_PIXELS = 40_000_000;

/** An example of the limit an editor can picture: 8000 × 5000 pixels. */
export const MAX_SOURCE_EXAMPLE = '8000 × 5000';

/**
 * What the Studio's image field says when the lake refuses an upload (studio/upload-messages.ts):
 * Studio 4.22.1 shows one toast for every failed upload, whatever the lake answered (its exact
 * reason goes to the browser's console), so it names what is accepted. Both languages: editors
 * work in either.
 */
export const UPLOAD_REFUSED_DESCRIPTION =
  `The image was not accepted. JPEG, PNG, WebP or GIF images up to ${MAX_SOURCE_PIXELS / 1e6} megapixels ` +
  `(for example ${MAX_SOURCE_EXAMPLE} pixels) are accepted: make a larger one smaller and upload it again. ` +
  `— لم تُقبل الصورة. تُقبل صور JPEG وPNG وWebP وGIF حتى ${MAX_SOURCE_PIXELS / 1e6} ميغابكسل ` +
  `(مثل ${MAX_SOURCE_EXAMPLE} بكسل): صغّر الصورة الأكبر ثم ارفعها من جديد.`;
