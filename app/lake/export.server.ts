import type { SanityDocument } from '~/sanity/types';

/**
 * The lake's documents in Sanity's import format (`sanity dataset import FILE.ndjson DATASET`):
 * public documents and drafts, each image reference written as
 * `_sanityAsset: "image@file://./images/{file}"` (the file beside the ndjson) in place of
 * `asset`, and no `sanity.imageAsset` documents (the import makes them from the files).
 * Private documents (an id with a period other than `drafts.`) and release versions are left out.
 */
export type ExportedDataset = { lines: string[]; images: Set<string> };

const isExported = (id: string) => (id.startsWith('drafts.') ? !id.slice(7).includes('.') : !id.includes('.'));

export function toImportFormat(docs: readonly SanityDocument[]): ExportedDataset {
  const assets = new Map<string, string>();
  for (const doc of docs) {
    if (doc._type !== 'sanity.imageAsset') continue;
    const file = typeof doc.path === 'string' ? doc.path.split('/').pop() : undefined;
    if (file) assets.set(doc._id, file);
  }
  const images = new Set<string>();
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const obj = node as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    const ref = (obj.asset as { _ref?: unknown } | undefined)?._ref;
    const file = typeof ref === 'string' ? assets.get(ref) : undefined;
    for (const [key, value] of Object.entries(obj)) {
      if (file && key === 'asset') continue;
      out[key] = walk(value);
    }
    if (file) {
      out._sanityAsset = `image@file://./images/${file}`;
      images.add(file);
    }
    return out;
  };
  const lines: string[] = [];
  for (const doc of [...docs].sort((a, b) => a._id.localeCompare(b._id))) {
    if (doc._type === 'sanity.imageAsset' || !isExported(doc._id)) continue;
    const { _rev: _r, _updatedAt: _u, _createdAt: _c, ...rest } = doc as SanityDocument & Record<string, unknown>;
    lines.push(JSON.stringify(walk(rest)));
  }
  return { lines, images };
}
