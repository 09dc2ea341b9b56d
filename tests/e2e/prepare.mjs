// Prepares a test server's folders before it starts (run from playwright.config.ts):
//   node tests/e2e/prepare.mjs DATA_DIR                 empty data folder (submissions)
//   node tests/e2e/prepare.mjs DIR --with-dataset       DIR gets its own copy of the dataset, which tests may change
import { cpSync, mkdirSync, rmSync } from 'node:fs';

const [dir, flag] = process.argv.slice(2);
if (!dir) throw new Error('usage: node tests/e2e/prepare.mjs DIR [--with-dataset]');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
if (flag === '--with-dataset') {
  cpSync('studio/dataset/production.ndjson', `${dir}/production.ndjson`);
  cpSync('studio/dataset/images', `${dir}/images`, { recursive: true });
}
