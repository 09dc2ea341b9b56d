import { describe, expect, it } from 'vitest';
import { jsonLdString } from '~/components/JsonLd';
import { absoluteUrl, article, breadcrumbList } from './structured-data';

describe('JSON-LD', () => {
  it('numbers breadcrumb items from 1', () => {
    expect(
      breadcrumbList([
        { name: 'Home', url: 'https://x.test/' },
        { name: 'Blog', url: 'https://x.test/blog' },
      ]),
    ).toEqual({
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Home', item: 'https://x.test/' },
        { '@type': 'ListItem', position: 2, name: 'Blog', item: 'https://x.test/blog' },
      ],
    });
  });

  it('describes an article with author, publisher, dates and language', () => {
    const a = article({
      url: 'https://x.test/ar/blog/p',
      headline: 'عنوان',
      description: 'وصف',
      image: 'https://x.test/img.jpg',
      datePublished: '2026-04-07T07:30:00.000Z',
      author: 'ليلى حداد',
      publisher: { name: 'Brand', logo: 'https://x.test/logo.png', url: 'https://x.test/ar' },
      language: 'ar',
      section: 'المالية',
      keywords: ['الضرائب', 'الإمارات'],
    });
    expect(a).toMatchObject({
      '@type': 'Article',
      headline: 'عنوان',
      image: ['https://x.test/img.jpg'],
      dateModified: '2026-04-07T07:30:00.000Z',
      inLanguage: 'ar',
      author: { '@type': 'Person', name: 'ليلى حداد' },
      publisher: {
        '@type': 'Organization',
        name: 'Brand',
        logo: { '@type': 'ImageObject', url: 'https://x.test/logo.png' },
      },
      mainEntityOfPage: { '@type': 'WebPage', '@id': 'https://x.test/ar/blog/p' },
      articleSection: 'المالية',
      keywords: 'الضرائب, الإمارات',
    });
    expect(
      article({
        url: 'u',
        headline: 'h',
        datePublished: 'd',
        author: 'a',
        publisher: { name: 'b', url: 'u' },
        language: 'en',
      }),
    ).not.toHaveProperty('image');
  });

  it('serializes so that the text cannot end the script element, and parses back', () => {
    const value = { headline: '</script><script>alert(1)</script> & more' };
    const text = jsonLdString(value);
    expect(text).not.toMatch(/<|>/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('makes image and page URLs absolute', () => {
    expect(absoluteUrl('https://x.test', '/images/a.jpg?w=1')).toBe('https://x.test/images/a.jpg?w=1');
    expect(absoluteUrl('https://x.test/', 'blog')).toBe('https://x.test/blog');
    expect(absoluteUrl('https://x.test', 'https://cdn.sanity.io/a.jpg')).toBe('https://cdn.sanity.io/a.jpg');
    expect(absoluteUrl('https://x.test', '//cdn.test/a.jpg')).toBe('https://cdn.test/a.jpg');
  });
});
