/**
 * The committed TypeGen output is up to date: regenerates the schema (offline extraction), the
 * schema types and the query result types into a temporary folder with scripts/typegen.sh, and
 * compares them with studio/schema.json, app/sanity/sanity.types.ts and app/sanity/query.types.ts.
 * Fix a failure with `npm run typegen` (then `npx tsc --noEmit` runs app/sanity/types-agree.ts,
 * which checks the zod schemas against the regenerated query types).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as insights from '../app/sanity/queries/insights';
import * as marketing from '../app/sanity/queries/marketing';
import * as shell from '../app/sanity/queries/shell';
import * as site from '../app/sanity/queries/site';
import cliConfig from '../studio/sanity.cli';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const FIX = 'run `npm run typegen`';

/** Export names of every namedQuery() result (the generator finds the same ones). */
const queryNames = Object.entries({ ...insights, ...marketing, ...shell, ...site })
  .filter(([, value]) => typeof value === 'object' && value !== null && 'query' in value && 'schema' in value)
  .map(([name]) => name);

/** The generated file's types by name (each block starts with its `// NAME (...)` comment). */
function typeBlocks(code: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const block of code.split(/\n(?=\/\/ |\/\*\* )/)) {
    const name = /^export type (\w+)/m.exec(block)?.[1];
    if (name) blocks.set(name, block);
  }
  return blocks;
}

describe('Sanity TypeGen output', () => {
  let dir = '';
  let fresh = { schema: '', types: '', queryTypes: '' };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'typegen-'));
    // The schema keeps its file name, which the generated header mentions.
    const paths = {
      TYPEGEN_SCHEMA_PATH: path.join(dir, 'schema.json'),
      TYPEGEN_TYPES_PATH: path.join(dir, 'sanity.types.ts'),
      TYPEGEN_QUERY_TYPES_PATH: path.join(dir, 'query.types.ts'),
    };
    await run('bash', [path.join(root, 'scripts/typegen.sh')], {
      cwd: root,
      env: { ...process.env, ...paths },
      maxBuffer: 16 * 1024 * 1024,
    });
    fresh = {
      schema: await readFile(paths.TYPEGEN_SCHEMA_PATH, 'utf8'),
      types: await readFile(paths.TYPEGEN_TYPES_PATH, 'utf8'),
      queryTypes: await readFile(paths.TYPEGEN_QUERY_TYPES_PATH, 'utf8'),
    };
  }, 240_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('is configured in studio/sanity.cli.ts: schema to studio/schema.json, types into the app', () => {
    expect(cliConfig.typegen).toMatchObject({
      path: '../app/sanity/queries/**/*.ts',
      schema: './schema.json',
      generates: '../app/sanity/sanity.types.ts',
    });
  });

  it(`has an up-to-date studio/schema.json (${FIX})`, async () => {
    const committed = await readFile(path.join(root, 'studio/schema.json'), 'utf8');
    expect(committed === fresh.schema, `studio/schema.json is out of date: ${FIX}`).toBe(true);
  });

  it(`has up-to-date schema types (${FIX})`, async () => {
    const committed = await readFile(path.join(root, 'app/sanity/sanity.types.ts'), 'utf8');
    // Sanity 5 names the schema file in a header by its path from studio/ (a temporary folder here).
    const body = (code: string) => code.replace(/^\/\/ Source: .*$/m, '');
    expect(body(committed) === body(fresh.types), `app/sanity/sanity.types.ts is out of date: ${FIX}`).toBe(true);
  });

  it(`has up-to-date query result types (${FIX})`, async () => {
    const committed = await readFile(path.join(root, 'app/sanity/query.types.ts'), 'utf8');
    if (committed === fresh.queryTypes) return;
    const [before, after] = [typeBlocks(committed), typeBlocks(fresh.queryTypes)];
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter(
      (name) => before.get(name) !== after.get(name),
    );
    expect.fail(
      `app/sanity/query.types.ts is out of date (${changed.length ? `changed: ${changed.join(', ')}` : 'header or imports'}): ${FIX}, ` +
        'then `npx tsc --noEmit` (app/sanity/types-agree.ts) says whether the zod schemas still agree',
    );
  });

  it('generates a type for every document type, with localized fields as locale objects', () => {
    for (const name of [
      'SiteSettings',
      'Office',
      'Service',
      'BlogPost',
      'FaqItem',
      'LocaleString',
      'LocaleText',
      'LocaleBlockContent',
    ]) {
      expect(fresh.types).toContain(`export type ${name} = {`);
    }
    expect(fresh.types).toMatch(/export type Office = \{[^}]*\n {2}city: LocaleString;/);
  });

  it('generates a result type for every named query, and no other', () => {
    expect(queryNames.length).toBeGreaterThan(10);
    const generated = [...fresh.queryTypes.matchAll(/^export type (\w+)Result = /gm)].map((m) => m[1]);
    expect(generated.sort()).toEqual([...queryNames].sort());
  });

  it('types localized fields as strings (field[$lang] read as an attribute, not a filter)', () => {
    const shellType = typeBlocks(fresh.queryTypes).get('SHELL_QUERYResult') ?? '';
    expect(shellType).toMatch(/\n {4}city: string;/);
    // Nothing the schema could not type, except the schema's own `unknown` (an image's media).
    expect(fresh.queryTypes.replaceAll('media?: unknown;', '')).not.toMatch(/\bunknown\b/);
  });
});
