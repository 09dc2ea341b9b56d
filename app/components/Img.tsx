/** What an <img> of a CMS image carries (made by imageAttributes in SanityImage.tsx). */
export type ImageAttributes = {
  src: string;
  srcSet: string;
  sizes: string;
  width: number;
  height: number;
  loading: 'eager' | 'lazy';
  decoding: 'sync' | 'async';
  fetchpriority: 'high' | undefined;
};

/** The <img> of imageAttributes, in one attribute order wherever it is drawn (the pages stay byte-identical). */
export function Img({
  attributes: { src, srcSet, sizes, width, height, loading, decoding, fetchpriority },
  alt,
  className,
  onError,
  imgRef,
}: {
  attributes: ImageAttributes;
  alt: string;
  className?: string;
  onError?: React.ReactEventHandler<HTMLImageElement>;
  imgRef?: React.Ref<HTMLImageElement>;
}) {
  return (
    <img
      ref={imgRef}
      src={src}
      srcSet={srcSet}
      sizes={sizes}
      width={width}
      height={height}
      alt={alt}
      loading={loading}
      decoding={decoding}
      {...(fetchpriority ? { fetchpriority } : {})}
      className={className}
      onError={onError}
    />
  );
}
