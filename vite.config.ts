// The Vite build of the site (issue 43, ADR 0032): Remix's Vite plugin on the same app, measured
// against the classic compiler (`remix build`, which `npm run build` still runs). Run it with
// `npx vite build`; the server is `node server.mjs build-vite/server/index.js`.
// remix.config.js stays the one place of the Remix configuration: the route table and the future
// flags are read from it here, not written twice.
import path from 'node:path';
import { vitePlugin as remix } from '@remix-run/dev';
import type { ManualChunksOption } from 'rollup';
import { defineConfig, type Plugin } from 'vite';
import remixConfig from './remix.config.js';

const root = import.meta.dirname;
// Its own folders, so a Vite build and a classic one (build/, public/build/) sit side by side.
const name = process.env.BUILD_NAME ? `vite-${process.env.BUILD_NAME}` : 'vite';

/**
 * What the classic compiler does that Vite does not, without touching the app's code:
 * - the server build's entry is the production server (server/index.ts), as remix.config.js
 *   `server` makes it for the classic build; its import of the classic virtual module
 *   `@remix-run/dev/server-build` is the Vite plugin's `virtual:remix/server-build`;
 * - a stylesheet imported by a module (`import stylesheet from './tailwind.css'`) is its URL, as
 *   the classic compiler gives it (Vite would inject it; its `?url` form is Vite-only).
 */
function classicShapes(): Plugin[] {
  const serverEntry: Plugin = {
    name: 'classic-server-entry',
    // After the Remix plugin's own config, which names its virtual module as the entry.
    enforce: 'post',
    config(_config, env) {
      if (env.isSsrBuild) return { build: { rollupOptions: { input: path.join(root, 'server/index.ts') } } };
    },
  };
  const imports: Plugin = {
    name: 'classic-imports',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (source === '@remix-run/dev/server-build')
        return this.resolve('virtual:remix/server-build', importer, options);
      if (
        importer &&
        source.endsWith('.css') &&
        importer.startsWith(path.join(root, 'app')) &&
        !importer.endsWith('.css')
      )
        return this.resolve(`${source}?url`, importer, { ...options, skipSelf: true });
    },
  };
  return [serverEntry, imports];
}

/**
 * Rollup's chunks, chosen (ADR 0024 asked esbuild for them through the kits): every module the
 * client entry, the root and the locale layout import statically, which every page loads before
 * it hydrates, is one chunk, `shell`, packages included: split in two (packages apart), the
 * chunks imported each other (Rollup's CommonJS helpers sat in the app's), and React's JSX
 * runtime was read before it was set, so nothing hydrated. The three modules themselves stay entries of their own (in the chunk they would leave a
 * stand-in file). What only pages use is chunked by Rollup as it sees fit: a page downloads its
 * own module and what it shares with other pages, nothing the shell holds twice.
 * VITE_CHUNKS=default builds with Rollup's own chunks, to compare.
 */
const ALWAYS = [
  path.join(root, 'app/entry.client.tsx'),
  path.join(root, 'app/root.tsx'),
  path.join(root, 'app/layouts/locale.tsx'),
];
const isAlways = (id: string) => ALWAYS.includes(id.split('?')[0]);
function manualChunks(): ManualChunksOption | undefined {
  if (process.env.VITE_CHUNKS === 'default') return undefined;
  let shell: Set<string> | null = null;
  return (id, { getModuleIds, getModuleInfo }) => {
    if (!shell) {
      shell = new Set();
      const todo = [...getModuleIds()].filter(isAlways);
      while (todo.length) {
        const next = todo.pop()!;
        if (shell.has(next)) continue;
        shell.add(next);
        todo.push(...(getModuleInfo(next)?.importedIds ?? []));
      }
    }
    if (isAlways(id) || !shell.has(id)) return undefined;
    return 'shell';
  };
}

export default defineConfig({
  base: `/build-${name}/`,
  // public/ is served by the server itself (server/site.ts); a copy would also take the classic
  // builds in public/build*/.
  publicDir: false,
  resolve: {
    alias: [
      { find: '~', replacement: path.join(root, 'app') },
      // Tailwind inlines tailwind.css's @import of Inter's stylesheet and leaves its font URLs
      // relative to that package; the classic build resolved them there, so does this one.
      {
        find: /^\.\/files\/(inter-[\w-]+\.woff2)$/,
        replacement: path.join(root, 'node_modules/@fontsource-variable/inter/files/$1'),
      },
    ],
  },
  build: {
    // A font or image inlined as data: would need the policy to allow data: (ADR 0009).
    assetsInlineLimit: 0,
    rollupOptions: {
      output: {
        manualChunks: manualChunks(),
      },
    },
  },
  plugins: [
    classicShapes(),
    remix({
      appDirectory: 'app',
      buildDirectory: `build-${name}`,
      ignoredRouteFiles: remixConfig.ignoredRouteFiles,
      serverModuleFormat: remixConfig.serverModuleFormat,
      future: remixConfig.future,
      routes: remixConfig.routes,
    }),
  ],
});
