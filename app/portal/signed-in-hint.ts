/**
 * The signed-in hint: a cookie the server sets beside the HttpOnly session cookie (same lifetime,
 * path and SameSite) so that the public pages, rendered once and shared by every visitor (ADR
 * 0010), can show "My account" instead of "Client Login" after hydration without the server
 * rendering anything per visitor. It is a label only, never a credential: it carries no secret,
 * scripts may read it, and nothing on the server trusts it (every portal route checks the
 * session itself). Shared by the session code (app/portal/session.server.ts) and the header.
 */
export const SIGNED_IN_HINT_COOKIE = 'signed_in';

/** Whether a Cookie header (or `document.cookie`) carries the hint. */
export function hasSignedInHint(cookies: string | null | undefined): boolean {
  return (cookies ?? '').split(';').some((part) => part.trim() === `${SIGNED_IN_HINT_COOKIE}=1`);
}
