/**
 * npm run content:check [-- --dataset FILE.ndjson]
 * Audits translations of the bundled dataset (default) or, when SANITY_PROJECT_ID is set
 * and no --dataset is given, of the hosted dataset's published documents.
 * Exits 1 when a localized field lacks its required English; Arabic gaps are reported.
 */
import { readFileSync } from 'node:fs';
import { createClient } from '@sanity/client';
import { checkDocuments, formatReport, isPublishedContent } from './content-check-core';

type Doc = { _id: string; _type: string; [k: string]: unknown };

async function loadDocuments(): Promise<{ docs: Doc[]; source: string }> {
  const i = process.argv.indexOf('--dataset');
  const file = i > -1 ? process.argv[i + 1] : undefined;
  if (!file && process.env.SANITY_PROJECT_ID) {
    const client = createClient({
      projectId: process.env.SANITY_PROJECT_ID,
      dataset: process.env.SANITY_DATASET ?? 'production',
      apiVersion: process.env.SANITY_API_VERSION ?? '2025-02-19',
      token: process.env.SANITY_READ_TOKEN,
      useCdn: false,
      perspective: 'published',
    });
    const docs = await client.fetch<Doc[]>('*[!(_type match "sanity.*") && !(_type match "system.*")]');
    return { docs, source: `Sanity project ${process.env.SANITY_PROJECT_ID}` };
  }
  const path = file ?? 'studio/dataset/production.ndjson';
  const docs = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Doc);
  return { docs, source: path };
}

const { docs, source } = await loadDocuments();
const findings = checkDocuments(docs);
console.log(`Translation check of ${source}`);
console.log(formatReport(findings, docs.filter(isPublishedContent).length));
process.exit(findings.some((f) => f.kind === 'missingEnglish') ? 1 : 0);
