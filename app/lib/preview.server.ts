import { createCookie } from '@remix-run/node';
import { timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Perspective } from '~/sanity/types';
import { env } from './env.server';
import { oncePerRequest } from './once-per-request.server';
import { safeReturnPath } from './return-path';
import { log as logger } from '~/lib/log.server';

/**
 * Draft preview sessions: entered only with a secret, kept in a signed (SESSION_SECRET),
 * HttpOnly cookie that holds the session's perspective. Pages in a preview session read
 * that perspective (drafts, unless the Studio's perspective switch chose published), are
 * never cached (Cache-Control: private, no-store) and never indexed.
 *
 * Two ways in, both ending in the same cookie:
 * - a PREVIEW_SECRET link, /api/preview?secret=…&redirect=/path (either world);
 * - the hosted world's Studio: the Presentation tool opens /api/preview-mode/enable with a
 *   short-lived secret it stored in the dataset (@sanity/preview-url-secret), which the
 *   server checks with the read token. No PREVIEW_SECRET is needed for that.
 */

/**
 * Whether this deployment can preview at all: the embedded world only with a PREVIEW_SECRET;
 * the hosted world only with a read token (drafts cannot be read without one), entered
 * through the Studio's secret or, when also set, a PREVIEW_SECRET link. Anything else: no
 * preview, and a preview cookie is ignored even if it verifies.
 */
export function previewAvailable(): boolean {
  const { content, previewSecret } = env();
  return content.world === 'hosted'
    ? Boolean(content.readToken)
    : Boolean(previewSecret) || embeddedStudioCheck() !== null;
}

declare global {
  var __embeddedStudioCheck: StudioSecretCheck | undefined;
}

/**
 * The embedded world's Studio (the local Content Lake, app/lake/) registers how its preview
 * secrets are checked when it starts; without a running lake there is no Studio and no check.
 */
export function allowEmbeddedStudioPreview(check: StudioSecretCheck): void {
  globalThis.__embeddedStudioCheck = check;
}
export const embeddedStudioCheck = (): StudioSecretCheck | null => globalThis.__embeddedStudioCheck ?? null;

/** How long a preview session lasts; the expiry is inside the signed value, so the server enforces it. */
export const PREVIEW_SECONDS = 60 * 60 * 4;

/** The signed cookie's value: the perspective and when the session ends (ms since epoch). */
type PreviewValue = { p: Perspective; exp: number };

let cookie: ReturnType<typeof createCookie> | undefined;
function previewCookie() {
  const e = env();
  const secure = e.isProduction && e.siteUrl.startsWith('https:');
  cookie ??= createCookie('__preview', {
    httpOnly: true,
    // The Studio shows the site in a cross-site iframe (Presentation tool), where a Lax
    // cookie is neither stored nor sent. Over HTTPS the hosted world's cookie is therefore
    // SameSite=None (which browsers accept only with Secure); locally the Studio
    // (localhost:3333) and the site (localhost:3000) are the same site and Lax works.
    sameSite: e.content.world === 'hosted' && secure ? 'none' : 'lax',
    secure,
    path: '/',
    maxAge: PREVIEW_SECONDS,
    // Signs with the first; a cookie signed with SESSION_SECRET_PREVIOUS still verifies during a change-over.
    secrets: e.sessionSecrets,
  });
  return cookie;
}

/**
 * The perspective of this request's preview session, or null outside one (the layout, every query
 * and the response headers ask: the signed cookie is verified once per request).
 */
export const previewPerspective: (request: Request) => Promise<Perspective | null> = oncePerRequest(readPreviewCookie);

let overlays: string | null | undefined;

/**
 * The URL of the visual editing overlays' bundle (scripts/build-overlays.mjs writes it and its
 * manifest into public/overlays/, ADR 0024), read once. Without it (a build that skipped the
 * step) preview sessions work without overlays, and the log says why.
 */
export function overlaysUrl(): string | null {
  if (overlays !== undefined) return overlays;
  try {
    const { url } = JSON.parse(readFileSync('public/overlays/manifest.json', 'utf8')) as { url?: unknown };
    if (typeof url !== 'string' || !/^\/overlays\/[\w-]+\.js$/.test(url))
      throw new Error(`no bundle named: ${String(url)}`);
    overlays = url;
  } catch (error) {
    logger.warn(`[preview] no visual editing overlays (run npm run build:overlays): ${String(error)}`);
    overlays = null;
  }
  return overlays;
}

export async function isPreview(request: Request): Promise<boolean> {
  return (await previewPerspective(request)) !== null;
}

async function readPreviewCookie(request: Request): Promise<Perspective | null> {
  if (!previewAvailable()) return null;
  const header = request.headers.get('Cookie');
  if (!header?.includes('__preview=')) return null;
  const value: unknown = await previewCookie().parse(header);
  return previewFromCookieValue(value, Date.now());
}

/** The perspective a verified cookie value grants at `now`: null once expired or malformed. */
export function previewFromCookieValue(value: unknown, now: number): Perspective | null {
  if (!value || typeof value !== 'object') return null;
  const { p, exp } = value as Partial<PreviewValue>;
  if (p !== 'drafts' && p !== 'published') return null;
  return typeof exp === 'number' && Number.isFinite(exp) && now < exp ? p : null;
}

export function secretMatches(candidate: string | null): boolean {
  const secret = env().previewSecret;
  if (!secret || !candidate || !previewAvailable()) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const enterPreviewCookie = (perspective: Perspective = 'drafts', now = Date.now()) =>
  previewCookie().serialize({ p: perspective, exp: now + PREVIEW_SECONDS * 1000 } satisfies PreviewValue);
export const exitPreviewCookie = () => previewCookie().serialize('', { maxAge: 0 });

/** The query parameter the Presentation tool puts its secret in (@sanity/preview-url-secret). */
export const STUDIO_SECRET_PARAM = 'sanity-preview-secret';
/** …and the perspective chosen in the Studio when it opened the page. */
export const STUDIO_PERSPECTIVE_PARAM = 'sanity-preview-perspective';

/**
 * The perspective a preview session follows for what the Studio's perspective switch sent:
 * "published" shows the published documents; "drafts", and anything else, drafts over
 * published. A release (the Studio sends a stack such as "rX,drafts" or ["rX", "drafts"])
 * is previewed as drafts: the site does not read release versions.
 */
export function studioPerspective(value: unknown): Perspective {
  return value === 'published' ? 'published' : 'drafts';
}

/** Checks a Presentation URL's secret against the Content Lake (HostedContentClient.validatePreviewUrl). */
export type StudioSecretCheck = (url: string) => Promise<{ isValid: boolean; redirectTo?: string }>;

export type StudioPreviewDecision =
  /** No Studio preview in this deployment (embedded world, or hosted without a read token). */
  | { status: 404 }
  /** Missing, wrong or expired secret. */
  | { status: 401 }
  /** The Content Lake could not be asked. */
  | { status: 503 }
  /** Valid: set the preview cookie and go to this same-site path. */
  | { status: 307; location: string };

/** What /api/preview-mode/enable answers, apart from the cookie and the body. */
export async function decideStudioPreview(
  url: string,
  check: StudioSecretCheck | null,
): Promise<StudioPreviewDecision> {
  if (!check) return { status: 404 };
  if (!new URL(url).searchParams.get(STUDIO_SECRET_PARAM)?.trim()) return { status: 401 };
  let result: Awaited<ReturnType<StudioSecretCheck>>;
  try {
    result = await check(url);
  } catch (error) {
    logger.error(`[preview] could not check the Studio's preview secret: ${String(error)}`);
    return { status: 503 };
  }
  if (!result.isValid) return { status: 401 };
  return { status: 307, location: safeReturnPath(result.redirectTo) ?? '/' };
}

/**
 * Who may show a page in a frame. Visitors' pages: only the site itself (clickjacking). A
 * preview page in the hosted world: also the Studio, whose Presentation tool shows the site
 * in an iframe (a Studio served under a path of the site is covered by 'self').
 */
export function framingHeaders(
  preview: boolean,
  content: { world: string; studioUrl?: string },
): Record<string, string> {
  if (!preview || content.world !== 'hosted') return { 'X-Frame-Options': 'SAMEORIGIN' };
  return { 'Content-Security-Policy': `frame-ancestors ${frameAncestorSources(preview, content).join(' ')}` };
}

/** The sources of `frame-ancestors` (the page's Content-Security-Policy carries them): see framingHeaders. */
export function frameAncestorSources(preview: boolean, content: { world: string; studioUrl?: string }): string[] {
  if (!preview || content.world !== 'hosted') return ["'self'"];
  const studio = content.studioUrl && /^https?:\/\//.test(content.studioUrl) ? new URL(content.studioUrl).origin : null;
  return studio ? ["'self'", studio] : ["'self'"];
}
