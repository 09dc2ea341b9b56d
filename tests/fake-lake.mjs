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
//
// Writes, as @sanity/client sends them (the hosted private store, app/sanity/hosted.server.ts):
//   POST /v{apiVersion}/data/mutate/{dataset}?returnIds=…&returnDocuments=…&visibility=…&dryRun=…
//        {"mutations": [...], "transactionId"?: "…"}
//   GET  /v{apiVersion}/data/doc/{dataset}/{id[,id…]}      (client.getDocument)
// As documented for the real API: a request is one transaction, applied whole or not at all
// (Node runs it in one synchronous step, so concurrent requests see it entirely or not yet);
// every document it changes gets the transaction id as its new `_rev` (transactionId if given,
// which must be new in the dataset), `_updatedAt`, and `_createdAt` when created.
//   create             fails (409) when the id exists; an id ending in "." is a prefix for a new one
//   createIfNotExists  a no-op when the id exists
//   createOrReplace    replaces (keeps `_createdAt`)
//   delete {id}        a no-op when missing
//   patch {id, ifRevisionID?, set, setIfMissing, unset, inc, dec}  applied in that order, on
//                      attribute paths (`a` or `a.b`); fails (409) when `_rev` is not ifRevisionID,
//                      and (404) when the document does not exist
// A failed mutation answers Sanity's error envelope, {"error": {"type": "mutationError",
// "description", "items": [{"error": {"type", "id", "description"}, "index"}]}}, and changes nothing.
// Writes need the write token (`writeToken`, else `token`): none or a wrong one 401, a read
// token 403. Not modelled: query selections in patch/delete, insert, diffMatchPatch, JSONMatch
// beyond dotted keys, history, listeners; `visibility` is accepted and every write is visible at once.
//
// In a test:   const lake = await startFakeLake({ documents, token, writeToken }); … lake.url … await lake.close();
// As a server: node tests/fake-lake.mjs --port 3651 --token T [--write-token W] [--dataset studio/dataset/production.ndjson]
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
  typeof segment === 'number'
    ? `[${segment}]`
    : typeof segment === 'string'
      ? `['${segment.replace(/['\\]/g, '\\$&')}']`
      : `[?(@._key=='${segment._key}')]`;
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
        node.forEach((item, i) =>
          walk(item, at.concat(item && typeof item._key === 'string' ? { _key: item._key } : i)),
        );
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
      mappings[jsonPath(at)] = {
        type: 'value',
        source: { type: 'documentValue', document: documentIndex.get(found.index), path: paths.push(found.path) - 1 },
      };
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
      metadata: {
        _type: 'sanity.imageMetadata',
        dimensions: { _type: 'sanity.imageDimensions', width, height, aspectRatio: width / height },
      },
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

/** A failed transaction: the HTTP status and Sanity's mutation error envelope. */
class MutationFailure extends Error {
  constructor(status, index, type, id, description) {
    super(description);
    this.status = status;
    this.body = {
      error: {
        type: 'mutationError',
        description: `Mutation(s) failed with 1 error(s)`,
        items: [{ error: { type, id, description }, index }],
      },
    };
  }
}
class BadRequest extends Error {}

const newId = () => randomUUID().replace(/-/g, '').slice(0, 22);
const ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;

/** `a.b.c` as keys; anything else (arrays, JSONMatch filters) is not modelled here. */
function attributePath(path) {
  if (typeof path !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(path))
    throw new BadRequest(`Unsupported patch path ${JSON.stringify(path)} (the fake takes attribute paths only)`);
  const keys = path.split('.');
  if (keys[0] === '_id' || keys[0] === '_type' || keys[0] === '_rev') throw new BadRequest(`Cannot patch ${keys[0]}`);
  return keys;
}
function getAt(doc, keys) {
  return keys.reduce((node, key) => (node && typeof node === 'object' ? node[key] : undefined), doc);
}
function parentOf(doc, keys, create) {
  let node = doc;
  for (const key of keys.slice(0, -1)) {
    if (!node[key] || typeof node[key] !== 'object' || Array.isArray(node[key])) {
      if (!create) return undefined;
      node[key] = {};
    }
    node = node[key];
  }
  return node;
}

/** One patch on a copy of the document, in the order set, setIfMissing, unset, inc, dec. */
const PATCH_KEYS = new Set(['id', 'ifRevisionID', 'set', 'setIfMissing', 'unset', 'inc', 'dec']);
function applyPatch(doc, patch) {
  for (const key of Object.keys(patch))
    if (!PATCH_KEYS.has(key)) throw new BadRequest(`patch.${key} is not modelled by the fake`);
  const next = structuredClone(doc);
  const entries = (op) => {
    const value = patch[op];
    if (value === undefined) return [];
    if (!value || typeof value !== 'object' || Array.isArray(value))
      throw new BadRequest(`patch.${op} must be an object`);
    return Object.entries(value).map(([path, v]) => [attributePath(path), v]);
  };
  for (const [keys, value] of entries('set')) parentOf(next, keys, true)[keys.at(-1)] = structuredClone(value);
  for (const [keys, value] of entries('setIfMissing'))
    if (getAt(next, keys) === undefined) parentOf(next, keys, true)[keys.at(-1)] = structuredClone(value);
  if (patch.unset !== undefined) {
    if (!Array.isArray(patch.unset)) throw new BadRequest('patch.unset must be an array of paths');
    for (const keys of patch.unset.map(attributePath)) {
      const parent = parentOf(next, keys, false);
      if (parent) delete parent[keys.at(-1)];
    }
  }
  for (const [op, sign] of [
    ['inc', 1],
    ['dec', -1],
  ]) {
    for (const [keys, by] of entries(op)) {
      if (typeof by !== 'number') throw new BadRequest(`patch.${op} takes numbers`);
      const current = getAt(next, keys);
      // As documented: a path that holds no number is left alone.
      if (typeof current === 'number') parentOf(next, keys, false)[keys.at(-1)] = current + sign * by;
    }
  }
  return next;
}

/**
 * Applies one transaction to `docs` (an array, changed in place only if every mutation succeeds);
 * `usedTransactionIds` keeps the ids of committed transactions, which may not be used again.
 * Returns Sanity's answer body; throws MutationFailure (409/404) or BadRequest (400).
 */
export function applyTransaction(
  docs,
  mutations,
  { transactionId, usedTransactionIds = new Set(), dryRun = false, returnDocuments = false, now = new Date() } = {},
) {
  if (!Array.isArray(mutations) || mutations.length === 0)
    throw new BadRequest('Expected "mutations" to be a non-empty array');
  const rev = transactionId ?? newId();
  if (usedTransactionIds.has(rev) || docs.some((d) => d._rev === rev))
    throw new MutationFailure(
      409,
      0,
      'transactionIdConflictError',
      rev,
      `The transaction ID "${rev}" is already in use`,
    );
  const at = now.toISOString();
  const staged = new Map();
  const current = (id) => (staged.has(id) ? staged.get(id) : (docs.find((d) => d._id === id) ?? null));
  const stamp = (doc, createdAt) => ({ ...structuredClone(doc), _createdAt: createdAt, _updatedAt: at, _rev: rev });
  const results = [];
  mutations.forEach((mutation, index) => {
    const ops = mutation && typeof mutation === 'object' ? Object.keys(mutation) : [];
    if (ops.length !== 1) throw new BadRequest(`Mutation ${index} must have exactly one operation`);
    const op = ops[0];
    const body = mutation[op];
    if (!body || typeof body !== 'object') throw new BadRequest(`Mutation ${index}: ${op} needs an object`);
    if (op === 'create' || op === 'createIfNotExists' || op === 'createOrReplace') {
      if (typeof body._type !== 'string' || !body._type)
        throw new BadRequest(`Mutation ${index}: a document needs _type`);
      let id = body._id;
      if (op === 'create' && (id === undefined || id.endsWith('.'))) id = `${id ?? ''}${newId()}`;
      if (typeof id !== 'string' || !ID.test(id))
        throw new BadRequest(`Mutation ${index}: malformed document ID ${JSON.stringify(id)}`);
      const existing = current(id);
      if (op === 'create' && existing)
        throw new MutationFailure(
          409,
          index,
          'documentAlreadyExistsError',
          id,
          `Document by ID "${id}" already exists`,
        );
      if (op === 'createIfNotExists' && existing) return;
      staged.set(id, stamp({ ...body, _id: id }, existing?._createdAt ?? at));
      results.push({ id, operation: existing ? 'update' : 'create' });
    } else if (op === 'delete') {
      if (typeof body.id !== 'string')
        throw new BadRequest(`Mutation ${index}: delete by query is not modelled by the fake`);
      if (!current(body.id)) return;
      staged.set(body.id, null);
      results.push({ id: body.id, operation: 'delete' });
    } else if (op === 'patch') {
      if (typeof body.id !== 'string')
        throw new BadRequest(`Mutation ${index}: patch by query is not modelled by the fake`);
      const doc = current(body.id);
      if (!doc)
        throw new MutationFailure(404, index, 'documentNotFoundError', body.id, `Document "${body.id}" not found`);
      if (body.ifRevisionID !== undefined && doc._rev !== body.ifRevisionID) {
        throw new MutationFailure(
          409,
          index,
          'documentRevisionIDDoesNotMatchError',
          body.id,
          `Document "${body.id}" has unexpected revision ID ("${doc._rev}"), expected "${body.ifRevisionID}"`,
        );
      }
      staged.set(body.id, stamp(applyPatch(doc, body), doc._createdAt ?? at));
      results.push({ id: body.id, operation: 'update' });
    } else {
      throw new BadRequest(`Mutation ${index}: unknown operation ${op}`);
    }
  });
  if (!dryRun) {
    usedTransactionIds.add(rev);
    for (const [id, doc] of staged) {
      const i = docs.findIndex((d) => d._id === id);
      if (doc === null) {
        if (i >= 0) docs.splice(i, 1);
      } else if (i >= 0) docs[i] = doc;
      else docs.push(doc);
    }
  }
  return {
    transactionId: rev,
    results: results.map((r) => (returnDocuments ? { ...r, document: staged.get(r.id) ?? undefined } : r)),
    documentIds: results.map((r) => r.id),
  };
}

/**
 * Starts the fake on 127.0.0.1 (a free port unless given). `requests` records what each
 * query asked for, so tests can tell which client (token, perspective, source map) called.
 * `writes` records each mutate request (its transaction id and the status answered).
 * @param {{ documents?: Array<{ _id: string, _type: string, [field: string]: unknown }>, token?: string, writeToken?: string, port?: number, log?: (message: string) => void }} [options]
 */
export async function startFakeLake({ documents = [], token, writeToken = token, port = 0, log = () => {} } = {}) {
  const docs = [...documents];
  /** @type {{ transactionId: string | null, status: number, mutations: number }[]} */
  const writes = [];
  const usedTransactionIds = new Set();
  /** @type {{ perspective: string, authenticated: boolean, resultSourceMap: string | null, tag: string | null, query: string | null }[]} */
  const requests = [];
  const send = (res, status, body) => {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const unauthorized = (res) =>
    send(res, 401, { error: 'Unauthorized', message: 'Session not found', statusCode: 401 });
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const auth = req.headers.authorization;
    const canWrite = Boolean(writeToken && auth === `Bearer ${writeToken}`);
    const authenticated = canWrite || Boolean(token && auth === `Bearer ${token}`);
    if (auth && !authenticated) return unauthorized(res);

    const mutate = /^\/v[^/]+\/data\/mutate\/([^/]+)$/.exec(url.pathname);
    if (mutate) {
      if (req.method !== 'POST') return send(res, 405, { error: 'Method not allowed', statusCode: 405 });
      if (!authenticated) return unauthorized(res);
      if (!canWrite)
        return send(res, 403, {
          error: 'Forbidden',
          message: 'Insufficient permissions; permission "update" required',
          statusCode: 403,
        });
      let body;
      try {
        let raw = '';
        for await (const chunk of req) raw += chunk;
        body = JSON.parse(raw || '{}');
      } catch {
        return send(res, 400, { error: { description: 'Malformed JSON body', type: 'httpBadRequest' } });
      }
      const flag = (name) => url.searchParams.get(name) === 'true';
      const visibility = url.searchParams.get('visibility') ?? 'sync';
      if (!['sync', 'async', 'deferred'].includes(visibility))
        return send(res, 400, { error: { description: `Unknown visibility ${visibility}`, type: 'httpBadRequest' } });
      const transactionId = body.transactionId ?? url.searchParams.get('transactionId') ?? undefined;
      const record = {
        transactionId: transactionId ?? null,
        status: 200,
        mutations: Array.isArray(body.mutations) ? body.mutations.length : 0,
      };
      writes.push(record);
      try {
        const answer = applyTransaction(docs, body.mutations, {
          transactionId,
          usedTransactionIds,
          dryRun: flag('dryRun') || body.dryRun === true,
          returnDocuments: flag('returnDocuments'),
        });
        record.transactionId = answer.transactionId;
        log(
          `mutate ${answer.transactionId}: ${answer.results.map((r) => `${r.operation} ${r.id}`).join(', ') || 'no change'}`,
        );
        return send(
          res,
          200,
          flag('returnIds') || flag('returnDocuments')
            ? answer
            : { transactionId: answer.transactionId, results: answer.results },
        );
      } catch (error) {
        if (error instanceof MutationFailure) {
          record.status = error.status;
          log(`mutate refused (${error.status}): ${error.message}`);
          return send(res, error.status, error.body);
        }
        if (error instanceof BadRequest) {
          record.status = 400;
          return send(res, 400, { error: { description: error.message, type: 'httpBadRequest' } });
        }
        throw error;
      }
    }

    const doc = /^\/v[^/]+\/data\/doc\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (doc) {
      if (req.method !== 'GET') return send(res, 405, { error: 'Method not allowed', statusCode: 405 });
      const ids = decodeURIComponent(doc[2]).split(',');
      const documents = [];
      const omitted = [];
      for (const id of ids) {
        const found = docs.find((d) => d._id === id);
        if (found && !authenticated && id.includes('.')) omitted.push({ id, reason: 'permission' });
        else if (found) documents.push(found);
        else omitted.push({ id, reason: 'existence' });
      }
      return send(res, 200, { documents, omitted });
    }

    const match = /^\/v[^/]+\/data\/query\/([^/]+)$/.exec(url.pathname);
    if (!match || !['GET', 'POST'].includes(req.method ?? '')) return send(res, 404, { error: 'Not found' });
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
    requests.push({
      perspective,
      authenticated,
      resultSourceMap: url.searchParams.get('resultSourceMap'),
      tag: url.searchParams.get('tag'),
      query,
    });
    log(`${perspective}${authenticated ? ' (token)' : ''} ${query?.replace(/\s+/g, ' ').slice(0, 80)}`);
    if (!query) return send(res, 400, { error: 'Missing query' });
    const visible = authenticated ? docs : docs.filter((d) => !d._id.includes('.'));
    try {
      const started = Date.now();
      const dataset = withPerspective(visible, perspective);
      const value = await evaluate(parse(query, { params }), { dataset, params, timestamp: new Date() });
      const result = await value.get();
      const sourceMap = url.searchParams.get('resultSourceMap')
        ? { resultSourceMap: approximateSourceMap(result, dataset) }
        : {};
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
    writes,
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
  if (arg('expired-secret'))
    documents.push(
      previewSecretDocument({ secret: arg('expired-secret'), updatedAt: new Date(Date.now() - 2 * 60 * 60 * 1000) }),
    );
  const lake = await startFakeLake({
    documents,
    token: arg('token'),
    writeToken: arg('write-token') ?? arg('token'),
    port: Number(arg('port') ?? 0),
    log: process.env.FAKE_LAKE_LOG ? (m) => console.log(`[fake-lake] ${m}`) : undefined,
  });
  console.log(`[fake-lake] ${documents.length} documents at ${lake.url}`);
}
