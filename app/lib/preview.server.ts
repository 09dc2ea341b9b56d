import { createCookie } from '@remix-run/node';
import { timingSafeEqual } from 'node:crypto';
import { env } from './env.server';

/**
 * Draft preview sessions: entered only with the preview secret, kept in a signed,
 * HttpOnly cookie. Pages in a preview session read the drafts perspective, are never
 * cached (Cache-Control: private, no-store) and never indexed.
 */
let cookie: ReturnType<typeof createCookie> | undefined;
function previewCookie() {
  const e = env();
  cookie ??= createCookie('__preview', {
    httpOnly: true,
    sameSite: 'lax',
    secure: e.isProduction && e.siteUrl.startsWith('https:'),
    path: '/',
    maxAge: 60 * 60 * 4,
    secrets: [e.sessionSecret],
  });
  return cookie;
}

// The layout, every query and the response headers ask for the same request: verify the
// signed cookie once per request.
const verdicts = new WeakMap<Request, Promise<boolean>>();

export function isPreview(request: Request): Promise<boolean> {
  let verdict = verdicts.get(request);
  if (!verdict) {
    verdict = readPreviewCookie(request);
    verdicts.set(request, verdict);
  }
  return verdict;
}

async function readPreviewCookie(request: Request): Promise<boolean> {
  if (!env().previewSecret) return false;
  const header = request.headers.get('Cookie');
  if (!header?.includes('__preview=')) return false;
  return (await previewCookie().parse(header)) === 'drafts';
}

export function secretMatches(candidate: string | null): boolean {
  const secret = env().previewSecret;
  if (!secret || !candidate) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const enterPreviewCookie = () => previewCookie().serialize('drafts');
export const exitPreviewCookie = () => previewCookie().serialize('', { maxAge: 0 });

/** A same-site path to return to; anything else becomes the home page. */
export function safeReturnPath(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return '/';
  return value;
}
