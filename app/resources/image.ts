import type { LoaderFunctionArgs } from '@remix-run/node';
import { imageResizer, normalizeRequest } from '~/features/images/resize.server';
import { env } from '~/lib/env.server';
import { contentClient } from '~/sanity/client.server';
import type { EmbeddedContentClient } from '~/sanity/embedded.server';

/**
 * The embedded world's image CDN: serves the dataset's images at Sanity's URL shape
 * (/images/{projectId}/{dataset}/{sha1}-{w}x{h}.{ext}?w=…&h=…&fit=…&dpr=…&auto=format&fm=…).
 * The parameters snap to the few variants the site uses, resizes are queued, shared and kept
 * on disk (features/images/resize.server.ts); a full queue answers 503 with Retry-After.
 * File names hold the content hash, so responses are immutable.
 */
export async function loader({ params, request }: LoaderFunctionArgs) {
  const client = contentClient();
  const settings = env().content;
  if (client.world !== 'embedded' || settings.world !== 'embedded') throw new Response('Not found', { status: 404 });
  const embedded = client as EmbeddedContentClient;
  if (params.projectId !== embedded.projectId || params.dataset !== embedded.dataset)
    throw new Response('Not found', { status: 404 });
  const name = params.file ?? '';
  const asset = await embedded.imageAsset(name);
  if (!asset) throw new Response('Not found', { status: 404 });

  const wanted = normalizeRequest(asset, new URL(request.url).searchParams, request.headers.get('accept') ?? '');
  if ('status' in wanted) {
    return new Response(`${wanted.message}\n`, {
      status: 400,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
    });
  }
  const verdict = await imageResizer(settings.dataDir).get({ ...asset, name }, wanted.spec);
  const vary: Record<string, string> = wanted.varyAccept ? { Vary: 'Accept' } : {};
  if (verdict.kind === 'busy') {
    return new Response('Busy resizing images, try again shortly.\n', {
      status: 503,
      headers: {
        'Content-Type': 'text/plain; charset=utf-8',
        'Cache-Control': 'no-store',
        'Retry-After': String(verdict.retryAfterSeconds),
        ...vary,
      },
    });
  }
  // A view of the buffer, not a copy of it.
  return new Response(
    new Uint8Array(verdict.body.buffer as ArrayBuffer, verdict.body.byteOffset, verdict.body.byteLength),
    {
      headers: {
        'Content-Type': verdict.contentType,
        'Content-Length': String(verdict.body.byteLength),
        'Cache-Control': 'public, max-age=31536000, immutable',
        ...vary,
      },
    },
  );
}
