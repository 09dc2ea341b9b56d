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
    SESSION_SECRET: 'test-session-secret-0123456789abcdef',
    // Required by the hosted world; these tests never open it (previews keep nothing about a person).
    DATABASE_URL: 'postgres://unused@127.0.0.1:9/unused',
    PREVIEW_SECRET: undefined,
    SITE_URL: 'http://localhost:3000',
    ...extra,
  };
  delete globalThis.__contentClient;
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.resetModules();
  const route = await import('./preview-mode-enable');
  const perspectiveRoute = await import('./preview-perspective');
  const preview = await import('~/lib/preview.server');
  const { contentClient } = await import('~/sanity/client.server');
  const enable = (query: string) =>
    route.loader({
      request: new Request(`https://site.example/api/preview-mode/enable?${query}`),
      params: {},
      context: {},
    }) as Promise<Response>;
  const switchPerspective = (cookie: string | null, body: string, origin: string | null = 'https://site.example') =>
    perspectiveRoute.action({
      request: new Request('https://site.example/api/preview/perspective', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(cookie ? { Cookie: cookie } : {}),
          ...(origin ? { Origin: origin } : {}),
        },
        body,
      }),
      params: {},
      context: {},
    }) as Promise<Response>;
  /** The perspective a cookie (its name=value part) opens, or null. */
  const sessionOf = (cookie: string) =>
    preview.previewPerspective(new Request('https://site.example/', { headers: { Cookie: cookie } }));
  return { enable, switchPerspective, sessionOf, preview, contentClient };
}

const cookieOf = (res: Response) => (res.headers.get('Set-Cookie') ?? '').split(';')[0]!;

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
    expect(check).toMatchObject({
      authenticated: true,
      perspective: 'raw',
      resultSourceMap: null,
      tag: 'sanity.preview-url-secret',
    });
    // That cookie opens a preview session; a forged one does not.
    const value = cookie.split(';')[0];
    expect(await preview.isPreview(new Request('https://site.example/', { headers: { Cookie: value } }))).toBe(true);
    expect(
      await preview.isPreview(
        new Request('https://site.example/', { headers: { Cookie: '__preview=ImRyYWZ0cyI%3D.forged' } }),
      ),
    ).toBe(false);
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
    for (const query of [
      enableQuery('not-the-secret'),
      enableQuery(EXPIRED),
      enableQuery(''),
      'sanity-preview-pathname=/',
    ]) {
      const res = await enable(query);
      expect(res.status, query).toBe(401);
      expect(res.headers.get('Set-Cookie'), query).toBeNull();
      expect(res.headers.get('Content-Type')).toMatch(/^text\/plain/);
      expect(await res.text()).toMatch(/preview secret/);
    }
  });

  it("over HTTPS the cookie survives the Studio's cross-site iframe: SameSite=None; Secure", async () => {
    const { enable } = await hosted({ NODE_ENV: 'production', SITE_URL: 'https://www.example.com' });
    const cookie = (await enable(enableQuery(SECRET))).headers.get('Set-Cookie') ?? '';
    expect(cookie).toMatch(/SameSite=None/i);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/HttpOnly/i);
  });

  it('without a read token there is no Studio preview (404), and a preview cookie is ignored', async () => {
    const { enable, preview } = await hosted({
      SANITY_READ_TOKEN: undefined,
      PREVIEW_SECRET: 'a-preview-secret-long-enough',
    });
    expect((await enable(enableQuery(SECRET))).status).toBe(404);
    expect(preview.previewAvailable()).toBe(false);
    expect(preview.secretMatches('a-preview-secret-long-enough')).toBe(false);
  });

  it("the embedded world with a running lake checks the secret in the lake's store (no PREVIEW_SECRET)", async () => {
    const { enable, preview } = await hosted();
    globalThis.__contentClient = { world: 'embedded' } as never;
    const asked: string[] = [];
    preview.allowEmbeddedStudioPreview(async (url) => {
      asked.push(url);
      return new URL(url).searchParams.get('sanity-preview-secret') === SECRET
        ? { isValid: true, redirectTo: '/ar/faq' }
        : { isValid: false };
    });
    try {
      const res = await enable(enableQuery(SECRET, '/ar/faq'));
      expect(res.status).toBe(307);
      expect(res.headers.get('Location')).toBe('/ar/faq');
      expect(res.headers.get('Set-Cookie')).toMatch(/^__preview=/);
      expect((await enable(enableQuery('not-the-secret'))).status).toBe(401);
      expect(asked).toHaveLength(2);
    } finally {
      delete globalThis.__embeddedStudioCheck;
    }
  });

  it('the embedded world answers 404', async () => {
    const { enable } = await hosted();
    globalThis.__contentClient = { world: 'embedded' } as never;
    const res = await enable(enableQuery(SECRET));
    expect(res.status).toBe(404);
    expect(res.headers.get('Set-Cookie')).toBeNull();
  });
});

describe("the Studio's perspective switch", () => {
  it('the session starts in the perspective the Studio names: published, or drafts for drafts, a release or nothing', async () => {
    const { enable, sessionOf } = await hosted();
    const start = async (perspective?: string) =>
      sessionOf(
        cookieOf(
          await enable(
            `${enableQuery(SECRET)}${perspective ? `&sanity-preview-perspective=${encodeURIComponent(perspective)}` : ''}`,
          ),
        ),
      );
    expect(await start('published')).toBe('published');
    expect(await start('drafts')).toBe('drafts');
    expect(await start('rSpringLaunch,drafts')).toBe('drafts');
    expect(await start()).toBe('drafts');
  });

  it('/api/preview/perspective re-signs the session with the chosen perspective', async () => {
    const { enable, switchPerspective, sessionOf } = await hosted();
    const drafts = cookieOf(await enable(enableQuery(SECRET)));
    const res = await switchPerspective(drafts, JSON.stringify({ perspective: 'published' }));
    expect(res.status).toBe(204);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const published = cookieOf(res);
    expect(await sessionOf(published)).toBe('published');
    // Back to drafts, as the Studio sends it for a release too.
    expect(
      await sessionOf(
        cookieOf(await switchPerspective(published, JSON.stringify({ perspective: ['rSpringLaunch', 'drafts'] }))),
      ),
    ).toBe('drafts');
  });

  it('refuses another site, a visitor without a session and a malformed body, and changes nothing', async () => {
    const { enable, switchPerspective } = await hosted();
    const drafts = cookieOf(await enable(enableQuery(SECRET)));
    const body = JSON.stringify({ perspective: 'published' });
    const cases: [Promise<Response>, number][] = [
      [switchPerspective(drafts, body, 'https://evil.example'), 403],
      [switchPerspective(drafts, body, null), 403],
      [switchPerspective(null, body), 401],
      [switchPerspective('__preview=ImRyYWZ0cyI%3D.forged', body), 401],
      [switchPerspective(drafts, 'not json'), 400],
      [switchPerspective(drafts, JSON.stringify({ other: 1 })), 400],
    ];
    for (const [response, status] of cases) {
      const res = await response;
      expect(res.status).toBe(status);
      expect(res.headers.get('Set-Cookie')).toBeNull();
    }
  });

  it('a preview in the published perspective still reads with the token and stega (clickable), never from the CDN', async () => {
    const { contentClient } = await hosted();
    const query = '*[_type == "service"][0]{ _id, "title": title.en }';
    const result = await contentClient().fetch<{ title: string }>(
      query,
      {},
      { perspective: 'published', preview: true },
    );
    expect(lake.requests.at(-1)).toMatchObject({
      perspective: 'published',
      authenticated: true,
      resultSourceMap: 'withKeyArraySelector',
    });
    expect(result.title).not.toBe('Market Entry');
    expect(stegaClean(result.title)).toBe('Market Entry');
  });
});

describe('hosted client reads (fake Content Lake)', () => {
  it('encodes stega only into draft reads (token, source map); published reads carry neither', async () => {
    const { contentClient } = await hosted();
    const client = contentClient();
    const query = '*[_type == "service"][0]{ _id, "title": title.en }';
    expect(await client.fetch(query, {}, { perspective: 'published' })).toEqual({
      _id: 'service-a',
      title: 'Market Entry',
    });
    expect(lake.requests.at(-1)).toMatchObject({
      perspective: 'published',
      authenticated: false,
      resultSourceMap: null,
    });
    const draft = await client.fetch<{ _id: string; title: string }>(query, {}, { perspective: 'drafts' });
    expect(lake.requests.at(-1)).toMatchObject({
      perspective: 'drafts',
      authenticated: true,
      resultSourceMap: 'withKeyArraySelector',
    });
    expect(draft._id).toBe('service-a');
    expect(draft.title).not.toBe('Market Entry (draft)');
    expect(stegaClean(draft.title)).toBe('Market Entry (draft)');
  });
});
