import { afterEach, describe, expect, it, vi } from 'vitest';
import { decideStudioPreview, framingHeaders, PREVIEW_SECONDS, previewFromCookieValue } from './preview.server';

const URL_WITH = (secret: string) =>
  `https://site.example/api/preview-mode/enable?sanity-preview-secret=${secret}&sanity-preview-pathname=/faq`;

describe('decideStudioPreview (/api/preview-mode/enable)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('404 where there is no Studio preview (no check: embedded world, or hosted without a read token)', async () => {
    expect(await decideStudioPreview(URL_WITH('s'), null)).toEqual({ status: 404 });
  });

  it('401 without asking the Content Lake when the secret is missing or blank', async () => {
    const check = vi.fn();
    expect(await decideStudioPreview('https://site.example/api/preview-mode/enable', check)).toEqual({ status: 401 });
    expect(await decideStudioPreview(URL_WITH('%20'), check)).toEqual({ status: 401 });
    expect(check).not.toHaveBeenCalled();
  });

  it('401 for a secret the Content Lake does not vouch for', async () => {
    expect(await decideStudioPreview(URL_WITH('wrong'), async () => ({ isValid: false }))).toEqual({ status: 401 });
  });

  it('307 to the same-site path the Studio asked for; home when none or an unsafe one', async () => {
    expect(
      await decideStudioPreview(URL_WITH('ok'), async () => ({
        isValid: true,
        redirectTo: '/faq?sanity-preview-perspective=drafts',
      })),
    ).toEqual({
      status: 307,
      location: '/faq?sanity-preview-perspective=drafts',
    });
    expect(await decideStudioPreview(URL_WITH('ok'), async () => ({ isValid: true }))).toEqual({
      status: 307,
      location: '/',
    });
    expect(
      await decideStudioPreview(URL_WITH('ok'), async () => ({ isValid: true, redirectTo: '//evil.example/' })),
    ).toEqual({ status: 307, location: '/' });
  });

  it('503 when the check fails (Content Lake unreachable)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await decideStudioPreview(URL_WITH('ok'), async () => Promise.reject(new Error('ECONNREFUSED')))).toEqual({
      status: 503,
    });
  });
});

describe('framingHeaders', () => {
  it('visitors and embedded-world previews: same-origin frames only', () => {
    expect(framingHeaders(false, { world: 'hosted', studioUrl: 'https://bawaba.sanity.studio' })).toEqual({
      'X-Frame-Options': 'SAMEORIGIN',
    });
    expect(framingHeaders(true, { world: 'embedded' })).toEqual({ 'X-Frame-Options': 'SAMEORIGIN' });
  });

  it("a hosted preview may be framed by the Studio's origin, nothing else", () => {
    expect(framingHeaders(true, { world: 'hosted', studioUrl: 'https://bawaba.sanity.studio/desk' })).toEqual({
      'Content-Security-Policy': "frame-ancestors 'self' https://bawaba.sanity.studio",
    });
    expect(framingHeaders(true, { world: 'hosted', studioUrl: '/studio' })).toEqual({
      'Content-Security-Policy': "frame-ancestors 'self'",
    });
  });
});

describe('previewFromCookieValue (a verified preview cookie)', () => {
  const now = Date.UTC(2026, 10, 23, 12);
  it('grants its perspective until the expiry written inside the signed value', () => {
    expect(previewFromCookieValue({ p: 'drafts', exp: now + 1000 }, now)).toBe('drafts');
    expect(previewFromCookieValue({ p: 'published', exp: now + PREVIEW_SECONDS * 1000 }, now)).toBe('published');
  });

  it('refuses an expired session, one without an expiry (the old format) and anything malformed', () => {
    expect(previewFromCookieValue({ p: 'drafts', exp: now }, now)).toBeNull();
    expect(previewFromCookieValue({ p: 'drafts', exp: now - 1 }, now)).toBeNull();
    expect(previewFromCookieValue('drafts', now)).toBeNull();
    expect(previewFromCookieValue({ p: 'drafts' }, now)).toBeNull();
    expect(previewFromCookieValue({ p: 'drafts', exp: 'never' }, now)).toBeNull();
    expect(previewFromCookieValue({ p: 'raw', exp: now + 1000 }, now)).toBeNull();
    expect(previewFromCookieValue(null, now)).toBeNull();
  });
});
