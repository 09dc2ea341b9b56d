/** Arabic-Indic (U+0660-0669) and Persian (U+06F0-06F9) digits as ASCII digits; the rest unchanged. */
export function toAsciiDigits(input: string): string {
  return input.replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (d) => String((d.codePointAt(0) ?? 0) & 0xf));
}
