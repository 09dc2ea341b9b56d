/** Arabic-Indic (٠-٩) and Persian (۰-۹) digits, as typed on Arabic keyboards, become ASCII digits; all else is kept. */
export function asciiDigits(value: string): string {
  return value.replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) & 0xf));
}
