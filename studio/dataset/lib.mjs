// Small helpers for writing bilingual dataset sources in studio/dataset/src/*.mjs.
import { createHash } from 'node:crypto';

/** Stable _key from any seed text, so rebuilding the dataset yields the same file. */
export const key = (...parts) => createHash('sha1').update(parts.join('|')).digest('hex').slice(0, 12);

export const ls = (en, ar) => ({ _type: 'localeString', en, ar });
export const lt = (en, ar) => ({ _type: 'localeText', en, ar });

/** An array of localeString items, each with a _key: lsList([['en', 'ar'], ...]). */
export const lsList = (pairs) => pairs.map(([en, ar]) => ({ _key: key(en), ...ls(en, ar) }));

export const image = (file, altEn, altAr) => ({
  _type: 'image',
  _sanityAsset: `image@file://./images/${file}`,
  alt: ls(altEn, altAr),
});

export const ref = (id) => ({ _type: 'reference', _ref: id });
export const refItem = (id) => ({ _key: key(id), _type: 'reference', _ref: id });

export const slug = (current) => ({ _type: 'slug', current });

export const navLink = (href, en, ar, icon) => ({ _key: key(href, en), _type: 'navLink', label: ls(en, ar), href, ...(icon ? { icon } : {}) });

/**
 * Portable Text from a compact description. Each entry is one of:
 *   'plain paragraph'                   ['h2', 'Heading']   ['h3', 'Heading']
 *   ['quote', 'text']                   ['ul', ['item', 'item']]   ['ol', ['item']]
 *   ['img', 'file.jpg', 'alt text']     ['p', [ 'text ', { text: 'link', href: '/faq' }, { text: 'bold', bold: true } ]]
 * Alt text of images inside a language's body is given in that language, so `alt` is
 * a localeString with the same value in `en` and `ar` filled by the caller: use
 * blocks(lang, entries, altOther) and pass the translated alt through entries.
 */
export function blocks(seed, entries) {
  const out = [];
  let n = 0;
  const k = () => key(seed, String(n++));
  const spansOf = (content) => {
    const parts = Array.isArray(content) ? content : [content];
    const markDefs = [];
    const children = parts.map((part) => {
      if (typeof part === 'string') return { _type: 'span', _key: k(), text: part, marks: [] };
      const marks = [];
      if (part.bold) marks.push('strong');
      if (part.em) marks.push('em');
      if (part.href) {
        const mk = k();
        markDefs.push({ _key: mk, _type: 'link', href: part.href });
        marks.push(mk);
      }
      return { _type: 'span', _key: k(), text: part.text, marks };
    });
    return { children, markDefs };
  };
  const block = (style, content, extra = {}) => ({ _type: 'block', _key: k(), style, ...spansOf(content), ...extra });
  for (const entry of entries) {
    if (typeof entry === 'string') { out.push(block('normal', entry)); continue; }
    const [kind, a, b, c] = entry;
    if (kind === 'p') out.push(block('normal', a));
    else if (kind === 'h2' || kind === 'h3' || kind === 'h4') out.push(block(kind, a));
    else if (kind === 'quote') out.push(block('blockquote', a));
    else if (kind === 'ul' || kind === 'ol') for (const item of a) out.push(block('normal', item, { listItem: kind === 'ul' ? 'bullet' : 'number', level: 1 }));
    else if (kind === 'img') out.push({ _type: 'image', _key: k(), _sanityAsset: `image@file://./images/${a}`, alt: ls(b, c ?? b) });
    else throw new Error(`unknown block kind ${kind}`);
  }
  return out;
}

export const lb = (seed, enEntries, arEntries) => ({
  _type: 'localeBlockContent',
  en: blocks(`${seed}:en`, enEntries),
  ar: blocks(`${seed}:ar`, arEntries),
});
