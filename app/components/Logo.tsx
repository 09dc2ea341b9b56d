import { useEffect, useRef, useState } from 'react';
import { useFallbackLang } from '~/lib/content-lang';
import { type ImageAttributes, Img } from './Img';

/** `image`: its attributes, made by the layout's loader (app/lib/logo.server.ts). */
type Props = { brandName: string; image: ImageAttributes | null; placement: 'header' | 'footer' };

/**
 * The brand logo. If the image cannot be shown (missing in the CMS or failed to load,
 * even before the page hydrated) the brand name is shown as a text block instead.
 */
export function Logo({ brandName, image, placement }: Props) {
  const [failed, setFailed] = useState(!image);
  const inEnglish = useFallbackLang();
  const ref = useRef<HTMLImageElement>(null);

  const fail = () => {
    setFailed((already) => {
      if (!already && placement === 'header') console.error('Navbar logo failed to load');
      return true;
    });
  };

  useEffect(() => {
    // An image that failed before hydration fired its error event before React listened.
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0) fail();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (failed || !image) {
    return (
      <span
        data-testid={`${placement}-logo-fallback`}
        className="inline-flex items-center rounded-lg bg-navy-900 px-3 py-2 text-lg font-bold tracking-tight text-white md:text-xl"
      >
        <span {...inEnglish(brandName)}>{brandName}</span>
      </span>
    );
  }
  return (
    <Img
      attributes={image}
      alt={brandName}
      className={placement === 'header' ? 'h-auto w-[150px] md:w-[200px]' : 'h-auto w-[180px]'}
      onError={fail}
      imgRef={ref}
    />
  );
}
