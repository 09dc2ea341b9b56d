/** Arabic-Indic (U+0660-0669) and Persian (U+06F0-06F9) digits as ASCII digits; the rest unchanged. */
export function toAsciiDigits(input: string): string {
  return input.replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (d) => String((d.codePointAt(0) ?? 0) & 0xf));
}

/**
 * The digits of a code or card number as a person types or pastes it: Arabic-Indic and Persian
 * digits read as ASCII, and what only groups them dropped (spaces, dashes, dots, and invisible
 * marks such as the bidirectional ones a copy from right-to-left text may carry). Anything else
 * stays, so that a letter still makes the value malformed. The field itself keeps what was typed:
 * only the server reads it this way (no field cuts or rewrites a paste).
 */
export function digitsOf(input: string): string {
  return toAsciiDigits(input).replace(/[\s\p{Pd}.\p{Cf}]/gu, '');
}

/**
 * Numbers joined by `-`, `/` or `.` ("22-02", "14/12/2026", "1.5") kept in their left-to-right
 * order inside Arabic text. After Arabic letters the bidirectional algorithm treats each number as
 * an Arabic number and lays the run out right to left: a unit "الوحدة 22-02" shows as "02-22".
 * Each run is wrapped in a left-to-right isolate (U+2066 … U+2069), invisible and not read aloud.
 */
export function isolateNumberRuns(text: string): string {
  return text.replace(/\d+(?:[-/.]\d+)+/g, (run) => `\u2066${run}\u2069`);
}

/**
 * Codes of Latin letters and digits joined by hyphens ("M2-1234567-8", "201912345K") kept whole
 * and left to right inside Arabic text, like isolateNumberRuns: after Arabic letters "M2-1234567-8"
 * would otherwise split at its hyphens. Each is wrapped in a left-to-right isolate.
 */
export function isolateCodes(text: string): string {
  // A code has a digit and a letter or a hyphen: plain numbers ("15 digits") are left alone.
  return text.replace(/\b(?=[\dA-Z-]*\d)(?=[\dA-Z-]*[A-Z-])[\dA-Z]+(?:-[\dA-Z]+)*\b/g, (run) => `\u2066${run}\u2069`);
}
