import { IMAGE_LAYOUTS } from '~/components/image-layouts';
import { imageAttributes } from '~/components/SanityImage';
import { imageConfig } from '~/lib/image-config.server';
import type { PortableTextValue, SanityImage } from '~/sanity/groq';

/**
 * Rich text with each image block's <img> attributes built here (`attributes`), for the server's
 * renderer of rich text (app/lib/rich-text.server.tsx, which passes every body through this).
 */
export function withImageAttributes<T extends PortableTextValue>(value: T): T {
  return value.map((block) => {
    const image = block as unknown as SanityImage & { _type?: string };
    return image._type === 'image' && image.asset
      ? { ...block, attributes: imageAttributes(imageConfig(), image, IMAGE_LAYOUTS.portableText) }
      : block;
  }) as T;
}
