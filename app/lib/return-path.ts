/**
 * Where to send a visitor back to after a form or a preview switch: a path of this site
 * (pathname, search and hash), given as a path or as an absolute URL on one of `origins`.
 * Null for anything else: another origin, a protocol-relative `//host`, backslashes (which
 * browsers read as slashes), a path without its leading slash, or more than 2,000 characters.
 * Callers choose their own fallback (the home page, the portal, the page's language).
 */
export function safeReturnPath(raw: string | null | undefined, origins: readonly string[] = []): string | null {
  if (!raw || raw.length > 2000 || raw.includes('\\')) return null;
  const relative = raw.startsWith('/') && !raw.startsWith('//');
  let url: URL;
  try {
    url = new URL(raw, 'http://site.invalid');
  } catch {
    return null;
  }
  if (!relative && !origins.includes(url.origin)) return null;
  if (!url.pathname.startsWith('/') || url.pathname.startsWith('//')) return null;
  return url.pathname + url.search + url.hash;
}

/**
 * A redirect's Location as it may leave the server: a path that a browser would read as another
 * host (`//evil.example`, `/\\evil.example`, `\\evil.example`, or the same with tabs and
 * newlines, which browsers drop) is made a path of this site by folding its leading slashes
 * and backslashes into one. Absolute URLs are left to the route that chose them (Stripe's
 * checkout page is one); everything else is unchanged.
 */
export function onSiteLocation(location: string): string {
  // eslint-disable-next-line no-control-regex
  const bare = location.replace(/[\u0000-\u0020]/g, '');
  if (!/^[/\\]{2}|^\\/.test(bare)) return location;
  return '/' + bare.replace(/^[/\\]+/, '');
}
