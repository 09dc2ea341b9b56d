import { IMAGE_LAYOUTS } from '~/components/image-layouts';
import { imageAttributes } from '~/components/SanityImage';
import { imageConfig } from '~/lib/image-config.server';
import type { PortableTextValue, SanityImage } from '~/sanity/groq';

/**
 * Rich text with each image block's <img> attributes built here, on the server (`attributes`):
 * PortableText.tsx draws them, so a page of rich text (a legal page) needs no image URL builder
 * in its scripts (issue 43). Every loader that hands rich text to PortableText passes it through this.
 */
export function withImageAttributes<T extends PortableTextValue>(value: T): T {
  return value.map((block) => {
    const image = block as unknown as SanityImage & { _type?: string };
    return image._type === 'image' && image.asset
      ? { ...block, attributes: imageAttributes(imageConfig(), image, IMAGE_LAYOUTS.portableText) }
      : block;
  }) as T;
}
