// @vitest-environment node
/**
 * The hosted world's Studio preview entry, end to end on the server: the route, the real
 * @sanity/client and @sanity/preview-url-secret, against a fake Content Lake on loopback
 * (tests/fake-lake.mjs) that holds the secret documents the Presentation tool would store.
 */
import { stegaClean } from '@sanity/client/stega';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { previewSecretDocument, startFakeLake } from '../../tests/fake-lake.mjs';

type Lake = Awaited<ReturnType<typeof startFakeLake>>;

const TOKEN = 'fake-read-token';
const SECRET = 'studio-secret-0123456789abcdef';
const EXPIRED = 'studio-secret-expired-00000000';

let lake: Lake;
const saved = { ...process.env };

beforeAll(async () => {
  lake = await startFakeLake({
    token: TOKEN,
    documents: [
      previewSecretDocument({ secret: SECRET }),
      previewSecretDocument({ secret: EXPIRED, updatedAt: new Date(Date.now() - 2 * 60 * 60 * 1000) }),
      { _id: 'service-a', _type: 'service', title: { en: 'Market Entry' } },
      { _id: 'drafts.service-a', _type: 'service', title: { en: 'Market Entry (draft)' } },
    ],
  });
});
afterAll(() => lake.close());
afterEach(() => {
  vi.restoreAllMocks();
  process.env = { ...saved };
  delete globalThis.__contentClient;
});

/** Fresh modules (env, cookie and client are read once per process) under the given environment. */
async function hosted(extra: Record<string, string | undefined> = {}) {
  process.env = {
    ...saved,
    SANITY_PROJECT_ID: 'fake',
    SANITY_DATASET: 'production',
    SANITY_API_HOST: lake.url,
    SANITY_READ_TOKEN: TOKEN,
    SESSION_SECRET: 'test-session-secret',
    PREVIEW_SECRET: undefined,
    SITE_URL: 'http://localhost:3000',
    ...extra,
  };
  delete globalThis.__contentClient;
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.resetModules();
  const route = await import('./preview-mode-enable');
  const preview = await import('~/lib/preview.server');
  const { contentClient } = await import('~/sanity/client.server');
  const enable = (query: string) =>
    route.loader({ request: new Request(`https://site.example/api/preview-mode/enable?${query}`), params: {}, context: {} }) as Promise<Response>;
  return { enable, preview, contentClient };
}

const enableQuery = (secret: string, pathname = '/services') =>
  new URLSearchParams({ 'sanity-preview-secret': secret, 'sanity-preview-pathname': pathname }).toString();

describe('/api/preview-mode/enable (hosted world, fake Content Lake)', () => {
  it('a valid Studio secret sets the signed preview cookie and redirects to the page, without PREVIEW_SECRET', async () => {
    const { enable, preview } = await hosted();
    const res = await enable(enableQuery(SECRET, '/ar/services?x=1#market-entry'));
    expect(res.status).toBe(307);
    expect(res.headers.get('Location')).toBe('/ar/services?x=1#market-entry');
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const cookie = res.headers.get('Set-Cookie') ?? '';
    expect(cookie).toMatch(/^__preview=[^;]+;/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    // The secret was looked up with the read token, raw perspective, no source map (no stega).
    const check = lake.requests.at(-1)!;
    expect(check).toMatchObject({ authenticated: true, perspective: 'raw', resultSourceMap: null, tag: 'sanity.preview-url-secret' });
    // That cookie opens a preview session; a forged one does not.
    const value = cookie.split(';')[0];
    expect(await preview.isPreview(new Request('https://site.example/', { headers: { Cookie: value } }))).toBe(true);
    expect(await preview.isPreview(new Request('https://site.example/', { headers: { Cookie: '__preview=ImRyYWZ0cyI%3D.forged' } }))).toBe(false);
  });

  it('keeps the redirect on the site', async () => {
    const { enable } = await hosted();
    for (const pathname of ['https://evil.example/x', '//evil.example/x', '/\\evil.example']) {
      const res = await enable(enableQuery(SECRET, pathname));
      expect(res.status).toBe(307);
      const location = res.headers.get('Location')!;
      expect(location.startsWith('/') && !location.startsWith('//'), location).toBe(true);
    }
    const home = await enable(new URLSearchParams({ 'sanity-preview-secret': SECRET }).toString());
    expect(home.headers.get('Location')).toBe('/');
  });

  it('a wrong, expired or missing secret gets 401 and no cookie', async () => {
    const { enable } = await hosted();
    for (const query of [enableQuery('not-the-secret'), enableQuery(EXPIRED), enableQuery(''), 'sanity-preview-pathname=/']) {
      const res = await enable(query);
      expect(res.status, query).toBe(401);
      expect(res.headers.get('Set-Cookie'), query).toBeNull();
      expect(res.headers.get('Content-Type')).toMatch(/^text\/plain/);
      expect(await res.text()).toMatch(/preview secret/);
    }
  });

  it('over HTTPS the cookie survives the Studio\'s cross-site iframe: SameSite=None; Secure', async () => {
    const { enable } = await hosted({ NODE_ENV: 'production', SITE_URL: 'https://www.example.com' });
    const cookie = (await enable(enableQuery(SECRET))).headers.get('Set-Cookie') ?? '';
    expect(cookie).toMatch(/SameSite=None/i);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/HttpOnly/i);
  });

  it('without a read token there is no Studio preview (404), and a preview cookie is ignored', async () => {
    const { enable, preview } = await hosted({ SANITY_READ_TOKEN: undefined, PREVIEW_SECRET: 'a-preview-secret-long-enough' });
    expect((await enable(enableQuery(SECRET))).status).toBe(404);
    expect(preview.previewAvailable()).toBe(false);
    expect(preview.secretMatches('a-preview-secret-long-enough')).toBe(false);
  });

  it('the embedded world answers 404', async () => {
    const { enable } = await hosted();
    globalThis.__contentClient = { world: 'embedded' } as never;
    const res = await enable(enableQuery(SECRET));
    expect(res.status).toBe(404);
    expect(res.headers.get('Set-Cookie')).toBeNull();
  });
});

describe('hosted client reads (fake Content Lake)', () => {
  it('encodes stega only into draft reads (token, source map); published reads carry neither', async () => {
    const { contentClient } = await hosted();
    const client = contentClient();
    const query = '*[_type == "service"][0]{ _id, "title": title.en }';
    expect(await client.fetch(query, {}, { perspective: 'published' })).toEqual({ _id: 'service-a', title: 'Market Entry' });
    expect(lake.requests.at(-1)).toMatchObject({ perspective: 'published', authenticated: false, resultSourceMap: null });
    const draft = await client.fetch<{ _id: string; title: string }>(query, {}, { perspective: 'drafts' });
    expect(lake.requests.at(-1)).toMatchObject({ perspective: 'drafts', authenticated: true, resultSourceMap: 'withKeyArraySelector' });
    expect(draft._id).toBe('service-a');
    expect(draft.title).not.toBe('Market Entry (draft)');
    expect(stegaClean(draft.title)).toBe('Market Entry (draft)');
  });
});
