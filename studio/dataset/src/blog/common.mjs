// Shared builder for blog posts (used by ../blog.mjs and ../drafts.mjs).
// This folder is not scanned by scripts/build-dataset.mjs (it reads src/*.mjs only).
import { ls, lt, image, ref, refItem, slug, lb } from '../../lib.mjs';

export const AUTHORS = {
  omar: ['Omar Al Mansoori', 'عمر المنصوري'],
  layla: ['Layla Haddad', 'ليلى حداد'],
  wei: ['Tan Wei Ling', 'تان وي لينغ'],
  james: ['James Whitfield', 'جيمس ويتفيلد'],
  noura: ['Noura Al Falasi', 'نورة الفلاسي'],
};

/**
 * post({ slug, title: [en, ar], excerpt: [en, ar], category, tags, author, publishedAt,
 *        featured, cover: [file, altEn, altAr], seo: { title: [en, ar], description: [en, ar] },
 *        en: [...], ar: [...] }, { draft })
 */
export function post(p, { draft = false } = {}) {
  const [authorEn, authorAr] = AUTHORS[p.author];
  const cover = image(p.cover[0], p.cover[1], p.cover[2]);
  return {
    _id: `${draft ? 'drafts.' : ''}blogPost-${p.slug}`,
    _type: 'blogPost',
    title: ls(...p.title),
    slug: slug(p.slug),
    excerpt: lt(...p.excerpt),
    body: lb(`blogPost-${p.slug}`, p.en, p.ar),
    coverImage: cover,
    category: ref(`blogCategory-${p.category}`),
    tags: p.tags.map((t) => refItem(`blogTag-${t}`)),
    author: ls(authorEn, authorAr),
    publishedAt: p.publishedAt,
    featured: Boolean(p.featured),
    seo: {
      _type: 'seo',
      title: ls(...p.seo.title),
      description: lt(...p.seo.description),
      // seo.image is a plain image (no alt field in the schema).
      image: { _type: 'image', _sanityAsset: cover._sanityAsset },
    },
  };
}
