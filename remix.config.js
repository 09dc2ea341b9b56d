import { existsSync } from 'node:fs';
import {
  layoutRouteIds,
  pageRouteId,
  routeTable as allPages,
  resourceRoutes as allResources,
} from './app/route-table.js';

// A route whose module is not written yet is left out (and said), so work in progress builds.
const exists = (r) =>
  existsSync(new URL(`./app/${r.file}`, import.meta.url)) ||
  (console.warn(`[routes] not mounted yet: ${r.id} (app/${r.file})`), false);
const routeTable = allPages.filter(exists);
const resourceRoutes = allResources.filter(exists);

// BUILD_NAME=x builds to build-x/ and public/build-x/, so parallel work can build and test side by side.
const name = process.env.BUILD_NAME;

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ...(name
    ? {
        serverBuildPath: `build-${name}/index.js`,
        assetsBuildDirectory: `public/build-${name}`,
        publicPath: `/build-${name}/`,
      }
    : {}),
  // The production server (server/index.ts) is the server build's entry: Remix compiles it with
  // the app into one module, so it imports the app's pieces typed and shares their instances.
  server: 'server/index.ts',
  // Every route is declared in app/route-table.js: one page module serves both languages.
  ignoredRouteFiles: ['**/*'],
  serverModuleFormat: 'esm',
  serverPlatform: 'node',
  // The invoice PDF renderer is ESM-only: inline it into the server bundle (needed if the server format is ever CommonJS; with ESM output it also loads unbundled).
  serverDependenciesToBundle: [/^@react-pdf\//],
  postcss: true,
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
  routes(defineRoutes) {
    return defineRoutes((route) => {
      for (const locale of ['en', 'ar']) {
        // en is a pathless layout (pages at the bare paths); ar lives under /ar.
        route(locale === 'en' ? undefined : 'ar', 'layouts/locale.tsx', { id: layoutRouteIds[locale] }, () => {
          for (const page of routeTable) {
            const id = pageRouteId(locale, page.id);
            if (page.index) route(undefined, page.file, { index: true, id });
            else route(page.path, page.file, { id });
          }
          route('*', 'pages/not-found.tsx', { id: pageRouteId(locale, 'not-found') });
        });
      }
      // /en and /en/... are not a language prefix here: English lives at the bare path.
      route('en', 'resources/en-redirect.ts', { id: 'en-redirect-root' });
      route('en/*', 'resources/en-redirect.ts', { id: 'en-redirect' });
      for (const r of resourceRoutes) route(r.path, r.file, { id: r.id });
    });
  },
};
