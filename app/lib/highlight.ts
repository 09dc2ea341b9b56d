/**
 * Splits a headline around its highlighted word (the CMS's hero.highlight: "UAE" /
 * "الإمارات"), so the word can be shown in gold. Null when there is nothing to highlight.
 */
export function splitHighlight(
  headline: string,
  highlight: string | null | undefined,
): [before: string, word: string, after: string] | null {
  const word = highlight?.trim();
  if (!word) return null;
  const at = headline.indexOf(word);
  if (at < 0) return null;
  return [headline.slice(0, at), word, headline.slice(at + word.length)];
}
