// The browser build's stand-in for server-only modules, as patched in
// patches/@remix-run+dev+2.17.5.patch (ADR 0015): a route imports `*.server` modules for its
// loader; Remix removes the loader from the browser build and puts an empty module in place of
// each such import. Unpatched, that empty module was kept (CommonJS, assumed to have side
// effects), and every distinct set of routes importing one got a ~100-byte chunk of its own,
// one more request on each page. Built here with Remix's own plugin and esbuild, as the
// compiler does (bundle, code splitting, ESM).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const esbuild = require('esbuild') as typeof import('esbuild');
const { emptyModulesPlugin } = require('@remix-run/dev/dist/compiler/plugins/emptyModules.js') as {
  emptyModulesPlugin: (ctx: { config: { appDirectory: string } }, filter: RegExp) => import('esbuild').Plugin;
};

const appDirectory = mkdtempSync(path.join(tmpdir(), 'client-build-'));
afterAll(() => rmSync(appDirectory, { recursive: true, force: true }));

function write(files: Record<string, string>) {
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(appDirectory, name), text);
}

async function build(entries: string[]) {
  const result = await esbuild.build({
    entryPoints: entries.map((e) => path.join(appDirectory, e)),
    absWorkingDir: appDirectory,
    outdir: path.join(appDirectory, 'out'),
    bundle: true,
    splitting: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
    plugins: [emptyModulesPlugin({ config: { appDirectory } }, /\.server(\.[jt]sx?)?$/)],
  });
  return result.outputFiles.map((f) => ({ name: path.basename(f.path), text: f.text }));
}

describe('server-only modules in the browser build', () => {
  it("an import only a route's loader used leaves no chunk and no stand-in behind", async () => {
    write({
      'secret.server.ts': 'export const readSecret = () => process.env.SECRET;\n',
      // Two pages whose loaders read the same server module.
      'page-a.ts':
        "import { readSecret } from './secret.server';\nexport const title = 'A';\nexport const loader = () => readSecret();\n",
      'page-b.ts':
        "import { readSecret } from './secret.server';\nexport const title = 'B';\nexport const loader = () => readSecret();\n",
      // What Remix's browser route module does: re-export the page without its loader.
      'route-a.ts': "export { title } from './page-a';\n",
      'route-b.ts': "export { title } from './page-b';\n",
    });
    const outputs = await build(['route-a.ts', 'route-b.ts']);
    expect(outputs.map((o) => o.name).sort()).toEqual(['route-a.js', 'route-b.js']);
    for (const out of outputs) {
      expect(out.text).not.toMatch(/\bimport\b|module\.exports|require_secret/);
      expect(out.text).not.toContain('process.env.SECRET');
    }
  });
});
