import { routeTable, resourceRoutes } from './app/route-table.js';

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // Every route is declared in app/route-table.js: one page module serves both languages.
  ignoredRouteFiles: ['**/*'],
  serverModuleFormat: 'esm',
  serverPlatform: 'node',
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
        // en is a pathless layout (pages at the spec's paths); ar lives under /ar.
        route(locale === 'en' ? undefined : 'ar', 'layouts/locale.tsx', { id: `locale-${locale}` }, () => {
          for (const page of routeTable) {
            const id = `${locale}/${page.id}`;
            if (page.index) route(undefined, page.file, { index: true, id });
            else route(page.path, page.file, { id });
          }
          route('*', 'pages/not-found.tsx', { id: `${locale}/not-found` });
        });
      }
      // /en and /en/... are not a language prefix here: English lives at the bare path.
      route('en', 'resources/en-redirect.ts', { id: 'en-redirect-root' });
      route('en/*', 'resources/en-redirect.ts', { id: 'en-redirect' });
      for (const r of resourceRoutes) route(r.path, r.file, { id: r.id });
    });
  },
};
