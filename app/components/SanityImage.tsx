import { useRootData } from '~/lib/root-data';
import { imageUrlBuilder } from '~/lib/image';
import type { SanityImage as Img } from '~/sanity/groq';
import { IMAGE_LAYOUTS, type ImageLayout, type ImageLayoutName } from './image-layouts';

type Props = {
  image: Img;
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

/** A CMS image with intrinsic size (no layout shift), a srcset and lazy loading below the fold. */
export function SanityImage({ image, priority, alt, onError, imgRef, ...props }: Props) {
  const { width, aspect, sizes, className }: ImageLayout = props.layout ? IMAGE_LAYOUTS[props.layout] : props;
  const root = useRootData();
  if (!root) return null;
  const url = imageUrlBuilder(root.image);
  const ratio = aspect ?? image.asset.width / image.asset.height;
  const height = Math.round(width / ratio);
  const candidates = [0.5, 1, 1.5, 2]
    .map((f) => Math.round(width * f))
    .filter((w) => w <= Math.max(image.asset.width, width));
  const srcSet = candidates.map((w) => `${url(image, w, aspect ? Math.round(w / ratio) : undefined)} ${w}w`).join(', ');
  return (
    <img
      ref={imgRef}
      src={url(image, width, aspect ? height : undefined)}
      srcSet={srcSet}
      sizes={sizes ?? `${width}px`}
      width={width}
      height={height}
      alt={alt ?? image.alt ?? ''}
      loading={priority ? 'eager' : 'lazy'}
      decoding={priority ? 'sync' : 'async'}
      {...(priority ? { fetchpriority: 'high' } : {})}
      className={className}
      onError={onError}
    />
  );
}
