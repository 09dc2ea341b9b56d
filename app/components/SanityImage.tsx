import { useRootData } from '~/lib/root-data';
import { imageUrlBuilder, type ImageConfig } from '~/lib/image';
import type { SanityImage as CmsImage } from '~/sanity/groq';
import { type ImageAttributes, Img } from './Img';
import { IMAGE_LAYOUTS, type ImageLayout, type ImageLayoutName } from './image-layouts';

type Props = {
  image: CmsImage;
  /** Above the fold: load eagerly with high priority. */
  priority?: boolean;
  alt?: string;
  onError?: React.ReactEventHandler<HTMLImageElement>;
  imgRef?: React.Ref<HTMLImageElement>;
} & (
  | {
      /** One of the named layouts (image-layouts.ts). */
      layout: ImageLayoutName;
    }
  /** A layout of its own: `width` in CSS pixels (its largest); the height follows the image or `aspect`. */
  | (ImageLayout & { layout?: undefined })
);

/**
 * The attributes of a CMS image's <img>: intrinsic size (no layout shift), a srcset, lazy loading
 * below the fold. Also made by the server for the logo (app/lib/logo.server.ts), so that the
 * shell's scripts need no URL builder.
 */
export function imageAttributes(
  config: ImageConfig,
  image: CmsImage,
  { width, aspect, sizes }: ImageLayout,
  priority = false,
): ImageAttributes {
  const url = imageUrlBuilder(config);
  const ratio = aspect ?? image.asset.width / image.asset.height;
  const height = Math.round(width / ratio);
  const candidates = [0.5, 1, 1.5, 2]
    .map((f) => Math.round(width * f))
    .filter((w) => w <= Math.max(image.asset.width, width));
  const srcSet = candidates.map((w) => `${url(image, w, aspect ? Math.round(w / ratio) : undefined)} ${w}w`).join(', ');
  return {
    src: url(image, width, aspect ? height : undefined),
    srcSet,
    sizes: sizes ?? `${width}px`,
    width,
    height,
    loading: priority ? ('eager' as const) : ('lazy' as const),
    decoding: priority ? ('sync' as const) : ('async' as const),
    fetchpriority: priority ? ('high' as const) : undefined,
  };
}
/** A CMS image with intrinsic size (no layout shift), a srcset and lazy loading below the fold. */
export function SanityImage({ image, priority, alt, onError, imgRef, ...props }: Props) {
  const layout: ImageLayout = props.layout ? IMAGE_LAYOUTS[props.layout] : props;
  const root = useRootData();
  if (!root) return null;
  return (
    <Img
      attributes={imageAttributes(root.image, image, layout, priority)}
      alt={alt ?? image.alt ?? ''}
      className={layout.className}
      onError={onError}
      imgRef={imgRef}
    />
  );
}
