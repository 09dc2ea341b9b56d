import { cloneElement, Fragment, type ReactElement, type ReactNode } from 'react';

const TAG = /<([a-z][a-z0-9]*)>([\s\S]*?)<\/\1>/gi;

/**
 * A translated sentence with markup for parts of it, e.g. `Tag: <bdi>{{tag}}</bdi>` after
 * interpolation, drawn with the element given for each tag:
 *
 *   <TaggedText text={t('blog.tagTitle', { tag })} tags={{ bdi: <bdi {...inEnglish(tag)} /> }} />
 *
 * Tags do not nest. A tag with no element given keeps its words and loses the markup; anything
 * else in the text, '<' included, is shown as text (React escapes it).
 *
 * It does what react-i18next's <Trans> does for these strings at a fraction of the server cost:
 * the footer's one <Trans> took about 3 % of the CPU of rendering a whole page (it parses the
 * string as HTML and re-resolves the key on every render), and the footer is on every page.
 */
export function TaggedText({ text, tags }: { text: string; tags: Record<string, ReactElement> }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(TAG)) {
    const [whole, name, words] = match;
    const at = match.index ?? 0;
    if (at > last) parts.push(text.slice(last, at));
    const element = tags[name];
    parts.push(element ? cloneElement(element, { key: parts.length }, words) : words);
    last = at + whole.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <Fragment>{parts}</Fragment>;
}
