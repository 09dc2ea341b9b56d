/**
 * Result types of the named GROQ queries, computed from the schema: writes
 * app/sanity/query.types.ts (run by `npm run typegen`, after `sanity typegen generate`).
 *
 * Sanity TypeGen only finds queries written as literal strings, and ours are assembled with
 * helpers (loc(), image.projection, portableText()...), so this script imports every module in
 * app/sanity/queries/, takes each exported namedQuery() result, and types its final GROQ text
 * (exactly what the app sends) with the same tools TypeGen uses: groq-js typeEvaluate() over
 * studio/schema.json, printed by @sanity/codegen's TypeGenerator. Each query `FOO_QUERY` gets
 * `export type FOO_QUERYResult` (and an entry in `QueryResults`); schema types it refers to are
 * imported from ./sanity.types.
 *
 * Parameters, as TypeGen treats them:
 *   - a parameter used in a slice ([$start...$end]) is 0 while parsing (as TypeGen's own
 *     safeParseQuery does: GROQ needs constant slice bounds);
 *   - $lang: `field[$lang]` is an attribute access only when $lang is known at parse time
 *     (otherwise GROQ parses it as a filter), so the query is parsed with a placeholder
 *     language, then every `field[<placeholder>]` becomes `select($lang == "en" => field.en,
 *     field.ar)` and every other use of the placeholder becomes $lang again. The type is then
 *     the one for any language (e.g. `$lang != "en"` is a boolean, not the constant of one run);
 *   - any other parameter ($slug, $types...) stays a parameter (of unknown value).
 *
 * Usage: vite-node scripts/query-types.ts [-- [--schema studio/schema.json] [--out app/sanity/query.types.ts]]
 * (defaults also from TYPEGEN_SCHEMA_PATH / TYPEGEN_QUERY_TYPES_PATH).
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TypeGenerator, readSchema } from '@sanity/codegen';
import { parse, typeEvaluate, type ExprNode, type ObjectTypeNode, type SchemaType, type TypeNode } from 'groq-js';
import { locales } from '../app/i18n';

const root = path.resolve(import.meta.dirname, '..');
const queriesDir = path.join(root, 'app/sanity/queries');

function option(flag: string, env: string, fallback: string): string {
  const i = process.argv.indexOf(flag);
  const value = (i > -1 ? process.argv[i + 1] : undefined) ?? process.env[env] ?? fallback;
  return path.resolve(root, value);
}

/** The language placeholder: a string no query contains. */
const LANG = '\u0000lang';

type Node = { type: string; [key: string]: unknown };
const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';

/** `field[$lang]` for any language: select($lang == "en" => field.en, ..., field.<last>). */
function anyLocale(base: ExprNode): ExprNode {
  const access = (name: string): ExprNode => ({ type: 'AccessAttribute', base, name });
  const [last, ...others] = [...locales].reverse();
  return {
    type: 'Select',
    alternatives: others.reverse().map((lang) => ({
      type: 'SelectAlternative',
      condition: {
        type: 'OpCall',
        op: '==',
        left: { type: 'Parameter', name: 'lang' },
        right: { type: 'Value', value: lang },
      },
      value: access(lang),
    })),
    fallback: access(last),
  };
}

/** Undoes the placeholder (see the header): attribute accesses by language, then $lang itself. */
function generalizeLang(node: unknown, query: string): unknown {
  if (Array.isArray(node)) return node.map((item) => generalizeLang(item, query));
  if (typeof node === 'string' && node.includes(LANG)) {
    throw new Error(`$lang is used in a way this generator cannot type (constant-folded into "${node}") in:\n${query}`);
  }
  if (!isNode(node)) return node;
  if (node.type === 'AccessAttribute' && node.name === LANG)
    return anyLocale(generalizeLang(node.base, query) as ExprNode);
  if (node.type === 'Value' && node.value === LANG) return { type: 'Parameter', name: 'lang' };
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, generalizeLang(value, query)]));
}

/** Parameters that must be constants while parsing: slice bounds (0, as TypeGen) and $lang. */
function parseParams(query: string): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const match of query.matchAll(/\[\s*(\$\w+|\d+)\s*\.\.\.?\s*(\$\w+|\d+)\s*\]/g)) {
    for (const bound of [match[1], match[2]]) if (bound.startsWith('$')) params[bound.slice(1)] = 0;
  }
  if (/\$lang\b/.test(query)) params.lang = LANG;
  return params;
}

function queryType(query: string, schema: SchemaType): TypeNode {
  const ast = generalizeLang(parse(query, { params: parseParams(query) }), query) as ExprNode;
  return simplify(typeEvaluate(ast, schema));
}

type NamedQuery = { exportName: string; name: string; query: string; file: string };

const isQueryDefinition = (value: unknown): value is { name: string; query: string; schema: unknown } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { name?: unknown }).name === 'string' &&
  typeof (value as { query?: unknown }).query === 'string' &&
  typeof (value as { schema?: { safeParse?: unknown } }).schema?.safeParse === 'function';

/** Every exported namedQuery() result of app/sanity/queries/*.ts (tests excluded), in a stable order. */
async function findQueries(): Promise<NamedQuery[]> {
  const files = (await readdir(queriesDir))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
    .sort();
  const found: NamedQuery[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(path.join(queriesDir, file)).href)) as Record<string, unknown>;
    for (const [exportName, value] of Object.entries(module).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (!isQueryDefinition(value)) continue;
      const clash = found.find((q) => q.exportName === exportName);
      if (clash) throw new Error(`Two queries are exported as ${exportName} (${clash.file}, ${file})`);
      found.push({ exportName, name: value.name, query: value.query, file: `app/sanity/queries/${file}` });
    }
  }
  return found;
}

/** Names of the schema types a type node refers to (printed by reference, not inlined). */
function inlineNames(node: TypeNode, names = new Set<string>()): Set<string> {
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) {
      if ((value as { type?: unknown }).type === 'inline') names.add((value as { name: string }).name);
      Object.values(value).forEach(visit);
    }
  };
  visit(node);
  return names;
}

/** JSON with sorted keys: structurally equal type nodes print the same. */
const stable = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );

const typeLiteral = (node: ObjectTypeNode): string | undefined => {
  const value = node.attributes._type?.value;
  return value?.type === 'string' ? value.value : undefined;
};

/** Two union members as one, when that loses nothing the app relies on (see simplify()). */
function merge(a: TypeNode, b: TypeNode): TypeNode | undefined {
  if (stable(a) === stable(b)) return a;
  if (a.type === 'array' && b.type === 'array')
    return { type: 'array', of: simplify({ type: 'union', of: [a.of, b.of] }) };
  if (a.type === 'boolean' && b.type === 'boolean') return { type: 'boolean' };
  if (a.type === 'object' && b.type === 'object') {
    const keys = Object.keys(a.attributes);
    const sameKeys = keys.length === Object.keys(b.attributes).length && keys.every((key) => key in b.attributes);
    if (!sameKeys || a.rest || b.rest || a.dereferencesTo !== b.dereferencesTo || typeLiteral(a) !== typeLiteral(b))
      return undefined;
    return {
      type: 'object',
      attributes: Object.fromEntries(
        keys.map((key) => {
          const [x, y] = [a.attributes[key], b.attributes[key]];
          const optional = x.optional || y.optional;
          return [
            key,
            {
              type: 'objectAttribute',
              value: simplify({ type: 'union', of: [x.value, y.value] }),
              ...(optional ? { optional } : {}),
            },
          ];
        }),
      ),
      ...(a.dereferencesTo ? { dereferencesTo: a.dereferencesTo } : {}),
    };
  }
  return undefined;
}

/**
 * A readable equivalent (or wider) type: nested unions flattened, equal members once,
 * Array<A> | Array<B> as Array<A | B>, true | false as boolean, and objects with the same
 * keys (and the same _type, if any) as one object whose fields are the unions, e.g.
 * {title: string} | {title: null} as {title: string | null}. null goes last.
 * typeEvaluate gives such unions wherever a filter cannot tell the document type, e.g.
 * *[_id == "x"][0]{title} is "any document's title".
 */
function simplify(node: TypeNode): TypeNode {
  switch (node.type) {
    case 'array':
      return { ...node, of: simplify(node.of) };
    case 'object':
      return {
        ...node,
        attributes: Object.fromEntries(
          Object.entries(node.attributes).map(([key, attribute]) => [
            key,
            { ...attribute, value: simplify(attribute.value) },
          ]),
        ),
        ...(node.rest ? { rest: simplify(node.rest) as ObjectTypeNode['rest'] } : {}),
      };
    case 'union': {
      const members: TypeNode[] = [];
      for (const member of node.of.map(simplify).flatMap((m) => (m.type === 'union' ? m.of : [m]))) {
        const i = members.findIndex((existing) => merge(existing, member));
        if (i === -1) members.push(member);
        else members[i] = merge(members[i], member)!;
      }
      members.sort((a, b) => Number(a.type === 'null') - Number(b.type === 'null'));
      return members.length === 1 ? members[0] : { type: 'union', of: members };
    }
    default:
      return node;
  }
}

const header = `/**
 * ---------------------------------------------------------------------------------
 * Generated by scripts/query-types.ts (\`npm run typegen\`): do not edit.
 *
 * The result type of every named query in app/sanity/queries/, computed from the
 * schema (studio/schema.json) with groq-js typeEvaluate and printed with Sanity
 * TypeGen's generator. app/sanity/types-agree.ts checks each query's zod schema
 * against these types; schemas/typegen.test.ts fails when this file is stale.
 * ---------------------------------------------------------------------------------
 */
`;

async function generateQueryTypes(schemaPath: string): Promise<{ code: string; count: number }> {
  const schema = await readSchema(schemaPath);
  const generator = new TypeGenerator(schema);
  generator.generateSchemaTypes(); // registers the schema type names (as in ./sanity.types.ts)

  const queries = await findQueries();
  if (queries.length === 0) throw new Error(`No namedQuery() exports found in ${queriesDir}`);

  const referenced = new Set<string>();
  const blocks: string[] = [];
  for (const q of queries) {
    let type: TypeNode;
    try {
      type = queryType(q.query, schema);
    } catch (error) {
      throw new Error(`Cannot type ${q.exportName} ('${q.name}', ${q.file}): ${(error as Error).message}`, {
        cause: error,
      });
    }
    inlineNames(type, referenced);
    blocks.push(
      `// ${q.exportName} ('${q.name}', ${q.file})\n${generator.generateTypeNodeTypes(`${q.exportName}Result`, type)}`,
    );
  }

  // The schema types the results refer to, by their names in ./sanity.types.ts.
  const printed = new TypeGenerator(schema);
  printed.generateSchemaTypes();
  const imports = [...referenced]
    .map((name) => /=\s*(\w+);/.exec(printed.generateTypeNodeTypes('Probe', { type: 'inline', name }))?.[1])
    .filter((name): name is string => !!name);
  blocks.push(
    `/** Every named query's result type, by the query's export name. */\nexport type QueryResults = {\n${queries.map((q) => `  ${q.exportName}: ${q.exportName}Result;`).join('\n')}\n};`,
  );
  const code = blocks.join('\n\n');
  if (code.includes('internalGroqTypeReferenceTo')) imports.push('internalGroqTypeReferenceTo');
  const importLine = imports.length
    ? `import type { ${[...new Set(imports)].sort().join(', ')} } from './sanity.types';\n\n`
    : '';

  return { code: `${header}\n${importLine}${code}\n`, count: queries.length };
}

{
  const schemaPath = option('--schema', 'TYPEGEN_SCHEMA_PATH', 'studio/schema.json');
  const outPath = option('--out', 'TYPEGEN_QUERY_TYPES_PATH', 'app/sanity/query.types.ts');
  const { code, count } = await generateQueryTypes(schemaPath);
  await mkdir(path.dirname(outPath), { recursive: true });
  await writeFile(outPath, code);
  console.log(`Result types of ${count} queries written to ${path.relative(root, outPath)}`);
}
