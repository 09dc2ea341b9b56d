/**
 * How a CMS image is laid out: the width it is drawn at (its largest, in CSS pixels; the srcset
 * asks for 0.5, 1, 1.5 and 2 times it), the aspect ratio it is cropped to (none: the image's own),
 * the `sizes` hint that picks a srcset entry, and the classes that size it on the page.
 */
export type ImageLayout = { width: number; aspect?: number; sizes?: string; className?: string };

/**
 * The layouts of the images that play a role in more than one place, by role, so that a page
 * says which one it shows (`<SanityImage image={…} layout="postCard" />`) and the numbers live
 * here. Every width must be one the image resizer produces (LAYOUT_WIDTHS in
 * features/images/resize.server.ts); its test reads this table.
 */
export const IMAGE_LAYOUTS = {
  /** The brand logo in the header: built by the layout's loader (app/lib/logo.server.ts); Logo.tsx has its classes. */
  logoHeader: { width: 200, sizes: '(min-width: 768px) 200px, 150px' },
  /** An image in rich text: its attributes built by app/lib/portable-images.server.ts, drawn by app/lib/rich-text.server.tsx. */
  portableText: { width: 768, sizes: '(min-width: 820px) 768px, 100vw' },
  /** The brand logo in the footer. */
  logoFooter: { width: 180, sizes: '180px' },
  /** An article's card in a grid of up to three columns. */
  postCard: {
    width: 640,
    aspect: 16 / 9,
    sizes: '(min-width: 1280px) 400px, (min-width: 1024px) 30vw, (min-width: 640px) 50vw, 100vw',
    className: 'aspect-video h-auto w-full bg-sand-100 object-cover',
  },
  /** The featured article's cover, beside its text from md up. */
  featuredPost: {
    width: 720,
    aspect: 16 / 10,
    sizes: '(min-width: 1280px) 608px, (min-width: 768px) 50vw, 100vw',
    className: 'aspect-[16/10] h-full w-full object-cover',
  },
  /** A case study's card in the two-column listing. */
  caseStudyCard: {
    width: 720,
    aspect: 16 / 9,
    sizes: '(min-width: 1280px) 600px, (min-width: 768px) 50vw, 100vw',
    className: 'aspect-video h-auto w-full bg-sand-100 object-cover',
  },
  /** A case study's compact card, three to a row (the other case studies under one). */
  caseStudyCardCompact: {
    width: 480,
    aspect: 16 / 9,
    sizes: '(min-width: 1024px) 400px, (min-width: 640px) 50vw, 100vw',
    className: 'aspect-video h-auto w-full bg-sand-100 object-cover',
  },
  /** The home page's hero photo, the right half of the hero from lg up (its frame rounds it). */
  homeHero: {
    width: 720,
    aspect: 3 / 2,
    sizes: '(min-width: 1280px) 620px, (min-width: 1024px) 46vw, 100vw',
    className: 'h-auto w-full',
  },
  /** The about page's photo, beside its heading from lg up. */
  aboutHero: {
    width: 640,
    aspect: 3 / 2,
    sizes: '(min-width: 1280px) 592px, (min-width: 1024px) 46vw, 100vw',
    className: 'h-auto w-full rounded-3xl shadow-xl ring-1 ring-navy-900/5',
  },
} satisfies Record<string, ImageLayout>;

export type ImageLayoutName = keyof typeof IMAGE_LAYOUTS;
