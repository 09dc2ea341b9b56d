import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { RemixServer, Scripts } from '@remix-run/react';
import type { EntryContext } from '@remix-run/server-runtime';
import { Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { readHandoffData, renderDocument } from './entry.server';

const requireCjs = createRequire(import.meta.url);
const { createStaticHandler } = requireCjs('react-router-dom/server.js') as typeof import('react-router-dom/server');
// jsdom parses HTML as a browser does (parse5, the WHATWG algorithm); it ships no types of its own.
const { JSDOM } = requireCjs('jsdom') as { JSDOM: new (html: string) => { window: { document: Document } } };

// Importing the entry starts the server's stores: on a data folder of this test's own, never the
// project's data/ (which a running server may hold).
const dataDir = vi.hoisted(() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { mkdtempSync } = require('node:fs') as typeof import('node:fs');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { tmpdir } = require('node:os') as typeof import('node:os');
  const dir = mkdtempSync(`${tmpdir()}/entry-`);
  process.env.CONTENT_DATA_DIR = dir;
  process.env.PORTAL_JOBS_INTERVAL_SECONDS = '0';
  return dir;
});
afterAll(async () => {
  await (await globalThis.__database)?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function Broken(): never {
  throw new Error('a widget that fails on the server');
}

describe('renderDocument', () => {
  it('renders the whole page as one HTML document', () => {
    const page = renderDocument(
      <html lang="ar" dir="rtl">
        <head>
          <link rel="modulepreload" href="/build/root-X.js" nonce="N" />
        </head>
        <body>
          <p>مرحباً بكم في الإمارات</p>
        </body>
      </html>,
    );
    expect(page.complete).toBe(true);
    expect(page.html).toBe(
      '<!DOCTYPE html><html lang="ar" dir="rtl"><head><link rel="modulepreload" href="/build/root-X.js" nonce="N"/></head>' +
        '<body><p>مرحباً بكم في الإمارات</p></body></html>',
    );
  });

  it('says the page is incomplete when a part of it could not be rendered (the entry answers 500, not stored)', () => {
    const page = renderDocument(
      <div>
        <Suspense fallback={null}>
          <Broken />
        </Suspense>
        <p>the rest</p>
      </div>,
    );
    expect(page.html).toContain('the rest');
    expect(page.complete).toBe(false);
  });

  it('does not take escaped content that looks like that marker for a failure', () => {
    expect(renderDocument(<p>{'<!--$!-->'}</p>).complete).toBe(true);
  });
});

/**
 * A document as the entry renders it: <RemixServer> with a root route that renders the whole
 * <html> (with <Scripts>, which is what makes Remix write its data scripts) and a single-fetch
 * handoff stream carrying `data`.
 */
async function remixDocument(data: string) {
  const route = (id: string, extra: object) => ({
    id,
    module: `/build/${id}.js`,
    imports: [],
    hasAction: false,
    hasLoader: false,
    hasClientAction: false,
    hasClientLoader: false,
    hasErrorBoundary: false,
    ...extra,
  });
  const manifest = {
    version: 'test',
    url: '/build/manifest-M.js',
    entry: { module: '/build/entry.client-E.js', imports: [] },
    routes: {
      root: route('root', { path: '' }),
      'routes/page': route('routes/page', { parentId: 'root', index: true }),
    },
  };
  const Root = () => (
    <html lang="ar" dir="rtl">
      <head>
        <meta charSet="utf-8" />
        <title>بوابة</title>
      </head>
      <body>
        <main>
          <p>احجز استشارة</p>
        </main>
        <Scripts nonce="N" />
      </body>
    </html>
  );
  const handler = createStaticHandler([{ id: 'root', path: '', children: [{ id: 'routes/page', index: true }] }]);
  const staticHandlerContext = await handler.query(new Request('http://localhost/'));
  if (staticHandlerContext instanceof Response) throw new Error('unexpected response');
  const bytes = new TextEncoder().encode(data);
  const context = {
    manifest,
    routeModules: { root: { default: Root }, 'routes/page': { default: () => null } },
    staticHandlerContext,
    serverHandoffString: '{}',
    serverHandoffStream: new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    }),
    future: { v3_singleFetch: true, v3_lazyRouteDiscovery: true, v3_relativeSplatPath: true },
    isSpaMode: false,
    renderMeta: {},
  } as unknown as EntryContext;
  await readHandoffData(context);
  return <RemixServer context={context} url="http://localhost/" nonce="N" />;
}

/** The elements a browser builds from `html` (comments left out: they are not part of the page). */
function parsedElements(html: string) {
  const { document } = new JSDOM(html).window;
  const walker = document.createTreeWalker(document, 128 /* NodeFilter.SHOW_COMMENT */);
  const comments: Node[] = [];
  while (walker.nextNode()) comments.push(walker.currentNode);
  for (const comment of comments) comment.parentNode!.removeChild(comment);
  return { document, markup: document.documentElement.outerHTML };
}

describe("renderDocument with Remix's data scripts", () => {
  // The data holds what could end the document early if it were written raw.
  const data = '[{"title":"</html></body><script>x</script> مرحبا"}]';

  it('writes them inside <body>, before its end, so nothing follows </html> (the HTML checker stops on a script there)', async () => {
    const { html, complete } = renderDocument(await remixDocument(data));
    expect(complete).toBe(true);
    expect(html.indexOf('</html>')).toBe(html.length - '</html>'.length);
    expect(
      html.endsWith('window.__remixContext.streamController.close();</script><!--/$--><!--/$--></body></html>'),
    ).toBe(true);
    // Each of Remix's scripts once, in their order: its handoff (from <Scripts>), the data, the end.
    const enqueue = html.indexOf('window.__remixContext.streamController.enqueue(');
    expect(html.indexOf('<p>احجز استشارة</p>')).toBeLessThan(html.indexOf('window.__remixContext = '));
    expect(html.indexOf('window.__remixContext = ')).toBeLessThan(enqueue);
    expect(enqueue).toBeLessThan(html.indexOf('streamController.close()'));
    expect(html.match(/streamController\.enqueue\(/g)).toHaveLength(1);
    expect(html).toContain('\\u003c/html\\u003e'); // the data's own </html>, escaped by Remix
  });

  it('gives a browser the same elements as before, the data scripts last in <body>', async () => {
    const before = parsedElements('<!DOCTYPE html>' + renderToString(await remixDocument(data)));
    const after = parsedElements(renderDocument(await remixDocument(data)).html);
    expect(after.markup).toBe(before.markup);
    const scripts = [...after.document.body.children].slice(-2).map((script) => script.textContent);
    expect(scripts[0]).toMatch(/^window\.__remixContext\.streamController\.enqueue\(/);
    expect(scripts[1]).toBe('window.__remixContext.streamController.close();');
  });
});

describe('readHandoffData', () => {
  it("reads Remix's whole data stream and hands it over as one piece then the end (an Arabic letter split across pieces stays whole)", async () => {
    const bytes = new TextEncoder().encode('[{"title":"مرحبا"}]');
    const cut = bytes.indexOf(0xd8) + 1; // inside the first Arabic letter's two bytes
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, cut));
        controller.enqueue(bytes.subarray(cut));
        controller.close();
      },
    });
    const context = {
      serverHandoffStream: stream,
      renderMeta: {} as NonNullable<Parameters<typeof readHandoffData>[0]['renderMeta']>,
    };
    await readHandoffData(context);
    const cache = context.renderMeta.streamCache!;
    expect(cache[0].result).toEqual({ done: false, value: '[{"title":"مرحبا"}]' });
    expect(cache[1].result).toEqual({ done: true, value: '' });
    await expect(cache[0]).resolves.toBeUndefined();
  });
});
