// Gives the editorial test server its own copy of the dataset, which its tests may change.
import { cpSync, mkdirSync, rmSync } from 'node:fs';

const dir = process.argv[2];
if (!dir) throw new Error('usage: node tests/e2e/copy-dataset.mjs DIR');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
cpSync('studio/dataset/production.ndjson', `${dir}/production.ndjson`);
cpSync('studio/dataset/images', `${dir}/images`, { recursive: true });
