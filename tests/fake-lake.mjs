// A tiny stand-in for Sanity's Content Lake, for tests of the hosted world without a network.
// It answers @sanity/client's query endpoint by evaluating the GROQ with groq-js over an
// in-memory document list:
//   GET  /v{apiVersion}/data/query/{dataset}?query=…&$param=<JSON>&perspective=…
//   POST /v{apiVersion}/data/query/{dataset}   {"query": "…", "params": {…}}
// Like the real one: `published` (the default since API 2025-02-19) hides drafts, `drafts`
// lays them over their published twins, `raw` shows everything; a request without the token
// sees only public documents (no period in the id), a wrong token gets 401.
// Asked for a Content Source Map (stega clients ask), it returns an approximate one: each
// string of the result is traced to a document field holding exactly that string (one named
// like the result's field if there are several; the real Lake follows the query instead). Enough for stega to encode the page's text the
// way it would in the Studio; computed strings (concatenations) stay unmapped, as there.
//
// In a test:   const lake = await startFakeLake({ documents, token }); … lake.url … await lake.close();
// As a server: node tests/fake-lake.mjs --port 3651 --token T [--dataset studio/dataset/production.ndjson]
//                [--secret S] [--expired-secret E]       (Studio preview secrets, see previewSecretDocument)
import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluate, parse } from 'groq-js';

/**
 * A preview secret exactly as the Studio's Presentation tool stores it
 * (@sanity/preview-url-secret createPreviewSecret): a private draft document, valid while
 * `_updatedAt` is less than an hour old.
 */
export function previewSecretDocument({ secret, updatedAt = new Date(), studioUrl = 'http://localhost:3333' }) {
  const at = updatedAt.toISOString();
  return {
    _id: `drafts.${randomUUID()}`,
    _type: 'sanity.previewUrlSecret',
    _createdAt: at,
    _updatedAt: at,
    _rev: randomUUID(),
    secret,
    source: 'presentation',
    studioUrl,
    userId: 'p-fake-editor',
  };
}

const isDraft = (id) => id.startsWith('drafts.');
const isVersion = (id) => id.startsWith('versions.');

function withPerspective(docs, perspective) {
  if (perspective === 'raw') return docs;
  if (perspective === 'drafts' || perspective === 'previewDrafts') {
    const drafts = new Map(docs.filter((d) => isDraft(d._id)).map((d) => [d._id.slice(7), d]));
    const out = [];
    for (const d of docs) {
      if (isDraft(d._id) || isVersion(d._id)) continue;
      const draft = drafts.get(d._id);
      out.push(draft ? { ...draft, _id: d._id, _originalId: draft._id } : d);
      drafts.delete(d._id);
    }
    for (const [id, draft] of drafts) out.push({ ...draft, _id: id, _originalId: draft._id });
    return out;
  }
  return docs.filter((d) => !isDraft(d._id) && !isVersion(d._id));
}

const pathSegment = (segment) =>
  typeof segment === 'number' ? `[${segment}]` : typeof segment === 'string' ? `['${segment.replace(/['\\]/g, '\\$&')}']` : `[?(@._key=='${segment._key}')]`;
const jsonPath = (segments) => `$${segments.map(pathSegment).join('')}`;

/** An approximate Content Source Map of `result` over `docs` (see the top of this file). */
export function approximateSourceMap(result, docs) {
  const origin = new Map();
  docs.forEach((doc, index) => {
    const walk = (node, at) => {
      if (typeof node === 'string') {
        const fields = at.filter((segment) => typeof segment === 'string');
        origin.set(node, [...(origin.get(node) ?? []), { index, path: jsonPath(at), fields }]);
      } else if (Array.isArray(node)) {
        node.forEach((item, i) => walk(item, at.concat(item && typeof item._key === 'string' ? { _key: item._key } : i)));
      } else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) if (!k.startsWith('_')) walk(v, at.concat(k));
      }
    };
    walk(doc, []);
  });
  const documents = [];
  const documentIndex = new Map();
  const paths = [];
  const mappings = {};
  const visit = (node, at) => {
    if (typeof node === 'string') {
      const candidates = origin.get(node);
      if (!candidates) return;
      // Several fields hold this text: prefer one named like the result's field ("highlight").
      const name = at.findLast((segment) => typeof segment === 'string');
      const found = candidates.find((c) => c.fields.includes(name)) ?? candidates[0];
      if (!documentIndex.has(found.index)) {
        const doc = docs[found.index];
        documentIndex.set(found.index, documents.push({ _id: doc._originalId ?? doc._id, _type: doc._type }) - 1);
      }
      mappings[jsonPath(at)] = { type: 'value', source: { type: 'documentValue', document: documentIndex.get(found.index), path: paths.push(found.path) - 1 } };
    } else if (Array.isArray(node)) node.forEach((item, i) => visit(item, at.concat(i)));
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) visit(v, at.concat(k));
  };
  visit(result, []);
  return { documents, paths, mappings };
}

/**
 * Reads a dataset in Sanity's import format. Image fields written as
 * `_sanityAsset: "image@file://./images/x.jpg"` become references to `sanity.imageAsset`
 * documents, as `sanity dataset import` would make them.
 */
export async function readDataset(file, { projectId = 'fake', dataset = 'production' } = {}) {
  const dir = path.dirname(file);
  const assets = new Map();
  const asset = async (ref) => {
    const match = /^image@file:\/\/(.+)$/.exec(ref);
    if (!match) throw new Error(`Unsupported asset reference ${ref}`);
    const bytes = await readFile(path.resolve(dir, match[1]));
    const sha1 = createHash('sha1').update(bytes).digest('hex');
    const ext = path.extname(match[1]).slice(1).toLowerCase().replace('jpeg', 'jpg');
    const { width = 1, height = 1 } = await (await import('sharp')).default(bytes).metadata();
    const _id = `image-${sha1}-${width}x${height}-${ext}`;
    assets.set(_id, {
      _id,
      _type: 'sanity.imageAsset',
      extension: ext,
      url: `https://cdn.sanity.io/images/${projectId}/${dataset}/${sha1}-${width}x${height}.${ext}`,
      metadata: { _type: 'sanity.imageMetadata', dimensions: { _type: 'sanity.imageDimensions', width, height, aspectRatio: width / height } },
    });
    return _id;
  };
  const walk = async (node) => {
    if (Array.isArray(node)) return Promise.all(node.map(walk));
    if (!node || typeof node !== 'object') return node;
    const out = {};
    for (const [k, v] of Object.entries(node)) if (k !== '_sanityAsset') out[k] = await walk(v);
    if (typeof node._sanityAsset === 'string') out.asset = { _type: 'reference', _ref: await asset(node._sanityAsset) };
    return out;
  };
  const lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l.trim());
  const docs = await Promise.all(lines.map((l) => walk(JSON.parse(l))));
  return [...docs, ...assets.values()];
}

/**
 * Starts the fake on 127.0.0.1 (a free port unless given). `requests` records what each
 * query asked for, so tests can tell which client (token, perspective, source map) called.
 * @param {{ documents?: Array<{ _id: string, _type: string, [field: string]: unknown }>, token?: string, port?: number, log?: (message: string) => void }} [options]
 */
export async function startFakeLake({ documents = [], token, port = 0, log = () => {} } = {}) {
  const docs = [...documents];
  /** @type {{ perspective: string, authenticated: boolean, resultSourceMap: string | null, tag: string | null, query: string | null }[]} */
  const requests = [];
  const send = (res, status, body) => {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const match = /^\/v[^/]+\/data\/query\/([^/]+)$/.exec(url.pathname);
    if (!match || !['GET', 'POST'].includes(req.method ?? '')) return send(res, 404, { error: 'Not found' });
    const auth = req.headers.authorization;
    const authenticated = Boolean(token && auth === `Bearer ${token}`);
    if (auth && !authenticated) return send(res, 401, { error: 'Unauthorized', message: 'Session not found', statusCode: 401 });
    let query = url.searchParams.get('query');
    const params = {};
    try {
      for (const [k, v] of url.searchParams) if (k.startsWith('$')) params[k.slice(1)] = JSON.parse(v);
      if (req.method === 'POST') {
        let raw = '';
        for await (const chunk of req) raw += chunk;
        const body = JSON.parse(raw || '{}');
        query = body.query ?? query;
        Object.assign(params, body.params ?? {});
      }
    } catch {
      return send(res, 400, { error: 'Bad request' });
    }
    const perspective = url.searchParams.get('perspective') ?? 'published';
    requests.push({ perspective, authenticated, resultSourceMap: url.searchParams.get('resultSourceMap'), tag: url.searchParams.get('tag'), query });
    log(`${perspective}${authenticated ? ' (token)' : ''} ${query?.replace(/\s+/g, ' ').slice(0, 80)}`);
    if (!query) return send(res, 400, { error: 'Missing query' });
    const visible = authenticated ? docs : docs.filter((d) => !d._id.includes('.'));
    try {
      const started = Date.now();
      const dataset = withPerspective(visible, perspective);
      const value = await evaluate(parse(query, { params }), { dataset, params, timestamp: new Date() });
      const result = await value.get();
      const sourceMap = url.searchParams.get('resultSourceMap') ? { resultSourceMap: approximateSourceMap(result, dataset) } : {};
      send(res, 200, { query, result, ...sourceMap, ms: Date.now() - started });
    } catch (error) {
      send(res, 400, { error: { description: String(error?.message ?? error), type: 'queryParseError' } });
    }
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`,
    documents: docs,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// Command line: a standalone server (used by playwright.config.ts for the hosted-world site).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const arg = (name) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const documents = arg('dataset') ? await readDataset(arg('dataset'), { projectId: arg('project') ?? 'fake' }) : [];
  if (arg('secret')) documents.push(previewSecretDocument({ secret: arg('secret') }));
  if (arg('expired-secret')) documents.push(previewSecretDocument({ secret: arg('expired-secret'), updatedAt: new Date(Date.now() - 2 * 60 * 60 * 1000) }));
  const lake = await startFakeLake({ documents, token: arg('token'), port: Number(arg('port') ?? 0), log: process.env.FAKE_LAKE_LOG ? (m) => console.log(`[fake-lake] ${m}`) : undefined });
  console.log(`[fake-lake] ${documents.length} documents at ${lake.url}`);
}
