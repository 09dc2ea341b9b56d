// The page's scripts start as soon as the browser reads them (issue 29, item 2; ADR 0022): Remix's
// own <Scripts>, unpatched, lists every module the page needs as <link rel="modulepreload"> tags,
// which the browser's preload scanner fetches while it is still reading the HTML, and its module
// script imports the routes statically and then the entry, which hydrates. Nothing in it waits for
// the load event, a paint or a timer (ADR 0018's patched script did; this fails on it).
// tests/e2e/layout.spec.ts checks the timing in Chromium.
import { createRequire } from 'node:module';
import { RemixServer, Scripts } from '@remix-run/react';
import type { EntryContext } from '@remix-run/server-runtime';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const { createStaticHandler } = require('react-router-dom/server.js') as typeof import('react-router-dom/server');

const route = (id: string, module: string, imports: string[], extra: object) => ({
  id,
  module,
  imports,
  hasAction: false,
  hasLoader: false,
  hasClientAction: false,
  hasClientLoader: false,
  hasErrorBoundary: false,
  ...extra,
});

/** A page of two routes rendered as the server renders a document (static router, Remix context). */
async function renderScripts() {
  const manifest = {
    version: 'test',
    url: '/build/manifest-M.js',
    entry: {
      module: '/build/entry.client-E.js',
      imports: ['/build/_shared/chunk-REACT.js', '/build/_shared/chunk-ROUTER.js'],
    },
    routes: {
      root: route('root', '/build/root-R.js', ['/build/_shared/chunk-ROUTER.js', '/build/_shared/chunk-SHELL.js'], {
        path: '',
      }),
      'routes/page': route('routes/page', '/build/routes/page-P.js', ['/build/_shared/chunk-PAGE.js'], {
        parentId: 'root',
        index: true,
      }),
    },
  };
  const handler = createStaticHandler([{ id: 'root', path: '', children: [{ id: 'routes/page', index: true }] }]);
  const staticHandlerContext = await handler.query(new Request('http://localhost/'));
  if (staticHandlerContext instanceof Response) throw new Error('unexpected response');
  const context = {
    manifest,
    routeModules: {
      root: { default: () => <Scripts nonce="n0nce-of-this-page" /> },
      'routes/page': { default: () => null },
    },
    staticHandlerContext,
    serverHandoffString: '{}',
    future: {
      v3_singleFetch: true,
      v3_lazyRouteDiscovery: true,
      v3_fetcherPersist: true,
      v3_relativeSplatPath: true,
      v3_throwAbortReason: true,
      v3_routeConfig: false,
      unstable_optimizeDeps: false,
    },
    isSpaMode: false,
    renderMeta: {},
  } as unknown as EntryContext;
  return renderToString(<RemixServer context={context} url="http://localhost/" />);
}

/** The module script's text, as the browser would run it. */
function moduleScript(html: string) {
  const match = /<script nonce="([^"]*)" type="module" async="">([\s\S]*?)<\/script>/.exec(html);
  expect(match, 'a module script').not.toBeNull();
  return { nonce: match![1], text: match![2] };
}

describe("Remix's <Scripts>", () => {
  // With lazy route discovery (the app's future flag) the manifest is inlined, not fetched.
  it('preloads the entry, its chunks and every route module and chunk of the page', async () => {
    const html = await renderScripts();
    const preloads = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"\/>/g)].map((m) => m[1]);
    expect(new Set(preloads)).toEqual(
      new Set([
        '/build/entry.client-E.js',
        '/build/_shared/chunk-REACT.js',
        '/build/_shared/chunk-ROUTER.js',
        '/build/_shared/chunk-SHELL.js',
        '/build/root-R.js',
        '/build/_shared/chunk-PAGE.js',
        '/build/routes/page-P.js',
      ]),
    );
    // Each once: a repeated preload is a wasted request on a slow link.
    expect(preloads).toHaveLength(new Set(preloads).size);
    // The tags come before the module script, so the scanner has them before it runs.
    expect(html.indexOf('rel="modulepreload"')).toBeLessThan(html.indexOf('type="module"'));
  });

  it("imports the routes at once under the page's nonce, then the entry, with no wait", async () => {
    const { nonce, text } = moduleScript(await renderScripts());
    expect(nonce).toBe('n0nce-of-this-page');
    const imports = [...text.matchAll(/^import (?:\* as \w+ from )?("[^"]+");$/gm)].map((m) => JSON.parse(m[1]));
    expect(imports).toEqual(['/build/root-R.js', '/build/routes/page-P.js']);
    expect(text).toMatch(/^import\("\/build\/entry\.client-E\.js"\);$/m);
    // No waiting on load, paint timing or a timer before the imports.
    expect(text).not.toMatch(/addEventListener|PerformanceObserver|setTimeout|readyState|await /);
  });
});
