/**
 * Studio environment. Sanity exposes SANITY_STUDIO_* variables to the Studio bundle at build
 * time. The defaults are harmless placeholders so `sanity build` works offline; a deployed
 * Studio must set both.
 */
export const PLACEHOLDER_PROJECT_ID = 'placeholder';

export const projectId = process.env.SANITY_STUDIO_PROJECT_ID || PLACEHOLDER_PROJECT_ID;
export const dataset = process.env.SANITY_STUDIO_DATASET || 'production';

/** The site the Presentation tool shows (the hosted world's deployment, or a local `npm run dev`). */
export const DEFAULT_PREVIEW_ORIGIN = 'http://localhost:3000';
export const previewOrigin = process.env.SANITY_STUDIO_PREVIEW_ORIGIN || DEFAULT_PREVIEW_ORIGIN;
/** The site's route that turns on preview mode after checking @sanity/preview-url-secret's secret. */
export const PREVIEW_MODE_ENABLE_PATH = '/api/preview-mode/enable';

/**
 * The local Content Lake's address (app/lake/), e.g. `https://localhost:4443`; the Studio puts
 * the project id in front (`https://placeholder.localhost:4443`, which Chromium resolves to
 * loopback). Taken from SANITY_STUDIO_API_HOST at build time, else from the page that serves the
 * built Studio: the site's `/studio` (embedded world) writes `window.__BAWABA_LAKE__` in a small
 * script before the bundle. Undefined otherwise: Sanity's hosted API, as before.
 */
export function lakeApiHost(): string | undefined {
  const fromBuild = process.env.SANITY_STUDIO_API_HOST;
  if (fromBuild) return fromBuild;
  const fromPage =
    typeof window === 'undefined'
      ? undefined
      : (window as unknown as { __BAWABA_LAKE__?: { apiHost?: unknown } }).__BAWABA_LAKE__?.apiHost;
  return typeof fromPage === 'string' && fromPage.startsWith('https://') ? fromPage : undefined;
}
