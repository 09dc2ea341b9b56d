import type { MetaDescriptor } from '@remix-run/node';
import { localizePath, type Locale } from '~/i18n';

export type SeoInput = {
  /** The page's own title; the brand is appended unless it already contains it. */
  title: string;
  description?: string | null;
  /** Path without the language prefix, e.g. "/about". */
  path: string;
  locale: Locale;
  siteUrl: string;
  brandName: string;
  image?: string | null;
  noindex?: boolean;
  type?: 'website' | 'article';
};

const ogLocale: Record<Locale, string> = { en: 'en_GB', ar: 'ar_AE' };

/** Title, description, canonical, hreflang alternates (en, ar, x-default), Open Graph and Twitter cards. */
export function seoMeta(input: SeoInput): MetaDescriptor[] {
  const title = input.title.includes(input.brandName) ? input.title : `${input.title} | ${input.brandName}`;
  const abs = (locale: Locale) => input.siteUrl + localizePath(input.path, locale);
  const canonical = abs(input.locale);
  const image = input.image ? (input.image.startsWith('http') ? input.image : input.siteUrl + input.image) : undefined;
  const meta: MetaDescriptor[] = [
    { title },
    { tagName: 'link', rel: 'canonical', href: canonical },
    { tagName: 'link', rel: 'alternate', hrefLang: 'en', href: abs('en') },
    { tagName: 'link', rel: 'alternate', hrefLang: 'ar', href: abs('ar') },
    { tagName: 'link', rel: 'alternate', hrefLang: 'x-default', href: abs('en') },
    { property: 'og:type', content: input.type ?? 'website' },
    { property: 'og:site_name', content: input.brandName },
    { property: 'og:title', content: title },
    { property: 'og:url', content: canonical },
    { property: 'og:locale', content: ogLocale[input.locale] },
    { property: 'og:locale:alternate', content: ogLocale[input.locale === 'en' ? 'ar' : 'en'] },
    { name: 'twitter:card', content: image ? 'summary_large_image' : 'summary' },
    { name: 'twitter:title', content: title },
  ];
  if (input.description) {
    meta.push(
      { name: 'description', content: input.description },
      { property: 'og:description', content: input.description },
      { name: 'twitter:description', content: input.description },
    );
  }
  if (image) meta.push({ property: 'og:image', content: image }, { name: 'twitter:image', content: image });
  if (input.noindex) meta.push({ name: 'robots', content: 'noindex, nofollow' });
  return meta;
}
