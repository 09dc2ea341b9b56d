import { redirect, type LoaderFunctionArgs } from '@remix-run/node';
import {
  decideStudioPreview,
  embeddedStudioCheck,
  enterPreviewCookie,
  previewAvailable,
  STUDIO_PERSPECTIVE_PARAM,
  studioPerspective,
  type StudioSecretCheck,
} from '~/lib/preview.server';
import { contentClient } from '~/sanity/client.server';
import { HostedContentClient } from '~/sanity/hosted.server';

/**
 * GET /api/preview-mode/enable?sanity-preview-secret=…&sanity-preview-pathname=/path — the
 * Studio's Presentation tool enters a draft preview session here (previewMode.enable in
 * studio/sanity.config.ts). The Studio stores a short-lived secret in the dataset; the
 * server checks it with the read token (@sanity/preview-url-secret), then sets the same
 * signed preview cookie as /api/preview and redirects to the requested same-site path.
 * A missing, wrong or expired secret gets 401 and no cookie.
 *
 * The embedded world checks the secret in the local Content Lake's store, where its Studio
 * (served at /studio) stored it (app/lake/preview-secret.server.ts); without a running lake
 * it answers 404 (no Studio: its editors use the PREVIEW_SECRET link, /api/preview). A
 * hosted site without SANITY_READ_TOKEN answers 404 too: it can read neither the secrets nor
 * the drafts.
 *
 * The session starts in the perspective the Studio names (sanity-preview-perspective:
 * published, or drafts for anything else), and follows the Studio's perspective switch
 * afterwards through /api/preview/perspective (app/preview/overlays.browser.tsx).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const client = contentClient();
  // Hosted without a read token cannot read the secrets (or drafts): no Studio preview either.
  const check: StudioSecretCheck | null =
    client instanceof HostedContentClient
      ? previewAvailable()
        ? (url) => client.validatePreviewUrl(url)
        : null
      : client.world === 'embedded'
        ? embeddedStudioCheck()
        : null;
  const decision = await decideStudioPreview(request.url, check);
  const headers = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' };
  switch (decision.status) {
    case 307:
      return redirect(decision.location, {
        status: 307,
        headers: {
          ...headers,
          'Set-Cookie': await enterPreviewCookie(
            studioPerspective(new URL(request.url).searchParams.get(STUDIO_PERSPECTIVE_PARAM)),
          ),
        },
      });
    case 401:
      return text('Invalid or expired preview secret', 401, headers);
    case 503:
      return text('Could not check the preview secret, try again', 503, { ...headers, 'Retry-After': '10' });
    default:
      return text('Not found', 404, headers);
  }
}

function text(body: string, status: number, headers: Record<string, string>) {
  return new Response(body, { status, headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' } });
}
