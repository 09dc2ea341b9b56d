/**
 * The project id of the Studio the site serves over the local Content Lake (studio/env.ts's
 * placeholder, app/lake/): its Presentation tool names it in every message to the preview, so
 * the embedded world's overlays (app/preview/overlays.browser.tsx) answer to it.
 */
export const LAKE_STUDIO_PROJECT_ID = 'placeholder';
