import type { ImageAttributes } from '~/components/Img';
import { IMAGE_LAYOUTS } from '~/components/image-layouts';
import { imageAttributes } from '~/components/SanityImage';
import { imageUrlBuilder } from '~/lib/image';
import { imageConfig } from '~/lib/image-config.server';
import type { SanityImage } from '~/sanity/groq';

/** The logo's images in the header and the footer, and its URL for the Organization JSON-LD. */
export type LogoImages = { header: ImageAttributes; footer: ImageAttributes; schema: string };

/**
 * Built by the locale layout's loader, so that the shell draws the logo from strings and its
 * scripts carry no image URL builder (@sanity/image-url, issue 43). Same layouts as before.
 */
export function logoImages(logo: SanityImage | null): LogoImages | null {
  if (!logo) return null;
  const config = imageConfig();
  return {
    header: imageAttributes(config, logo, IMAGE_LAYOUTS.logoHeader, true),
    footer: imageAttributes(config, logo, IMAGE_LAYOUTS.logoFooter),
    // The JSON-LD logo's width is checked by app/features/images' test: `(logo, 512)`.
    schema: imageUrlBuilder(config)(logo, 512),
  };
}
