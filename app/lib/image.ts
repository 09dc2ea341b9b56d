import { createImageUrlBuilder } from '@sanity/image-url';
import type { SanityImage } from '~/sanity/groq';

export type ImageConfig = { projectId: string; dataset: string; world: 'embedded' | 'hosted' };

type UrlFor = (image: SanityImage, width: number, height?: number) => string;

/**
 * Built URLs, by configuration, image (asset, crop, hotspot) and size. Every page renders the
 * same few images at the same widths, and building a URL with @sanity/image-url costs far more
 * than this lookup; the map is bounded (emptied when full), also in the browser.
 */
const MAX_URLS = 2_000;
const urls = new Map<string, string>();
const builders = new Map<string, UrlFor>();

const part = (value: Record<string, number | undefined> | null | undefined, names: readonly string[]) =>
  value ? names.map((name) => value[name] ?? '').join(',') : '';

/**
 * Image URLs in Sanity's CDN shape. In the embedded world they are relative
 * (/images/{project}/{dataset}/{file}?w=...), answered by the image resource route.
 */
export function imageUrlBuilder(config: ImageConfig): UrlFor {
  const configKey = `${config.world}|${config.projectId}|${config.dataset}`;
  const known = builders.get(configKey);
  if (known) return known;
  const builder = createImageUrlBuilder({
    projectId: config.projectId,
    dataset: config.dataset,
    ...(config.world === 'embedded' ? { baseUrl: '/' } : {}),
  });
  const build: UrlFor = (image, width, height) => {
    let b = builder
      .image({ asset: { _ref: image.asset._id }, crop: image.crop ?? undefined, hotspot: image.hotspot ?? undefined })
      .width(width)
      .auto('format');
    if (height) b = b.height(height).fit('crop');
    return b.url();
  };
  const urlFor: UrlFor = (image, width, height) => {
    const key = `${configKey}|${image.asset._id}|${width}|${height ?? ''}|${part(image.crop, CROP)}|${part(image.hotspot, HOTSPOT)}`;
    let url = urls.get(key);
    if (url === undefined) {
      if (urls.size >= MAX_URLS) urls.clear();
      url = build(image, width, height);
      urls.set(key, url);
    }
    return url;
  };
  builders.set(configKey, urlFor);
  return urlFor;
}

const CROP = ['top', 'bottom', 'left', 'right'] as const;
const HOTSPOT = ['x', 'y', 'height', 'width'] as const;
