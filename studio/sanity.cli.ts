/** CLI settings for `sanity build` / `sanity dev` / `sanity typegen generate` (run from this folder). */
import { defineCliConfig } from 'sanity/cli';
import { dataset, projectId } from './env';

export default defineCliConfig({
  api: { projectId, dataset },
  // `npm run studio:build` builds for /studio, where the site serves it in the embedded world
  // (app/lake/, ADR 0025); `sanity dev` and `sanity deploy` keep the root, as before.
  project: { basePath: process.env.SANITY_STUDIO_BASE_PATH || '/' },
  // Ship the Studio with its bundled sanity version; no runtime module CDN (and no network at build).
  deployment: { autoUpdates: false },
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
