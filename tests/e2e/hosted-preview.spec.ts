import { createServer } from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { build } from 'esbuild';
import { EXPIRED_STUDIO_PREVIEW_SECRET, hostedURL, STUDIO_PREVIEW_SECRET, studioURL } from '../../playwright.config';

// The hosted world (third server in playwright.config.ts) against a fake Content Lake that
// holds the bundled dataset and the preview secrets the Studio's Presentation tool would store.
test.use({ baseURL: hostedURL });

const DRAFT_POST = '/blog/first-90-days-after-your-uae-licence';
/** The visual editing overlays' bundle, live mode included (app/preview/overlays.browser.tsx, built apart: ADR 0024). */
const OVERLAYS_BUNDLE = /^\/overlays\/overlays-[\w-]+\.js$/;
/** Any chunk of the app's own build that would carry the overlays (as it did before they were built apart). */
const APP_VISUAL_EDITING_CHUNK = /^\/build\/.*(?:VisualEditing|enableLiveMode)[^/]*\.js$/;
const enable = (secret: string, pathname: string) =>
  `/api/preview-mode/enable?${new URLSearchParams({ 'sanity-preview-secret': secret, 'sanity-preview-pathname': pathname })}`;

/** A 1×1 transparent PNG: the stand-in for every image of Sanity's CDN, unreachable offline. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** Records requests for the overlays' bundle (and any app chunk carrying them), page errors and CSP violations, in every frame. */
async function watch(page: Page) {
  const chunks: string[] = [];
  const appChunks: string[] = [];
  const errors: string[] = [];
  await page.route(/^https:\/\/cdn\.sanity\.io\//, (route) => route.fulfill({ body: PIXEL, contentType: 'image/png' }));
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (OVERLAYS_BUNDLE.test(pathname)) chunks.push(request.url());
    if (APP_VISUAL_EDITING_CHUNK.test(pathname)) appChunks.push(request.url());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) errors.push(message.text());
  });
  return { chunks, appChunks, errors };
}

test.describe('hosted world: preview through the Studio (Presentation tool)', () => {
  test('visitors never download visual editing; a Studio preview session reads drafts and loads it', async ({
    page,
    context,
  }) => {
    const { chunks, appChunks, errors } = await watch(page);

    // A visitor: published content, no banner, and no visual-editing code, even after navigating.
    const visit = await page.goto('/');
    expect(visit?.headers()['x-frame-options']).toBe('SAMEORIGIN');
    await expect(page.getByTestId('preview-banner')).toHaveCount(0);
    await page.goto('/services');
    await page.waitForLoadState('networkidle');
    expect((await page.request.get(DRAFT_POST)).status()).toBe(404);
    expect(chunks).toEqual([]);
    // Nor is the bundle's address in a visitor's page.
    expect(await (await page.request.get('/')).text()).not.toContain('/overlays/');

    // The Presentation tool opens the enable URL with its secret and the page to show.
    const entered = await page.goto(enable(STUDIO_PREVIEW_SECRET, DRAFT_POST));
    expect(entered?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe(DRAFT_POST);
    expect(entered?.headers()['cache-control']).toBe('private, no-store');
    expect(entered?.headers()['x-robots-tag']).toBe('noindex');
    // The Studio (SANITY_STUDIO_URL) may show the preview in its iframe; no one else may.
    expect(entered?.headers()['x-frame-options']).toBeUndefined();
    expect(entered?.headers()['content-security-policy']).toContain(`; frame-ancestors 'self' ${studioURL}`);
    await expect(page.getByTestId('preview-banner')).toBeVisible();
    const cookie = (await context.cookies()).find((c) => c.name === '__preview');
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'None' });
    // The overlays (live mode included) come as one bundle of their own, once, by the URL the server
    // gave the session; none of the app's own chunks carries them.
    await expect.poll(() => chunks.length).toBe(1);
    const bundle = await page.request.get(chunks[0]!);
    expect(bundle.headers()['content-type']).toMatch(/javascript/);
    // Named by its content, so an editor's browser keeps it for good, as the build's own files.
    expect(bundle.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    // A module the page's trusted script imports: the CSP's 'strict-dynamic' lets it run.
    expect(entered?.headers()['content-security-policy']).toContain("'strict-dynamic'");
    await page.goto('/services');
    await expect(page.getByTestId('preview-banner')).toBeVisible();
    expect(appChunks).toEqual([]);

    // Leaving preview ends it (the SameSite=None cookie is cleared like the Lax one).
    await page.getByRole('button', { name: 'Exit preview' }).click();
    await expect(page.getByTestId('preview-banner')).toHaveCount(0);
    expect((await context.cookies()).find((c) => c.name === '__preview')).toBeUndefined();
    expect((await page.request.get(DRAFT_POST)).status()).toBe(404);
    expect(errors).toEqual([]);
  });

  test('stega marks the text of a preview page, and changes neither what it says nor where it links', async ({
    page,
  }) => {
    // Eight full page loads with a walk over every attribute: more than the default 30 s on a busy 2-core machine.
    test.setTimeout(90_000);
    await watch(page);
    // The fake Lake returns a Content Source Map, so the drafts client encodes as it would in the Studio.
    const read = async (path: string) => {
      await page.goto(path);
      return page.evaluate(() => {
        document.querySelector('[data-testid="preview-banner"]')?.remove();
        // Images come from Sanity's CDN, unreachable here: whether a broken image's alt text is
        // rendered yet depends on the network, not on stega. Compare the text alone.
        document.querySelectorAll('img').forEach((img) => img.remove());
        const invisible = /[\u200B-\u200D\uFEFF]/;
        const text = document.body.innerText;
        const attributes = [...document.querySelectorAll('*')].flatMap((el) =>
          [...el.attributes]
            .filter((a) => invisible.test(a.value) && !['alt', 'aria-label', 'title', 'content'].includes(a.name))
            .map((a) => `<${el.tagName.toLowerCase()} ${a.name}="${a.value.replace(/[\u200B-\u200D\uFEFF]/g, '')}">`),
        );
        return { text, attributes, encoded: /[\u200B-\u200D\uFEFF]{4,}/.test(text) };
      });
    };
    const drafts = (text: string) =>
      text
        .replace(/UAE Market Entry Strategy/g, 'Market Entry')
        .replace(/استراتيجية دخول السوق الإماراتي/g, 'دخول السوق');
    // Home (hero highlight, claims), Arabic, anchors and ids (services), FAQ; the footer (offices) is on all.
    const pages = ['/', '/ar', '/services', '/faq'];
    const published: Record<string, string> = {};
    for (const path of pages) {
      const visitor = await read(path);
      expect(visitor.encoded, path).toBe(false);
      published[path] = visitor.text;
    }
    await page.goto(enable(STUDIO_PREVIEW_SECRET, '/'));
    await expect(page.getByTestId('preview-banner')).toBeVisible();
    for (const path of pages) {
      const preview = await read(path);
      expect(preview.encoded, `${path}: text carries edit links`).toBe(true);
      expect(preview.attributes, `${path}: identifiers stay clean`).toEqual([]);
      expect(
        drafts(preview.text.replace(/[\u200B-\u200D\uFEFF]/g, '')),
        `${path}: same text as published, but for the drafts`,
      ).toBe(published[path]);
    }
  });

  test('a wrong or expired Studio secret gets 401 and no cookie', async ({ page, context }) => {
    for (const secret of ['not-the-secret', EXPIRED_STUDIO_PREVIEW_SECRET]) {
      const res = await page.request.get(enable(secret, '/'), { maxRedirects: 0 });
      expect(res.status(), secret).toBe(401);
      expect(res.headers()['set-cookie'], secret).toBeUndefined();
    }
    expect((await context.cookies()).find((c) => c.name === '__preview')).toBeUndefined();
    // The embedded world's link needs PREVIEW_SECRET, which this server does not set.
    expect((await page.request.get('/api/preview?secret=anything&redirect=/', { maxRedirects: 0 })).status()).toBe(401);
  });

  test("the Studio's Presentation tool: its perspective switch (Published / Drafts) changes what the preview shows, a click on the page's text names its field, and the page and the tool follow each other's navigation", async ({
    page,
  }) => {
    const { errors } = await watch(page);
    // A stand-in for the Studio's Presentation tool, served on the Studio's origin: it frames
    // the preview and talks to it over the channel (@sanity/comlink, "presentation" to
    // "loaders") on which the real Studio sends its perspective.
    const script = await fakePresentationTool(new URL(hostedURL).origin);
    const src = `${hostedURL}${enable(STUDIO_PREVIEW_SECRET, '/services')}&sanity-preview-perspective=drafts`;
    const html = `<!doctype html><title>Presentation</title><iframe src="${src}" style="width:1200px;height:700px;border:0"></iframe><script>${script}</script>`;
    const studio = createServer((_, res) =>
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html),
    );
    const { port, hostname } = new URL(studioURL);
    await new Promise<void>((resolve) => studio.listen(Number(port), hostname, resolve));
    const sendPerspective = (perspective: unknown) =>
      page.evaluate((p) => (window as unknown as { perspective: (p: unknown) => void }).perspective(p), perspective);
    try {
      await page.goto(`${studioURL}/presentation`);
      const frame = page.frameLocator('iframe');
      const banner = frame.getByTestId('preview-banner');
      const firstService = frame.getByTestId('service-section').first().locator('h2');
      const visible = async () => (await firstService.innerText()).replace(/[\u200B-\u200D\uFEFF]/g, '');

      await expect(banner).toHaveAttribute('data-perspective', 'drafts');
      await expect.poll(visible).toBe('UAE Market Entry Strategy');
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { loaders: string }).loaders))
        .toBe('connected');

      // Published: the banner says so, and the page shows the published title, still stega-encoded (clickable).
      await sendPerspective('published');
      await expect(banner).toHaveAttribute('data-perspective', 'published');
      await expect(banner).toContainText('published content, as visitors see it');
      await expect.poll(visible).toBe('Market Entry');
      expect(await firstService.innerText()).toMatch(/[\u200B-\u200D\uFEFF]{4,}/);

      // A release is previewed as drafts.
      await sendPerspective(['rSpringLaunch', 'drafts']);
      await expect(banner).toHaveAttribute('data-perspective', 'drafts');
      await expect.poll(visible).toBe('UAE Market Entry Strategy');

      // The overlays: connected to the tool, a click on stega-encoded text sends the tool the
      // document and field it comes from (the real Studio opens that field).
      const tool = <T>(name: string) => page.evaluate((n) => (window as unknown as Record<string, T>)[n], name);
      await expect.poll(() => tool<string>('overlays')).toBe('connected');
      await firstService.click();
      await expect
        .poll(() => tool<{ id?: string; path?: string }[]>('focused'))
        .toContainEqual(expect.objectContaining({ id: expect.any(String), path: expect.stringMatching(/title/) }));
      // The tool's URL bar follows the page ...
      await expect
        .poll(async () => (await tool<{ url: string }[]>('navigated')).map((n) => new URL(n.url, hostedURL).pathname))
        .toContain('/services');
      // ... and the tool navigates the page (Remix's navigation: the session, the banner stay).
      await page.evaluate(() => (window as unknown as { navigate: (url: string) => void }).navigate('/faq'));
      await expect.poll(() => new URL(page.frames()[1]!.url()).pathname).toBe('/faq');
      await expect(frame.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(banner).toBeVisible();
      await expect
        .poll(async () => (await tool<{ url: string }[]>('navigated')).map((n) => new URL(n.url, hostedURL).pathname))
        .toContain('/faq');
      // The tool's reload runs the page's loaders again (Remix's revalidation), and the page says when it is done.
      const loads: string[] = [];
      page.on('request', (r) => void loads.push(new URL(r.url()).pathname));
      await page.evaluate(() => (window as unknown as { refresh: () => void }).refresh());
      // (Single fetch: the loaders' data of /faq is /faq.data.)
      await expect.poll(() => loads).toContain('/faq.data');
      await expect.poll(() => tool<number>('refreshed')).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    } finally {
      await new Promise((resolve) => studio.close(resolve));
    }
  });
});

/** The Studio's end of the loaders' and overlays' channels, bundled for the browser (window.perspective(p) sends p, window.navigate(url) moves the page, window.refresh() reloads it). */
async function fakePresentationTool(siteOrigin: string) {
  const result = await build({
    stdin: {
      contents: `
        import { createConnectionMachine, createController } from '@sanity/comlink';
        import { createCompatibilityActors } from '@sanity/presentation-comlink';
        const controller = createController({ targetOrigin: ${JSON.stringify(siteOrigin)} });
        const frame = document.querySelector('iframe');
        controller.addTarget(frame.contentWindow);
        // As the Studio does: the loaders speak the older message format through these actors.
        const channel = controller.createChannel(
          { name: 'presentation', connectTo: 'loaders', heartbeat: true },
          createConnectionMachine().provide({ actors: createCompatibilityActors() }),
        );
        window.loaders = 'idle';
        channel.onStatus((event) => { window.loaders = event.status; });
        channel.start();
        window.perspective = (perspective) => channel.post('loader/perspective', { projectId: 'fake', dataset: 'production', perspective });
        // The overlays' channel, as the Studio opens it: what a click focuses, where the page went.
        const overlays = controller.createChannel(
          { name: 'presentation', connectTo: 'visual-editing', heartbeat: true },
          createConnectionMachine().provide({ actors: createCompatibilityActors() }),
        );
        window.overlays = 'idle';
        window.focused = [];
        window.navigated = [];
        overlays.onStatus((event) => { window.overlays = event.status; });
        overlays.on('visual-editing/focus', (data) => { window.focused.push(data); });
        overlays.on('visual-editing/navigate', (data) => { window.navigated.push(data); });
        overlays.start();
        window.navigate = (url) => overlays.post('presentation/navigate', { type: 'push', url });
        window.refreshed = 0;
        overlays.on('visual-editing/refreshed', () => { window.refreshed += 1; });
        window.refresh = () => overlays.post('presentation/refresh', { source: 'manual', livePreviewEnabled: false });
      `,
      resolveDir: process.cwd(),
    },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
  });
  return result.outputFiles[0]!.text.replace(/<\/script/gi, '<\\/script');
}
