/** CLI settings for `sanity build` / `sanity dev` / `sanity typegen generate` (run from this folder). */
import { defineCliConfig } from 'sanity/cli';
import { dataset, projectId } from './env';

const STUDIO_SINGLETONS = ['sanity', 'react', 'react-dom', 'styled-components', '@sanity/ui', '@sanity/client'];

export default defineCliConfig({
  api: { projectId, dataset },
  // `npm run studio:build` builds for /studio, where the site serves it in the embedded world
  // (app/lake/, ADR 0025); `sanity dev` and `sanity deploy` keep the root, as before.
  project: { basePath: process.env.SANITY_STUDIO_BASE_PATH || '/' },
  // Ship the Studio with its bundled sanity version; no runtime module CDN (and no network at build).
  deployment: { autoUpdates: false },
  // This folder is a package of its own (React 19, Sanity 5; ADR 0027) while ../schemas and
  // ../app/route-table.js sit beside the site's (React 18) packages: their bare imports would
  // resolve to the root's node_modules. Dedupe makes Vite resolve these from this folder, so the
  // bundle has exactly one sanity, one React and one styled-components.
  vite: (config) => ({
    ...config,
    resolve: {
      ...config.resolve,
      dedupe: [...(config.resolve?.dedupe ?? []), ...STUDIO_SINGLETONS],
    },
  }),
  // Sanity TypeGen (`npm run typegen`, scripts/typegen.sh). Paths are relative to this folder,
  // where the CLI runs. TYPEGEN_SCHEMA_PATH / TYPEGEN_TYPES_PATH redirect the output (used by
  // schemas/typegen.test.ts to regenerate into a temporary folder).
  typegen: {
    path: '../app/sanity/queries/**/*.ts',
    schema: process.env.TYPEGEN_SCHEMA_PATH || './schema.json',
    generates: process.env.TYPEGEN_TYPES_PATH || '../app/sanity/sanity.types.ts',
    formatGeneratedCode: false,
    overloadClientMethods: false,
  },
});
