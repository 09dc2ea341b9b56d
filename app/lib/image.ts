import { createImageUrlBuilder } from '@sanity/image-url';
import type { SanityImage } from '~/sanity/groq';

export type ImageConfig = { projectId: string; dataset: string; world: 'embedded' | 'hosted' };

/**
 * Image URLs in Sanity's CDN shape. In the embedded world they are relative
 * (/images/{project}/{dataset}/{file}?w=...), answered by the image resource route.
 */
export function imageUrlBuilder(config: ImageConfig) {
  const builder = createImageUrlBuilder({
    projectId: config.projectId,
    dataset: config.dataset,
    ...(config.world === 'embedded' ? { baseUrl: '/' } : {}),
  });
  return (image: SanityImage, width: number, height?: number) => {
    let b = builder.image({ asset: { _ref: image.asset._id }, crop: image.crop ?? undefined, hotspot: image.hotspot ?? undefined }).width(width).auto('format');
    if (height) b = b.height(height).fit('crop');
    return b.url();
  };
}
