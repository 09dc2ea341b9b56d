/**
 * npm run content:export -- [FOLDER]
 * Writes the embedded world's content (the bundled dataset with every edit made in the Studio
 * through the local Content Lake, ADR 0025) in Sanity's import format: FOLDER/production.ndjson
 * and FOLDER/images/ (default FOLDER: export/). A firm moving to a hosted Sanity project then runs
 *   cd studio && npx sanity dataset import ../export/production.ndjson production
 * Reads the firm's database like the server (DATABASE_URL, else PGlite in {CONTENT_DATA_DIR}/db):
 * the embedded data folder is one process's, so stop the server first.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openCommandDatabase } from '~/db/client.server';
import { env } from '~/lib/env.server';
import { toImportFormat } from '~/lake/export.server';
import { LakeStore } from '~/lake/store.server';
import { EmbeddedContentClient } from '~/sanity/embedded.server';

async function main() {
  const out = path.resolve(process.argv[2] ?? 'export');
  const e = env();
  if (e.content.world !== 'embedded') {
    console.error('content:export: the hosted world exports with `sanity dataset export`');
    process.exit(2);
  }
  const database = await openCommandDatabase('content:export');
  const content = new EmbeddedContentClient({ ...e.content, watch: false });
  try {
    const store = new LakeStore(database.db);
    await store.open(await content.baseDocuments());
    const { lines, images } = toImportFormat(store.all());
    mkdirSync(path.join(out, 'images'), { recursive: true });
    let missing = 0;
    for (const file of images) {
      const bundled = await content.imageAsset(file);
      if (bundled) copyFileSync(bundled.file, path.join(out, 'images', file));
      else {
        const uploaded = await store.asset(file);
        if (uploaded) writeFileSync(path.join(out, 'images', file), uploaded.bytes);
        else missing++;
      }
    }
    writeFileSync(path.join(out, 'production.ndjson'), lines.join('\n') + '\n');
    console.log(`content:export: ${lines.length} documents and ${images.size - missing} images in ${out}/`);
    if (missing) {
      console.error(`content:export: ${missing} images referenced but not found`);
      process.exitCode = 1;
    }
  } finally {
    content.close();
    await database.close();
  }
}

await main();
