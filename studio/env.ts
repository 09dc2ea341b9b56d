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

/** What the site that serves this Studio at /studio wrote before the bundle (server.mjs), if it did. */
function pageLakeConfig(): { apiHost?: unknown } | undefined {
  return typeof window === 'undefined'
    ? undefined
    : (window as unknown as { __BAWABA_LAKE__?: { apiHost?: unknown } }).__BAWABA_LAKE__;
}

/**
 * The site the Presentation tool previews: the site that serves this Studio (its own origin,
 * whatever address it is reached at), else SANITY_STUDIO_PREVIEW_ORIGIN at build time, else the
 * local default. A build-time value cannot know the address a site is served at.
 */
export function previewOriginFor(
  page: { origin: string; servedBySite: boolean } | undefined,
  fromBuild: string | undefined,
): string {
  if (page?.servedBySite) return page.origin;
  return fromBuild || DEFAULT_PREVIEW_ORIGIN;
}

/** True when the site serves this Studio at /studio over its local Content Lake. */
export const servedBySite = (): boolean => pageLakeConfig() !== undefined;

export const previewOrigin = previewOriginFor(
  typeof window === 'undefined' ? undefined : { origin: window.location.origin, servedBySite: servedBySite() },
  process.env.SANITY_STUDIO_PREVIEW_ORIGIN,
);
/** The site's route that turns on preview mode after checking @sanity/preview-url-secret's secret. */
export const PREVIEW_MODE_ENABLE_PATH = '/api/preview-mode/enable';

/**
 * The local Content Lake's address (app/lake/): `https://localhost:3443` on a fresh clone, or
 * the site's own `https://www.example.com/studio/api` on a public site behind its HTTPS front.
 * Used as is, without the project id in front (lake-client.ts). Taken from SANITY_STUDIO_API_HOST at build time, else from the page that serves the
 * built Studio: the site's `/studio` (embedded world) writes `window.__BAWABA_LAKE__` in a small
 * script before the bundle. Undefined otherwise: Sanity's hosted API, as before.
 */
export function lakeApiHost(): string | undefined {
  const fromBuild = process.env.SANITY_STUDIO_API_HOST;
  if (fromBuild) return fromBuild;
  const fromPage = pageLakeConfig()?.apiHost;
  return typeof fromPage === 'string' && fromPage.startsWith('https://') ? fromPage : undefined;
}
