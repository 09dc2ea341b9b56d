/**
 * Structured data (schema.org JSON-LD) for articles and breadcrumb trails. Built on the
 * server from loader data; every URL in it is absolute. Rendered by components/JsonLd.tsx.
 */
export type Crumb = { name: string; url: string };

export function breadcrumbList(items: readonly Crumb[]) {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: items.map((item, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: item.name,
      item: item.url,
    })),
  };
}

export type ArticleInput = {
  url: string;
  headline: string;
  description?: string | null;
  image?: string | null;
  datePublished: string;
  dateModified?: string | null;
  author: string;
  publisher: { name: string; logo?: string | null; url: string };
  language: string;
  section?: string | null;
  keywords?: readonly string[];
};

export function article(input: ArticleInput) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Article',
    mainEntityOfPage: { '@type': 'WebPage', '@id': input.url },
    url: input.url,
    headline: input.headline,
    ...(input.description ? { description: input.description } : {}),
    ...(input.image ? { image: [input.image] } : {}),
    datePublished: input.datePublished,
    dateModified: input.dateModified ?? input.datePublished,
    inLanguage: input.language,
    author: { '@type': 'Person', name: input.author },
    publisher: {
      '@type': 'Organization',
      name: input.publisher.name,
      url: input.publisher.url,
      ...(input.publisher.logo ? { logo: { '@type': 'ImageObject', url: input.publisher.logo } } : {}),
    },
    ...(input.section ? { articleSection: input.section } : {}),
    ...(input.keywords?.length ? { keywords: input.keywords.join(', ') } : {}),
  };
}

/** An absolute URL for a site path or an image URL that may be relative. */
export function absoluteUrl(siteUrl: string, pathOrUrl: string): string {
  if (/^https?:\/\//.test(pathOrUrl)) return pathOrUrl;
  if (pathOrUrl.startsWith('//')) return `https:${pathOrUrl}`;
  return siteUrl.replace(/\/$/, '') + (pathOrUrl.startsWith('/') ? pathOrUrl : `/${pathOrUrl}`);
}
