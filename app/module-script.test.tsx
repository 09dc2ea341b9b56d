// Remix's <Scripts> is patched (patches/@remix-run+react+*.patch, ADR 0018): it renders no module
// preload tags and no static imports, which the browser would fetch while it reads the page.
// Its module script, which carries the page's nonce ('strict-dynamic', ADR 0009), first waits
// until the page has loaded and been painted, then loads every module the page needs at once
// and runs them one task each, and imports the entry last. A reinstall without the patch fails here; tests/e2e/layout.spec.ts checks
// the order of requests in Chromium.
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

/** A browser stand-in in which the script's waiting part runs, with its clock, events and paints. */
function fakeBrowser({ readyState = 'loading', hidden = false, paintTiming = true } = {}) {
  const timers: { at: number; run: () => void }[] = [];
  const listeners: Record<string, () => void> = {};
  let now = 0;
  let observer: ((list: unknown, self: { disconnect(): void }) => void) | null = null;
  let painted = false;
  class PerformanceObserver {
    static supportedEntryTypes = paintTiming ? ['paint', 'resource'] : ['resource'];
    constructor(callback: typeof observer) {
      observer = callback;
    }
    observe() {
      if (painted) queueMicrotask(() => observer?.({}, { disconnect: () => (observer = null) }));
    }
  }
  const env = {
    document: { readyState, visibilityState: hidden ? 'hidden' : 'visible' },
    addEventListener: (type: string, listener: () => void) => (listeners[type] = listener),
    setTimeout: (run: () => void, ms = 0) => timers.push({ at: now + ms, run }),
    PerformanceObserver,
  };
  const settle = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return {
    env,
    async load() {
      env.document.readyState = 'complete';
      listeners.load?.();
      await settle();
    },
    async paint() {
      painted = true;
      observer?.({}, { disconnect: () => (observer = null) });
      await settle();
    },
    async advance(ms: number) {
      await settle();
      now += ms;
      for (const timer of timers.filter((t) => t.at <= now)) {
        timers.splice(timers.indexOf(timer), 1);
        timer.run();
      }
      await settle();
    },
  };
}

/** Runs the script's wait (the text before its imports) in `browser`; says when it has settled. */
function startWaiting(text: string, browser: ReturnType<typeof fakeBrowser>) {
  const wait = text.slice(0, text.indexOf('async function importEach'));
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
  const run = new AsyncFunction('document', 'addEventListener', 'setTimeout', 'PerformanceObserver', wait);
  const state = { settled: false };
  const { document, addEventListener, setTimeout, PerformanceObserver } = browser.env;
  void run(document, addEventListener, setTimeout, PerformanceObserver).then(() => (state.settled = true));
  return state;
}

describe("Remix's <Scripts> (patched)", () => {
  it('renders no module preload tags and imports nothing statically, under the page nonce', async () => {
    const html = await renderScripts();
    expect(html).not.toMatch(/<link\b/);
    const { nonce, text } = moduleScript(html);
    expect(nonce).toBe('n0nce-of-this-page');
    expect(text).not.toMatch(/^\s*import\s/m);
    // Every script tag carries the nonce.
    for (const tag of html.match(/<script\b[^>]*>/g) ?? []) expect(tag).toContain('nonce="n0nce-of-this-page"');
  });

  it('after the wait, loads every chunk and route module, route modules last, then runs the entry', async () => {
    const { text } = moduleScript(await renderScripts());
    const wait = text.indexOf('await new Promise');
    const load = text.indexOf('await importEach(paths, "/build/entry.client-E.js")');
    expect(wait).toBeGreaterThanOrEqual(0);
    expect(load).toBeGreaterThan(wait);
    const paths = JSON.parse(/const paths = (\[[^\]]*\]);/.exec(text)![1]) as string[];
    // Each file once: the entry's chunks, the routes' chunks, then the two route modules.
    expect(paths).toEqual([
      '/build/_shared/chunk-REACT.js',
      '/build/_shared/chunk-ROUTER.js',
      '/build/_shared/chunk-SHELL.js',
      '/build/_shared/chunk-PAGE.js',
      '/build/root-R.js',
      '/build/routes/page-P.js',
    ]);
    // The route module table points at the route modules' places in that list.
    expect(text).toContain('window.__remixRouteModules = {"root":modules[4],"routes/page":modules[5]};');
    // The entry is preloaded with them (the second argument) but run only at the end: it hydrates.
    const entry = text.lastIndexOf('import(');
    expect(entry).toBeGreaterThan(text.indexOf('window.__remixRouteModules'));
    expect(text.slice(entry)).toMatch(/^import\("\/build\/entry\.client-E\.js"\);\s*$/);
  });

  it('waits for both the load event and a reported paint, whichever comes last', async () => {
    const { text } = moduleScript(await renderScripts());
    const first = fakeBrowser();
    const loadFirst = startWaiting(text, first);
    await first.load();
    await first.advance(1000);
    expect(loadFirst.settled).toBe(false);
    await first.paint();
    await first.advance(0);
    expect(loadFirst.settled).toBe(true);

    const second = fakeBrowser();
    const paintFirst = startWaiting(text, second);
    await second.paint();
    await second.advance(5000);
    expect(paintFirst.settled).toBe(false);
    await second.load();
    await second.advance(0);
    expect(paintFirst.settled).toBe(true);
  });

  it('goes on 3 s after load when no paint is reported, and at load in a hidden tab or without paint timing', async () => {
    const { text } = moduleScript(await renderScripts());
    const noPaint = fakeBrowser();
    const waiting = startWaiting(text, noPaint);
    await noPaint.load();
    await noPaint.advance(2999);
    expect(waiting.settled).toBe(false);
    await noPaint.advance(1);
    expect(waiting.settled).toBe(true);

    for (const options of [{ hidden: true }, { paintTiming: false }]) {
      const browser = fakeBrowser(options);
      const state = startWaiting(text, browser);
      await browser.advance(60_000);
      expect(state.settled).toBe(false);
      await browser.load();
      await browser.advance(0);
      expect(state.settled).toBe(true);
    }
  });

  it('goes on at once when the page had loaded and painted before the script ran', async () => {
    const { text } = moduleScript(await renderScripts());
    const browser = fakeBrowser({ readyState: 'complete' });
    await browser.paint();
    const state = startWaiting(text, browser);
    await browser.advance(0);
    expect(state.settled).toBe(true);
  });
});
