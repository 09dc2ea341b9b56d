import path from 'node:path';
import { defineConfig, type Plugin } from 'vitest/config';

const studioDir = path.resolve(import.meta.dirname, 'studio');
const schemasDir = path.resolve(import.meta.dirname, 'schemas');
/** The Studio's packages (React 19, Sanity 5), installed in studio/node_modules (ADR 0027). */
const STUDIO_PACKAGES =
  /^(sanity|react|react-dom|styled-components|@sanity\/(ui|schema|language-filter|vision))(\/.*)?$/;

/**
 * Code in schemas/ and studio/ runs on the Studio's packages, as `sanity build` bundles it: their
 * bare imports of those packages resolve from studio/ (the root has React 18 and no `sanity`).
 */
function studioPackages(): Plugin {
  return {
    name: 'studio-packages',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!importer || !STUDIO_PACKAGES.test(source)) return null;
      if (!importer.startsWith(studioDir + path.sep) && !importer.startsWith(schemasDir + path.sep)) return null;
      if (importer.includes(`${path.sep}node_modules${path.sep}`)) return null;
      return this.resolve(source, path.join(studioDir, 'package.json'), { skipSelf: true });
    },
  };
}

export default defineConfig({
  plugins: [studioPackages()],
  resolve: { alias: { '~': path.resolve(import.meta.dirname, 'app') } },
  test: {
    include: [
      'app/**/*.test.{ts,tsx}',
      'server/**/*.test.ts',
      'schemas/**/*.test.ts',
      'scripts/**/*.test.ts',
      'tests/unit/**/*.test.ts',
    ],
    environment: 'node',
    // Workers: vitest's default, the cores less one (one on CI's two cores). Two were tried for
    // issue 43: on the loaded shared 2-core machine four database files took 300 s instead of
    // 240 s, and one test ran into its 30 s timeout; more workers only pay with idle cores.
    testTimeout: 30_000,
    // A busy machine (CI shares one) can take more than the default 10 s to open and migrate a
    // database in a hook: the same allowance as a test.
    hookTimeout: 30_000,
  },
});
