/**
 * Pure checks used by field validation. Kept free of Sanity imports so they are easy to test
 * and reuse (forms, content checks).
 */

/** An absolute http(s) URL with a host. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** A path on this site: starts with one "/" (not "//", which browsers read as another host), no spaces. */
export function isSitePath(value: string): boolean {
  return /^\/(?!\/)[^\s]*$/.test(value);
}

/**
 * A link target editors may use in navigation, indicator rows and rich text:
 * a site path ("/about", "/services#market-entry"), an http(s) URL, mailto: or tel:.
 */
export function isValidHref(value: string): boolean {
  if (isSitePath(value)) return true;
  if (/^mailto:[^\s@]+@[^\s@]+\.[^\s@]+$/i.test(value)) return true;
  if (/^tel:\+?[0-9][0-9 ()-]{3,}$/i.test(value)) return true;
  return isHttpUrl(value);
}

/** Human-readable phone with a country code: "+971 4 555 0142". */
export function isInternationalPhone(value: string): boolean {
  return /^\+[1-9][0-9 ()-]{5,}[0-9]$/.test(value) && value.replace(/\D/g, '').length <= 15;
}

/** WhatsApp "click to chat" number: digits only, country code first, no "+" or spaces. */
export function isWhatsappNumber(value: string): boolean {
  return /^[1-9][0-9]{7,14}$/.test(value);
}

/** Blog category/tag slugs are lowercase letters, digits and underscores (like `abu_dhabi`). */
export function isUnderscoreSlug(value: string): boolean {
  return /^[a-z0-9]+(?:_[a-z0-9]+)*$/.test(value);
}

/** URL slugs for posts and case studies: lowercase words joined by hyphens. */
export function isHyphenSlug(value: string): boolean {
  return /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value);
}

/** Turns an English title into a URL slug ("UAE Free Zones: 2024 Guide" -> "uae-free-zones-2024-guide"). */
export function slugify(input: string, separator: '-' | '_' = '-'): string {
  return input
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, separator)
    .replace(new RegExp(`^\\${separator}+|\\${separator}+$`, 'g'), '')
    .slice(0, 96);
}
