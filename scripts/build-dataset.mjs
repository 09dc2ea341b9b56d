#!/usr/bin/env node
// Builds studio/dataset/production.ndjson (Sanity's import format) from the readable
// sources in studio/dataset/src/*.mjs, and renders studio/dataset/src/images/*.svg to
// raster files in studio/dataset/images/ (name.jpg.svg -> name.jpg, name.png.svg -> name.png).
//
//   node scripts/build-dataset.mjs          write the dataset and images
//   node scripts/build-dataset.mjs --check  exit 1 if the committed ndjson is out of date
import { readdir, readFile, writeFile, access } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const datasetDir = path.join(root, 'studio/dataset');
const srcDir = path.join(datasetDir, 'src');
const imagesSrcDir = path.join(srcDir, 'images');
const imagesDir = path.join(datasetDir, 'images');
const outFile = path.join(datasetDir, 'production.ndjson');
const check = process.argv.includes('--check');

async function loadDocuments() {
  const files = (await readdir(srcDir)).filter((f) => f.endsWith('.mjs')).sort();
  const docs = [];
  for (const file of files) {
    const mod = await import(pathToFileURL(path.join(srcDir, file)).href);
    const list = typeof mod.default === 'function' ? await mod.default() : mod.default;
    if (!Array.isArray(list)) throw new Error(`${file}: default export must be an array of documents`);
    docs.push(...list.map((doc) => ({ doc, file })));
  }
  return docs;
}

function collectAssets(value, out = []) {
  if (Array.isArray(value)) value.forEach((v) => collectAssets(v, out));
  else if (value && typeof value === 'object') {
    if (typeof value._sanityAsset === 'string') out.push(value._sanityAsset);
    Object.values(value).forEach((v) => collectAssets(v, out));
  }
  return out;
}

async function validate(entries) {
  const seen = new Map();
  const problems = [];
  for (const { doc, file } of entries) {
    if (!doc._id || !doc._type) problems.push(`${file}: a document lacks _id or _type`);
    if (seen.has(doc._id)) problems.push(`${file}: duplicate _id ${doc._id} (also in ${seen.get(doc._id)})`);
    seen.set(doc._id, file);
    const bareId = String(doc._id).replace(/^drafts\./, '');
    if (bareId.includes('.')) problems.push(`${file}: public document id must not contain a period: ${doc._id}`);
    for (const asset of collectAssets(doc)) {
      const m = /^image@file:\/\/\.\/(images\/[^/]+)$/.exec(asset);
      if (!m) {
        problems.push(`${file}: bad _sanityAsset ${asset}`);
        continue;
      }
      try {
        await access(path.join(datasetDir, m[1]));
      } catch {
        problems.push(`${file}: missing image ${m[1]} (${doc._id})`);
      }
    }
  }
  if (problems.length) throw new Error(problems.join('\n'));
}

async function renderImages() {
  let files;
  try {
    files = (await readdir(imagesSrcDir)).filter((f) => /\.(jpg|png)\.svg$/.test(f));
  } catch {
    return;
  }
  const { default: sharp } = await import('sharp');
  for (const file of files.sort()) {
    const target = path.join(imagesDir, file.replace(/\.svg$/, ''));
    const svg = await readFile(path.join(imagesSrcDir, file));
    const img = sharp(svg, { density: 144 });
    await (
      file.endsWith('.png.svg') ? img.png({ compressionLevel: 9 }) : img.jpeg({ quality: 82, mozjpeg: true })
    ).toFile(target);
  }
}

const entries = await loadDocuments();
if (!check) await renderImages();
await validate(entries);
const ndjson =
  entries
    .map(({ doc }) => doc)
    .sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0))
    .map((doc) => JSON.stringify(doc))
    .join('\n') + '\n';

if (check) {
  const current = await readFile(outFile, 'utf8').catch(() => '');
  if (current !== ndjson) {
    console.error('studio/dataset/production.ndjson is out of date: run node scripts/build-dataset.mjs');
    process.exit(1);
  }
  console.log(`dataset up to date (${entries.length} documents)`);
} else {
  await writeFile(outFile, ndjson);
  console.log(`wrote ${path.relative(root, outFile)} (${entries.length} documents)`);
}
