/**
 * English fallback, made visible. Localized fields are read as
 *   coalesce(title[$lang], select($lang != "en" => MARK + title.en))
 * so text that had to fall back to English arrives with a private-use character in front.
 * The loader strips the mark (the visitor never sees it) and keeps the list of fallback
 * texts, which the page uses to mark those texts lang="en" dir="ltr" (see
 * app/lib/content-lang.ts): a screen reader then reads them with an English voice and the
 * browser lays them out left to right inside the Arabic page.
 *
 * U+E000 is in the Private Use Area: it never occurs in text an editor typed in the Studio.
 */
export const FALLBACK_MARK = '\uE000';

/** The GROQ string literal of the mark (GROQ understands \u escapes in strings). */
export const FALLBACK_MARK_GROQ = '"\\uE000"';

export type Stripped<T> = { value: T; fallbacks: string[] };

/**
 * Returns `value` with every marked string unmarked, and the unmarked texts. Objects and
 * arrays are copied only where something changed, so a cached result is never mutated.
 */
export function stripFallbackMarks<T>(value: T): Stripped<T> {
  const fallbacks: string[] = [];
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') {
      if (!node.startsWith(FALLBACK_MARK)) return node;
      const text = node.slice(FALLBACK_MARK.length);
      fallbacks.push(text);
      return text;
    }
    if (Array.isArray(node)) {
      let copy: unknown[] | undefined;
      node.forEach((item, i) => {
        const next = walk(item);
        if (next !== item) (copy ??= node.slice())[i] = next;
      });
      return copy ?? node;
    }
    if (node && typeof node === 'object') {
      let copy: Record<string, unknown> | undefined;
      for (const [key, item] of Object.entries(node)) {
        const next = walk(item);
        if (next !== item) (copy ??= { ...(node as Record<string, unknown>) })[key] = next;
      }
      return copy ?? node;
    }
    return node;
  };
  return { value: walk(value) as T, fallbacks };
}
