import type { LoaderFunctionArgs } from '@remix-run/node';
import sharp from 'sharp';
import { contentClient } from '~/sanity/client.server';
import type { EmbeddedContentClient } from '~/sanity/embedded.server';

/**
 * The embedded world's image CDN: serves the dataset's images at Sanity's URL shape
 * (/images/{projectId}/{dataset}/{sha1}-{w}x{h}.{ext}) and resizes them with sharp for
 * the parameters the site uses (w, h, fit, q, dpr, auto=format, fm). File names hold the
 * content hash, so responses are immutable.
 */
const MAX_SIDE = 2400;
const cache = new Map<string, { body: Buffer; type: string }>();
const CACHE_LIMIT = 300;

const clampInt = (value: string | null, min: number, max: number) => {
  if (value == null || !/^\d+(\.\d+)?$/.test(value)) return undefined;
  return Math.min(max, Math.max(min, Math.round(Number(value))));
};

export async function loader({ params, request }: LoaderFunctionArgs) {
  const client = contentClient();
  if (client.world !== 'embedded') throw new Response('Not found', { status: 404 });
  const embedded = client as EmbeddedContentClient;
  if (params.projectId !== embedded.projectId || params.dataset !== embedded.dataset) throw new Response('Not found', { status: 404 });
  const asset = await embedded.imageAsset(params.file ?? '');
  if (!asset) throw new Response('Not found', { status: 404 });

  const url = new URL(request.url);
  const q = url.searchParams;
  const dpr = clampInt(q.get('dpr'), 1, 3) ?? 1;
  const w = clampInt(q.get('w'), 1, MAX_SIDE);
  const h = clampInt(q.get('h'), 1, MAX_SIDE);
  const quality = clampInt(q.get('q'), 1, 100) ?? 80;
  const fit = q.get('fit') === 'crop' || q.get('fit') === 'min' ? 'cover' : 'inside';
  const accept = request.headers.get('accept') ?? '';
  const requested = q.get('fm');
  const format: 'webp' | 'jpeg' | 'png' | 'avif' =
    requested === 'webp' || requested === 'png' || requested === 'avif' ? requested
    : requested === 'jpg' ? 'jpeg'
    : q.get('auto') === 'format' && accept.includes('image/webp') ? 'webp'
    : asset.extension === 'png' ? 'png' : 'jpeg';

  const key = `${params.file}|${w}|${h}|${dpr}|${quality}|${fit}|${format}`;
  let hit = cache.get(key);
  if (!hit) {
    let pipeline = sharp(asset.file);
    if (w || h) {
      pipeline = pipeline.resize({
        width: w ? Math.min(MAX_SIDE, w * dpr) : undefined,
        height: h ? Math.min(MAX_SIDE, h * dpr) : undefined,
        fit,
        withoutEnlargement: true,
      });
    }
    pipeline =
      format === 'webp' ? pipeline.webp({ quality })
      : format === 'avif' ? pipeline.avif({ quality: Math.max(1, quality - 20) })
      : format === 'png' ? pipeline.png({ compressionLevel: 9 })
      : pipeline.jpeg({ quality, mozjpeg: true });
    hit = { body: await pipeline.toBuffer(), type: `image/${format}` };
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(key, hit);
  }
  return new Response(new Uint8Array(hit.body), {
    headers: {
      'Content-Type': hit.type,
      'Content-Length': String(hit.body.length),
      'Cache-Control': 'public, max-age=31536000, immutable',
      ...(q.get('auto') === 'format' ? { Vary: 'Accept' } : {}),
    },
  });
}
