/**
 * Reading time of a Portable Text body: the words of all its text spans at about
 * 200 words a minute, never less than one minute. Words are split on whitespace, which
 * suits Arabic as well as English; a token with no letter or digit (a dash, a bullet)
 * is not a word.
 */
export const WORDS_PER_MINUTE = 200;

type SpanLike = { _type?: string; text?: unknown };
type BlockLike = { _type: string; children?: unknown };

/** The text of every span in the body's text blocks (images and other objects carry none). */
export function spanTexts(blocks: readonly BlockLike[] | null | undefined): string[] {
  const out: string[] = [];
  for (const block of blocks ?? []) {
    if (block._type !== 'block' || !Array.isArray(block.children)) continue;
    for (const child of block.children as SpanLike[]) {
      if (child && child._type === 'span' && typeof child.text === 'string') out.push(child.text);
    }
  }
  return out;
}

export function countWords(text: string): number {
  let words = 0;
  for (const token of text.split(/\s+/)) {
    if (/[\p{L}\p{N}]/u.test(token)) words++;
  }
  return words;
}

/** Words of all spans. Spans are counted separately, so a link or bold run ends a word. */
export function bodyWordCount(blocks: readonly BlockLike[] | null | undefined): number {
  // Adjacent spans inside one block can split a word ("UAE" + "'s"); joining them without a
  // separator would be right there but wrong between blocks, so join per block.
  let words = 0;
  for (const block of blocks ?? []) words += countWords(spanTexts([block]).join(''));
  return words;
}

/**
 * Word counts of bodies from checked query results, which every visitor's request shares until
 * the content changes (app/sanity/load.server.ts): a body's words are counted once, not per page.
 */
const wordsOfBody = new WeakMap<readonly BlockLike[], number>();

export function readTimeMinutes(
  blocks: readonly BlockLike[] | null | undefined,
  wordsPerMinute = WORDS_PER_MINUTE,
): number {
  let words = blocks ? wordsOfBody.get(blocks) : 0;
  if (words === undefined) wordsOfBody.set(blocks!, (words = bodyWordCount(blocks)));
  return Math.max(1, Math.round(words / wordsPerMinute));
}
