/**
 * The bundled dataset (studio/dataset/production.ndjson) must be valid content for this
 * schema: what the Studio would show as errors, fields the schema does not know, and array
 * items without the _type/_key the Studio and typegen expect.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentTypeNames } from './index';
import { describeMarkers, validateOffline } from './validate-offline';

const file = path.resolve(__dirname, '../studio/dataset/production.ndjson');
const documents: Array<Record<string, unknown>> = existsSync(file)
  ? readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as Record<string, unknown>)
  : [];

/** The import form `_sanityAsset` becomes the `asset` reference `sanity dataset import` creates. */
function asImported(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asImported);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (key === '_sanityAsset')
        out.asset = { _type: 'reference', _ref: 'image-0000000000000000000000000000000000000000-100x100-jpg' };
      else out[key] = asImported(child);
    }
    return out;
  }
  return value;
}

/** Paths of objects inside arrays lacking _key or _type. */
function untypedArrayItems(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => {
      const here = `${at}[${index}]`;
      const own =
        item && typeof item === 'object' && !Array.isArray(item) && (!('_type' in item) || !('_key' in item))
          ? [here]
          : [];
      return [...own, ...untypedArrayItems(item, here)];
    });
  }
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, child]) => untypedArrayItems(child, at ? `${at}.${key}` : key));
  }
  return [];
}

describe.skipIf(documents.length === 0)('bundled dataset conforms to the schema', () => {
  const labelled = documents.map((document) => [String(document._id), document] as const);

  it('uses only document types the schema defines', () => {
    const unknown = [...new Set(documents.map((document) => String(document._type)))].filter(
      (type) => !documentTypeNames.includes(type) && type !== 'sanity.imageAsset',
    );
    expect(unknown).toEqual([]);
  });

  it.each(labelled)('%s has no validation errors and no unknown fields', async (_id, document) => {
    const imported = asImported(document) as Record<string, unknown>;
    const errors = describeMarkers(await validateOffline(imported, 'studio')).filter((line) =>
      line.startsWith('error'),
    );
    const unknownFields = describeMarkers(await validateOffline(imported, 'cli')).filter((line) =>
      /does not exist on type/.test(line),
    );
    expect([...errors, ...unknownFields]).toEqual([]);
  });

  it.each(labelled)('%s gives every object in an array a _type and _key', (_id, document) => {
    expect(untypedArrayItems(document)).toEqual([]);
  });
});
