import { createImageUrlBuilder } from '@sanity/image-url';
import { describe, expect, it } from 'vitest';
import type { SanityImage } from '~/sanity/groq';
import { imageUrlBuilder } from './image';

const image = (crop?: SanityImage['crop'], hotspot?: SanityImage['hotspot']) =>
  ({ asset: { _id: 'image-abc123-1200x800-jpg', width: 1200, height: 800 }, crop, hotspot }) as unknown as SanityImage;
const embedded = { projectId: 'p1', dataset: 'production', world: 'embedded' as const };
const hosted = { ...embedded, world: 'hosted' as const };

describe('image URLs', () => {
  it("builds Sanity's URL shape, relative in the embedded world", () => {
    expect(imageUrlBuilder(embedded)(image(), 400)).toBe('/images/p1/production/abc123-1200x800.jpg?w=400&auto=format');
    expect(imageUrlBuilder(hosted)(image(), 400)).toBe(
      'https://cdn.sanity.io/images/p1/production/abc123-1200x800.jpg?w=400&auto=format',
    );
    expect(imageUrlBuilder(embedded)(image(), 400, 300)).toBe(
      '/images/p1/production/abc123-1200x800.jpg?rect=67,0,1067,800&w=400&h=300&fit=crop&auto=format',
    );
  });

  it('answers from its memo what the library builds, crop, hotspot and size included', () => {
    const urlFor = imageUrlBuilder(embedded);
    expect(imageUrlBuilder(embedded)).toBe(urlFor);
    const direct = (img: SanityImage, w: number, h?: number) => {
      let b = createImageUrlBuilder({ projectId: 'p1', dataset: 'production', baseUrl: '/' })
        .image({ asset: { _ref: img.asset._id }, crop: img.crop ?? undefined, hotspot: img.hotspot ?? undefined })
        .width(w)
        .auto('format');
      if (h) b = b.height(h).fit('crop');
      return b.url();
    };
    const crop = { top: 0.1, bottom: 0, left: 0, right: 0.2 };
    const cases: [SanityImage, number, number?][] = [
      [image(crop), 600, 400],
      [image({ ...crop, top: 0.2 }), 600, 400],
      [image(crop, { x: 0.5, y: 0.2, width: 0.2, height: 0.2 }), 600, 200],
      [image(crop, { x: 0.5, y: 0.8, width: 0.2, height: 0.2 }), 600, 200],
      [image(crop), 600],
      [image(), 600, 400],
    ];
    for (let round = 0; round < 2; round++)
      for (const [img, w, h] of cases) expect(urlFor(img, w, h)).toBe(direct(img, w, h));
    expect(new Set(cases.map(([img, w, h]) => urlFor(img, w, h))).size).toBe(cases.length);
  });

  it('stays right past its bound', () => {
    const urlFor = imageUrlBuilder(embedded);
    for (let w = 1; w <= 2_100; w++)
      expect(urlFor(image(), w)).toBe(`/images/p1/production/abc123-1200x800.jpg?w=${w}&auto=format`);
  });
});
