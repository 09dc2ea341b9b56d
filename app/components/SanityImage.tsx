import { useRootData } from '~/root';
import { imageUrlBuilder } from '~/lib/image';
import type { SanityImage as Img } from '~/sanity/groq';

type Props = {
  image: Img;
  /** Width in CSS pixels the image is laid out at (its largest); height follows the aspect ratio or `aspect`. */
  width: number;
  aspect?: number;
  sizes?: string;
  /** Above the fold: load eagerly with high priority. */
  priority?: boolean;
  className?: string;
  alt?: string;
  onError?: React.ReactEventHandler<HTMLImageElement>;
  imgRef?: React.Ref<HTMLImageElement>;
};

/** A CMS image with intrinsic size (no layout shift), a srcset and lazy loading below the fold. */
export function SanityImage({ image, width, aspect, sizes, priority, className, alt, onError, imgRef }: Props) {
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
