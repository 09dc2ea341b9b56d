/** Rich text's images get their <img> attributes on the server; other blocks pass unchanged. */
import { describe, expect, it } from 'vitest';
import { IMAGE_LAYOUTS } from '~/components/image-layouts';
import { imageAttributes } from '~/components/SanityImage';
import { imageConfig } from './image-config.server';
import { withImageAttributes } from './portable-images.server';

const image = {
  _type: 'image',
  _key: 'i1',
  asset: { _id: 'image-0123456789abcdef0123456789abcdef01234567-3200x2000-jpg', width: 3200, height: 2000 },
  alt: 'A chart',
};
const text = { _type: 'block', _key: 'b1', children: [{ _type: 'span', text: 'Hello' }] };

describe('withImageAttributes', () => {
  it('adds the rich-text layout to each image block and leaves the rest alone', () => {
    const [block, picture] = withImageAttributes([text, image] as never) as unknown as [
      typeof text,
      typeof image & { attributes: unknown },
    ];
    expect(block).toBe(text);
    expect(picture.attributes).toEqual(imageAttributes(imageConfig(), image as never, IMAGE_LAYOUTS.portableText));
    expect(picture.attributes).toMatchObject({ width: 768, loading: 'lazy', sizes: '(min-width: 820px) 768px, 100vw' });
  });
});
