// The lake's GROQ worker (app/lake/query-pool.server.ts starts it; ADR 0025, "Limits"): queries
// are parsed and evaluated here, off the thread that serves the site's pages, over this worker's
// own copy of the lake's documents (a snapshot, then each commit's changed documents). The pool
// ends the worker when a query passes its time limit or its client goes away. Plain JavaScript:
// Node runs it from the checkout, as it reads the migrations.
import { parentPort } from 'node:worker_threads';
import { evaluate, parse } from 'groq-js';
import { applyPerspective } from '../sanity/perspective.js';

/** @type {Map<string, any>} */
let docs = new Map();
/** @type {Record<string, { docs: any[]; byId: Map<string, any> }>} */
let views = {};

function view(perspective) {
  if (!views[perspective]) {
    const all = [...docs.values()];
    const shaped = perspective === 'raw' ? all : applyPerspective(all, perspective);
    views[perspective] = { docs: shaped, byId: new Map(shaped.map((d) => [d._id, d])) };
  }
  return views[perspective];
}

parentPort.on('message', async (message) => {
  if (message.type === 'snapshot') {
    docs = new Map(message.docs.map((d) => [d._id, d]));
    views = {};
    return;
  }
  if (message.type === 'changes') {
    for (const [id, doc] of message.changes) {
      if (doc) docs.set(id, doc);
      else docs.delete(id);
    }
    views = {};
    return;
  }
  if (message.type !== 'query') return;
  const { id, query, params, perspective } = message;
  let tree;
  try {
    tree = parse(query, { params });
  } catch (error) {
    parentPort.postMessage({ id, error: { kind: 'syntax', message: String(error?.message ?? error) } });
    return;
  }
  try {
    const dataset = view(perspective);
    const value = await evaluate(tree, {
      dataset: dataset.docs,
      params,
      dereference: ({ _ref }) => dataset.byId.get(_ref) ?? null,
    });
    // The answer as JSON text: one string crosses to the main thread, not a tree of objects.
    parentPort.postMessage({ id, json: JSON.stringify((await value.get()) ?? null) });
  } catch (error) {
    parentPort.postMessage({ id, error: { kind: 'query', message: String(error?.message ?? error) } });
  }
});
