import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { readFile } from 'node:fs/promises';
import type { ImageResizer } from '~/features/images/resize.server';
import type { ImageAssetFile } from '~/sanity/embedded.server';
import type { SanityDocument } from '~/sanity/types';
import { acceptUpload, downloadName, lakeResizer, normalizeLakeRequest, type LakeResizeOptions } from './images.server';
import {
  checkQuery,
  checkTransactionSize,
  checkWrites,
  decodeSegment,
  LAKE_LIMITS,
  objectBody,
  parseJson,
  readBody,
  throttledLog,
  type LakeLimits,
} from './limits.server';
import { LakeError, type LakeDocument } from './mutations';
import { readPreferences, writePreferences } from './preferences.server';
import { QueryPool, type QueryPoolLimits } from './query-pool.server';
import { listenerFilter, paramsFromSearch, readPerspective } from './query.server';
import { touchesPublished, type LakeStore, type LakeTransaction } from './store.server';

/**
 * The local Content Lake's HTTP API: the part of Sanity's API the Studio (4.22.1) calls to list,
 * edit, publish, unpublish, discard, delete, create, upload images and read history (ADR 0025).
 * Shapes learned by pointing the published Studio at a logging server and from Sanity's docs.
 * What is not here answers 404 with the path, and is logged: the Studio copes with most.
 */
export type Editor = { id: string; name: string; email: string };

export type LakeApiOptions = {
  store: LakeStore;
  /** The Studio's project id (the host name's first label, and `/projects/{id}`). */
  projectId: string;
  /** The site's project id in image paths (`/images/{id}/{dataset}/…`, the embedded world's `embedded`). */
  assetProjectId?: string;
  dataset: string;
  /** The signed-in editor, or null (then only the public endpoints answer: 401). */
  authenticate: (req: Request) => Promise<Editor | null>;
  /** Ends the request's editor session (the Studio's sign-out, `POST /auth/logout`). */
  signOut?: (req: Request) => Promise<void>;
  /** The sign-in the Studio offers when nobody is signed in (the site's editor sign-in page). */
  providers?: { name: string; title: string; url: string }[];
  /** Origins allowed to call the API from a browser (the site's, where /studio is served). */
  allowedOrigins: (origin: string) => boolean;
  /**
   * Images as files the site's resizer reads (bundled, and uploaded ones written out), and the
   * site's one resizer: its slots, queue (503 past it) and disk cache bound the lake's resizes too.
   * Without it only the originals of uploaded images are served (unit tests).
   */
  images?: {
    file: (fileName: string) => Promise<ImageAssetFile | undefined>;
    resizer: Pick<ImageResizer, 'get' | 'queueLimit'>;
  } & LakeResizeOptions;
  log?: (message: string) => void;
  /** The bounds of one request (limits.server.ts); tests lower them. */
  limits?: Partial<LakeLimits>;
  /** The query workers' size, queue and time limit (query-pool.server.ts); tests lower them. */
  queries?: Partial<QueryPoolLimits>;
  /**
   * A path the API answers under on the site's own origin (`/studio/api`: a public site's TLS
   * front serves the Studio and its API as one host, issue 39 item 5). Stripped before routing.
   */
  pathPrefix?: string;
};

type Req = IncomingMessage | Http2ServerRequest;
type Res = ServerResponse | Http2ServerResponse;

const QUIET_404 = /^\/(schedules|socket|comments|tasks)\b/;
/** An image upload (the JSON bodies are bounded by LakeLimits.bodyBytes). */
const MAX_UPLOAD = 10 * 1024 * 1024;
/** How long a listener may stay silent before a keep-alive comment (Sanity sends one too). */
const HEARTBEAT_MS = 25_000;

export function createLakeHandler(options: LakeApiOptions) {
  const { store, projectId, dataset } = options;
  const assetProjectId = options.assetProjectId ?? projectId;
  const log = options.log ?? (() => {});
  const resized = options.images && lakeResizer(options.images.resizer, options.images);
  const limits: LakeLimits = { ...LAKE_LIMITS, ...options.limits };
  // One line per refused request at most every 10 s: a flood of them cannot fill the log.
  const refused = throttledLog(log);
  // Endpoints the lake lacks (reached by signed-in editors only): a separate count, so a flood of
  // refusals does not hide them.
  const notProvided = throttledLog(log);
  const listeners = new Set<(tx: LakeTransaction) => void>();
  /** Open listeners per editor id (LakeLimits.listenersPerEditor). */
  const openListeners = new Map<string, number>();
  // Queries run in worker threads, never on the thread that serves the site's pages.
  const queries = new QueryPool(store, options.queries);
  store.onCommit((tx) => {
    for (const listener of listeners) listener(tx);
  });
  let publicLiveStreams = 0;
  const json = (res: Res, status: number, body: unknown) =>
    send(res, status, JSON.stringify(body), 'application/json; charset=utf-8');
  const body = async (req: Req, what: string) =>
    parseJson(await readBody(req, limits.bodyBytes, limits.bodyMs), limits, what);

  return Object.assign(handle, { queries, close: () => queries.close() });

  async function handle(req: Req, res: Res): Promise<void> {
    const url = new URL(req.url ?? '/', 'https://lake');
    // Every answer is what its Content-Type says (an uploaded image is never read as a page).
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (options.pathPrefix && url.pathname.startsWith(`${options.pathPrefix}/`))
      url.pathname = url.pathname.slice(options.pathPrefix.length);
    const origin = typeof req.headers.origin === 'string' ? req.headers.origin : '';
    if (origin && options.allowedOrigins(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
      res.setHeader('Vary', 'Origin');
    }
    if (req.method === 'OPTIONS') {
      if (origin && options.allowedOrigins(origin)) {
        res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
        res.setHeader(
          'Access-Control-Allow-Headers',
          String(req.headers['access-control-request-headers'] ?? 'authorization, content-type'),
        );
        res.setHeader('Access-Control-Max-Age', '600');
      }
      res.writeHead(204);
      res.end();
      return;
    }
    // `/v2025-02-19/data/query/production` → `/data/query/production`
    const path = url.pathname.replace(/^\/v\d{4}-\d{2}-\d{2}|^\/v1|^\/vX/, '');
    try {
      // Images are public, like Sanity's CDN (their names are content hashes).
      const image = /^\/images\/([^/]+)\/([^/]+)\/([A-Za-z0-9-]+\.[a-z]+)$/.exec(url.pathname);
      if (image && req.method === 'GET') return await sendImage(req, res, image[3], url.searchParams);
      // `/data/ping/{dataset}`: Studio 5 times it (with no token) to read Sanity's shard header.
      if (path === '/ping' || path === `/data/ping/${dataset}`) return send(res, 200, 'PONG', 'text/plain');
      // @sanity/client's CORS check, made when an event stream fails (credentials omitted).
      if (path === '/check/cors')
        return json(res, 200, { result: { allowed: Boolean(origin && options.allowedOrigins(origin)) } });
      // Live events (the Presentation tool's share menu and loaders): see liveEvents.
      if (new RegExp(`^/data/live/events/${dataset}$`).test(path) && req.method === 'GET') {
        const drafts = url.searchParams.get('includeDrafts') === 'true';
        if (!drafts || (await options.authenticate(toRequest(req, url)))) return liveEvents(req, res, drafts);
        return json(res, 401, { error: 'Unauthorized', message: 'Sign in as an editor', statusCode: 401 });
      }
      if (path === '/auth/logout' && req.method === 'POST') {
        await options.signOut?.(toRequest(req, url));
        return json(res, 200, {});
      }
      const editor = await options.authenticate(toRequest(req, url));
      if (!editor) {
        if (path === '/users/me') return json(res, 200, {});
        if (path === '/auth/providers') return json(res, 200, { providers: options.providers ?? [] });
        if (!QUIET_404.test(path)) refused(`refused ${req.method} ${url.pathname}: not signed in`);
        return json(res, 401, { error: 'Unauthorized', message: 'Sign in as an editor', statusCode: 401 });
      }
      return await route(req, res, url, path, editor);
    } catch (error) {
      // The client went away: nothing to answer.
      if (error instanceof LakeError && error.status === 499) return void res.destroy();
      if (error instanceof LakeError) {
        if (res.headersSent) return void res.destroy();
        if (error.status === 429) res.setHeader('Retry-After', '2');
        return json(res, error.status, lakeError(error));
      }
      log(
        `${req.method} ${url.pathname} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      return json(res, 500, {
        error: 'Internal Server Error',
        message: 'The local Content Lake failed',
        statusCode: 500,
      });
    }
  }

  async function route(req: Req, res: Res, url: URL, path: string, editor: Editor): Promise<void> {
    const q = url.searchParams;
    const data = (kind: string) => new RegExp(`^/data/${kind}/${dataset}(?:/(.*))?$`).exec(path);
    let m: RegExpExecArray | null;

    if (path === '/users/me') return json(res, 200, user(editor));
    if ((m = /^\/users\/(.+)$/.exec(path)) && !m[1].includes('/'))
      return json(
        res,
        200,
        m[1].split(',').map((id) => (id === editor.id ? user(editor) : { id, displayName: id })),
      );
    if ((m = /^\/users\/me\/keyvalue(?:\/(.*))?$/.exec(path))) return keyValue(req, res, m[1], editor);
    if (path === `/projects/${projectId}`) return json(res, 200, project(editor));
    if (path === `/projects/${projectId}/datasets`) return json(res, 200, [{ name: dataset, aclMode: 'private' }]);
    if (path === `/projects/${projectId}/features` || path === '/features') return json(res, 200, []);
    if (path === `/projects/${projectId}/datasets/${dataset}/acl`) return json(res, 200, grants());
    if (path === `/projects/${projectId}/acl` || path === '/acl') return json(res, 200, grants());
    if (path === `/projects/${projectId}/user-applications` || path.startsWith('/user-applications'))
      return json(res, 200, []);
    // Sanity's upsells, trials and limits (`/journey/*`): none here. `null` is the Studio's "nothing
    // to show" (a 404 was, too, but each one is a console error: issue 39).
    if (path.startsWith('/journey/')) return json(res, 200, null);
    // The help menu's links from Sanity (and its version check's answer): none offline.
    if (path === '/help') return json(res, 200, {});
    // Studio 5 registers its schema's descriptors on load; the lake keeps no schema registry, so
    // every set is "complete" (nothing more to send).
    if (path === '/descriptors/claim' || path === '/descriptors/synchronize')
      return json(
        res,
        200,
        path === '/descriptors/claim' ? { synchronization: { type: 'complete' } } : { type: 'complete' },
      );
    if (path === '/intake/telemetry-status') return json(res, 200, { status: 'denied' });
    if (path.startsWith('/intake/')) return json(res, 200, {});

    if (data('query')) {
      let query = q.get('query') ?? '';
      let params = paramsFromSearch(q);
      let perspective = q.get('perspective');
      if (req.method === 'POST') {
        const posted = objectBody<{
          query: string;
          params: Record<string, unknown>;
          perspective: string;
          options: { perspective?: string };
        }>(await body(req, 'The query body'), 'The query body');
        if (posted.params !== undefined) objectBody(posted.params, 'The query parameters');
        query = typeof posted.query === 'string' ? posted.query : query;
        params = { ...params, ...(posted.params ?? {}) };
        perspective = String(posted.perspective ?? posted.options?.perspective ?? perspective ?? '') || null;
      }
      checkQuery(query, params, limits);
      const started = Date.now();
      // The worker ends with the query if the client goes away first.
      const result = await queries.run(query, params, readPerspective(perspective), clientGone(res));
      return send(
        res,
        200,
        `{"ms":${Date.now() - started},"query":${JSON.stringify(query)},"result":${result}}`,
        'application/json; charset=utf-8',
      );
    }
    if ((m = data('doc')) && m[1]) {
      const ids = decodeSegment(m[1]).split(',');
      const documents: LakeDocument[] = [];
      const omitted: { id: string; reason: string }[] = [];
      for (const id of ids) {
        const doc = store.get(id);
        if (doc) documents.push(doc);
        else omitted.push({ id, reason: 'existence' });
      }
      return json(res, 200, { documents, omitted });
    }
    if (data('listen')) return listen(req, res, q, editor);
    if (data('mutate') && req.method === 'POST') {
      const posted = objectBody<{ mutations: unknown; transactionId: string; dryRun: unknown }>(
        await body(req, 'The mutations'),
        'The mutations',
      );
      if (!Array.isArray(posted.mutations)) throw new LakeError('mutations must be an array', 400);
      checkTransactionSize(posted.mutations.length, limits, 'mutations');
      // `dryRun` (query or body, as Sanity takes it): checked and answered as a commit would be,
      // nothing written (store.mutate).
      const mutations = await expandQueryDeletes(posted.mutations as Record<string, unknown>[], res);
      checkTransactionSize(mutations.length, limits, 'mutations');
      const tx = await store.mutate(mutations, editor.id, posted.transactionId, {
        dryRun: isDryRun(q, posted),
        signal: clientGone(res),
        check: (docs) => checkWrites(docs, limits),
      });
      return json(res, 200, {
        transactionId: tx.id,
        results: tx.effects.map((e) => ({
          id: e.id,
          operation: !e.after ? 'delete' : e.before ? 'update' : 'create',
          ...(q.get('returnDocuments') === 'true' && e.after ? { document: e.after } : {}),
        })),
        ...(q.get('returnDocuments') === 'true' ? { documents: tx.effects.map((e) => e.after).filter(Boolean) } : {}),
      });
    }
    if (data('actions') && req.method === 'POST') {
      const posted = objectBody<{ actions: unknown; transactionId: string; dryRun: unknown }>(
        await body(req, 'The actions'),
        'The actions',
      );
      const actions = Array.isArray(posted.actions) ? posted.actions : posted.actions ? [posted.actions] : [];
      checkTransactionSize(actions.length, limits, 'actions');
      const tx = await store.act(actions as Record<string, unknown>[], editor.id, posted.transactionId, {
        dryRun: isDryRun(q, posted),
        signal: clientGone(res),
        check: (docs) => checkWrites(docs, limits),
      });
      return json(res, 200, { transactionId: tx.id });
    }
    if ((m = data('history')) && m[1]) return history(res, m[1], q);
    // The delete and unpublish dialogs ask which documents of *other* datasets refer to this one
    // (the references within the dataset they query themselves): one dataset here, so none.
    if (
      (m = data('references')) &&
      /^documents\/[^/]+\/to$/.test(m[1] ?? '') &&
      q.get('excludeInternalReferences') === 'true'
    )
      return json(res, 200, { totalCount: 0, references: [] });
    if (new RegExp(`^/assets/images/${dataset}$`).test(path) && req.method === 'POST')
      return upload(req, res, q, editor);

    // Sanity's product announcements, trials, help, scheduled publishing, presence (a websocket):
    // not provided, and the Studio works without them (ADR 0025). Anything else is logged.
    if (!QUIET_404.test(path)) notProvided(`not provided: ${req.method} ${url.pathname}${url.search}`);
    return json(res, 404, { error: 'Not Found', message: `The local Content Lake has no ${path}`, statusCode: 404 });
  }

  /**
   * `{delete: {query, params}}` (Sanity's delete by query; the Studio's Presentation tool clears
   * expired preview secrets with one) as a delete of each id the query finds now, raw perspective.
   * Each id is then checked as any other delete (content ids and drafts only).
   */
  async function expandQueryDeletes(
    mutations: Record<string, unknown>[],
    res: Res,
  ): Promise<Record<string, unknown>[]> {
    const out: Record<string, unknown>[] = [];
    for (const m of mutations) {
      const del = m.delete as { id?: unknown; query?: unknown; params?: unknown } | undefined;
      if (!del || typeof del.id === 'string' || typeof del.query !== 'string') {
        out.push(m);
        continue;
      }
      const params = del.params && typeof del.params === 'object' ? (del.params as Record<string, unknown>) : {};
      // In the query workers, bounded as any query (query-pool.server.ts); a query the workers
      // refuse (syntax, time, size) refuses the whole transaction.
      checkQuery(del.query, params, limits);
      const found: unknown = JSON.parse(await queries.run(del.query, params as never, 'raw', clientGone(res)));
      const list = Array.isArray(found) ? found : found ? [found] : [];
      for (const doc of list)
        if (doc && typeof (doc as { _id?: unknown })._id === 'string')
          out.push({ delete: { id: (doc as { _id: string })._id } });
    }
    return out;
  }

  /**
   * `/data/live/events/{dataset}` (an EventSource: no Authorization header unless @sanity/client
   * uses its polyfill, which it does only with `includeDrafts` and a token). Sanity's public live
   * events carry cache tags of published content only; the lake has no tags, so it sends
   * `welcome`, then `restart` (refetch everything) after each commit the stream may know of: one
   * that changed a published document, or, for a signed-in editor's `includeDrafts` stream, any.
   * Nothing of a document is ever written to this stream.
   */
  function liveEvents(req: Req, res: Res, drafts: boolean) {
    // Anyone may open the public stream (it carries no content), so their number is bounded.
    if (!drafts && publicLiveStreams >= limits.publicLiveStreams)
      return json(res, 429, { error: 'Too Many Requests', message: 'Too many live event streams', statusCode: 429 });
    if (!drafts) publicLiveStreams++;
    const out = eventStream(
      req,
      res,
      (tx) => {
        if (drafts || touchesPublished(tx)) out.write(`id: ${tx.id}\nevent: restart\ndata: {}\n\n`);
      },
      () => {
        if (!drafts) publicLiveStreams--;
      },
    );
    out.write(`event: welcome\ndata: {}\n\n`);
  }

  /**
   * An event stream to one client: the headers, every commit to `onTx` from now on, a keep-alive
   * comment, and `onClose` once when either side ends it.
   */
  function eventStream(req: Req, res: Res, onTx: (tx: LakeTransaction) => void, onClose: () => void) {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      'X-Accel-Buffering': 'no',
    });
    const out = res as ServerResponse;
    listeners.add(onTx);
    const heartbeat = setInterval(() => out.write(': keep-alive\n\n'), HEARTBEAT_MS);
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      clearInterval(heartbeat);
      listeners.delete(onTx);
      onClose();
    };
    req.on('close', stop);
    res.on('close', stop);
    return out;
  }

  function user(editor: Editor) {
    return {
      id: editor.id,
      name: editor.name,
      displayName: editor.name,
      email: editor.email,
      provider: 'bawaba',
      // The Studio shows every tool to an "administrator"; what the lake allows is decided here,
      // not by this label (content only: no client data is reachable through the lake).
      role: 'administrator',
      roles: [{ name: 'administrator', title: 'Editor' }],
    };
  }

  function project(editor: Editor) {
    return {
      id: projectId,
      displayName: 'Bawaba Advisory (local)',
      studioHost: null,
      isBlocked: false,
      isDisabled: false,
      isDisabledByUser: false,
      metadata: {},
      organizationId: null,
      members: [
        {
          id: editor.id,
          role: 'administrator',
          roles: [{ name: 'administrator', title: 'Editor' }],
          isCurrentUser: true,
          isRobot: false,
        },
      ],
      features: [],
      pendingInvites: 0,
    };
  }

  function grants() {
    const all = ['read', 'update', 'create', 'history'];
    return [
      { filter: '_id in path("**")', permissions: all },
      { filter: '_id in path("drafts.**")', permissions: all },
      { filter: '_id in path("versions.**")', permissions: ['read', 'history'] },
    ];
  }

  /** The Studio's preferences, the signed-in editor's own, in the database (preferences.server.ts). */
  async function keyValue(req: Req, res: Res, keys: string | undefined, editor: Editor) {
    if (req.method === 'PUT' || req.method === 'POST' || req.method === 'PATCH')
      return json(res, 200, await writePreferences(store.db, editor.email, await body(req, 'The preferences'), limits));
    const wanted = [...new Set((keys ? decodeSegment(keys) : '').split(',').filter(Boolean))];
    if (wanted.length > limits.preferenceKeys)
      throw new LakeError(`Up to ${limits.preferenceKeys} preferences at once`, 413, 'validationError');
    return json(res, 200, await readPreferences(store.db, editor.email, wanted));
  }

  function listen(req: Req, res: Res, q: URLSearchParams, editor: Editor) {
    const query = q.get('query') ?? '*';
    const params = paramsFromSearch(q);
    checkQuery(query, params, limits, limits.listenQueryChars);
    const open = openListeners.get(editor.id) ?? 0;
    if (open >= limits.listenersPerEditor) {
      refused(`refused a listener of ${editor.id}: ${open} open`);
      throw new LakeError(
        `An editor may keep up to ${limits.listenersPerEditor} listeners open: close some Studio tabs`,
        429,
        'tooManyListeners',
      );
    }
    let matches: ReturnType<typeof listenerFilter>;
    try {
      matches = listenerFilter(query, params);
    } catch (error) {
      throw new LakeError(error instanceof Error ? error.message : String(error), 400, 'queryParseError');
    }
    openListeners.set(editor.id, open + 1);
    const includeResult = q.get('includeResult') !== 'false';
    const includePrevious = q.get('includePreviousRevision') === 'true';
    const mendoza = q.get('effectFormat') === 'mendoza';
    const events = new Set((q.get('events') ?? 'welcome,mutation').split(','));
    const visibility = q.get('visibility') ?? 'query';
    // Each transaction is sent in order, after the filter has been read on both states.
    let queue = Promise.resolve();
    const onTx = (tx: LakeTransaction) => {
      queue = queue.then(async () => {
        const hits = [];
        for (const effect of tx.effects) {
          if ((await matches(effect.after)) || (await matches(effect.before))) hits.push(effect);
          // groq-js settles in microtasks: let the site's requests in between documents.
          await new Promise((resolve) => setImmediate(resolve));
        }
        hits.forEach((effect, i) => {
          const transition = !effect.before ? 'appear' : !effect.after ? 'disappear' : 'update';
          write('mutation', {
            eventId: `${tx.id}#${effect.id}`,
            documentId: effect.id,
            transactionId: tx.id,
            transition,
            identity: tx.author,
            mutations: effect.after ? [{ createOrReplace: effect.after }] : [{ delete: { id: effect.id } }],
            previousRev: effect.previousRev ?? undefined,
            // The transaction's id for a deletion too, as Sanity sends it: the Studio chains a
            // document's events by previousRev → resultRev, and an event without one is never
            // applied (the draft a publish deleted stayed on screen until a 30 s resync).
            resultRev: tx.id,
            timestamp: tx.timestamp,
            visibility,
            transactionTotalEvents: hits.length,
            transactionCurrentEvent: i + 1,
            ...(includeResult && effect.after ? { result: effect.after } : {}),
            ...(includePrevious && effect.before ? { previous: effect.before } : {}),
            // Whole-document effects: `[0, doc]` is mendoza's "the value is this" (ADR 0025).
            ...(mendoza ? { effects: { apply: [0, effect.after], revert: [0, effect.before] } } : {}),
          });
        });
      });
    };
    const out = eventStream(req, res, onTx, () => {
      const left = (openListeners.get(editor.id) ?? 1) - 1;
      if (left > 0) openListeners.set(editor.id, left);
      else openListeners.delete(editor.id);
    });
    const write = (event: string, data: unknown) => out.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    if (events.has('welcome')) write('welcome', { listenerName: randomBytes(8).toString('hex') });
  }

  async function history(res: Res, rest: string, q: URLSearchParams) {
    let m: RegExpExecArray | null;
    if ((m = /^documents\/(.+)$/.exec(rest))) {
      const ids = decodeSegment(m[1]).split(',');
      const revision = q.get('revision');
      const time = q.get('time');
      const documents = [];
      for (const id of ids) {
        const doc = revision
          ? await store.revision(id, revision)
          : time
            ? await store.atTime(id, new Date(time))
            : store.get(id);
        if (doc) documents.push(doc);
      }
      return json(res, 200, { documents });
    }
    if ((m = /^events\/documents\/(.+)$/.exec(rest))) {
      const id = decodeSegment(m[1]);
      const limit = Math.min(Math.max(Number(q.get('limit') ?? 50), 1), 200);
      return json(res, 200, {
        events: { [id]: documentEvents(await store.transactions([id, draftOf(id)]), id).slice(0, limit) },
        nextCursor: '',
      });
    }
    if ((m = /^transactions\/(.+)$/.exec(rest))) {
      const ids = decodeSegment(m[1]).split(',');
      let txs = await store.transactions(ids);
      const from = q.get('fromTransaction');
      const to = q.get('toTransaction');
      if (from) {
        const at = txs.findIndex((t) => t.id === from);
        if (at >= 0) txs = txs.slice(at);
      }
      if (to) {
        const at = txs.findIndex((t) => t.id === to);
        if (at >= 0) txs = txs.slice(0, at + 1);
      }
      if (q.get('reverse') === 'true') txs = [...txs].reverse();
      const limit = Number(q.get('limit') ?? 0);
      if (limit > 0) txs = txs.slice(0, limit);
      const wanted = new Set(ids);
      const lines = txs.map((tx) => {
        const effects: Record<string, { apply: unknown; revert: unknown }> = {};
        const mutations: unknown[] = [];
        for (const e of tx.effects) {
          if (!wanted.has(e.id)) continue;
          effects[e.id] = { apply: [0, e.after], revert: [0, e.before] };
          mutations.push(e.after ? { createOrReplace: e.after } : { delete: { id: e.id } });
        }
        return JSON.stringify({
          id: tx.id,
          timestamp: tx.timestamp,
          author: tx.author,
          documentIDs: tx.effects.map((e) => e.id),
          ...(q.get('excludeMutations') === 'true' ? {} : { mutations }),
          effects,
        });
      });
      return send(res, 200, lines.join('\n') + (lines.length ? '\n' : ''), 'application/x-ndjson');
    }
    return json(res, 404, { error: 'Not Found', message: `No history endpoint ${rest}`, statusCode: 404 });
  }

  async function upload(req: Req, res: Res, q: URLSearchParams, editor: Editor) {
    // Checked (type, size) and stripped of personal metadata before anything is stored.
    const { bytes, extension, width, height, hasAlpha } = await acceptUpload(
      await readBody(req, MAX_UPLOAD, limits.bodyMs),
      MIME,
    );
    const mimeType = MIME[extension]!;
    const sha1 = createHash('sha1').update(bytes).digest('hex');
    const fileName = `${sha1}-${width}x${height}.${extension}`;
    const assetDoc = {
      _id: `image-${sha1}-${width}x${height}-${extension}`,
      _type: 'sanity.imageAsset',
      assetId: sha1,
      sha1hash: sha1,
      extension,
      mimeType,
      originalFilename: q.get('filename') ?? fileName,
      path: `images/${assetProjectId}/${dataset}/${fileName}`,
      // Relative: the site serves /images/… (app/resources) and so does the lake; the Studio builds
      // its own image URLs from the asset id with @sanity/image-url and the apiHost.
      url: `/images/${assetProjectId}/${dataset}/${fileName}`,
      size: bytes.length,
      uploadId: randomBytes(8).toString('hex'),
      metadata: {
        _type: 'sanity.imageMetadata',
        dimensions: { _type: 'sanity.imageDimensions', width, height, aspectRatio: width / (height || 1) },
        hasAlpha,
        isOpaque: !hasAlpha,
      },
    } as unknown as LakeDocument;
    const document = await store.saveAsset(fileName, assetDoc, mimeType, bytes, editor.id);
    return json(res, 200, { document });
  }

  /**
   * An image at Sanity's CDN shape, public as Sanity's is (names are content hashes). The original
   * as uploaded for `?dl` or no parameters; otherwise one of the few variants of images.server.ts,
   * made by the site's resizer (queued, 503 past its queue, cached on disk), never here.
   */
  async function sendImage(req: Req, res: Res, fileName: string, q: URLSearchParams) {
    const notFound = () => json(res, 404, { error: 'Not Found', message: 'No such image', statusCode: 404 });
    const source = await options.images?.file(fileName);
    if (!source) {
      if (!q.has('dl') && [...q.keys()].length) return notFound();
      const uploaded = await store.asset(fileName);
      if (!uploaded) return notFound();
      return sendOriginal(res, uploaded.bytes, uploaded.mimeType, fileName, q);
    }
    const wanted = normalizeLakeRequest(source, q, String(req.headers.accept ?? ''));
    if ('status' in wanted) return send(res, 400, `${wanted.message}\n`, 'text/plain; charset=utf-8');
    if ('original' in wanted) return sendOriginal(res, await readFile(source.file), source.mimeType, fileName, q);
    const verdict = await resized!({ ...source, name: fileName }, wanted.spec);
    if (wanted.varyAccept)
      res.setHeader('Vary', res.hasHeader('Vary') ? `${String(res.getHeader('Vary'))}, Accept` : 'Accept');
    if (verdict.kind === 'busy') {
      res.setHeader('Retry-After', String(verdict.retryAfterSeconds));
      return send(res, 503, 'Busy resizing images, try again shortly.\n', 'text/plain; charset=utf-8');
    }
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    return send(res, 200, verdict.body, verdict.contentType);
  }

  function sendOriginal(res: Res, bytes: Buffer, type: string, fileName: string, q: URLSearchParams) {
    if (q.has('dl')) {
      // Sanity's `?dl=` downloads, under the name given (a safe one, with the file's own extension).
      res.setHeader('Content-Disposition', `attachment; filename="${downloadName(q.get('dl'), fileName)}"`);
    }
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    return send(res, 200, bytes, type);
  }
}

/** Aborted when the client goes away before its answer is written. */
function clientGone(res: Res): AbortSignal {
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  return gone.signal;
}

/** Sanity's `dryRun`: `?dryRun=true` on the URL or `"dryRun": true` in the body. */
const isDryRun = (q: URLSearchParams, body: { dryRun?: unknown }) =>
  q.get('dryRun') === 'true' || body.dryRun === true || body.dryRun === 'true';

const draftOf = (id: string) => (id.startsWith('drafts.') ? id : `drafts.${id}`);

/**
 * The Studio's document events (`/data/history/{dataset}/events/documents/{id}`, newest first),
 * undocumented by Sanity: made from the lake's transactions as the Studio 4.22.1 reads them
 * (event types from its source: publishDocumentVersion, unpublishDocument, createDocumentVersion,
 * deleteDocumentVersion, deleteDocumentGroup, createLiveDocument). Edits within a draft are not
 * events: the Studio reads them from the transactions. An approximation (ADR 0025).
 */
export function documentEvents(transactions: readonly LakeTransaction[], id: string): Record<string, unknown>[] {
  const published = id.startsWith('drafts.') ? id.slice('drafts.'.length) : id;
  const draft = draftOf(published);
  const events: Record<string, unknown>[] = [];
  for (const tx of transactions) {
    const pub = tx.effects.find((e) => e.id === published);
    const dft = tx.effects.find((e) => e.id === draft);
    const base = { timestamp: tx.timestamp, author: tx.author, documentId: published };
    if (pub?.after && dft && !dft.after)
      events.push({
        ...base,
        type: 'publishDocumentVersion',
        revisionId: tx.id,
        versionId: draft,
        versionRevisionId: dft.previousRev ?? undefined,
      });
    else if (pub?.after && !pub.before && !dft) events.push({ ...base, type: 'createLiveDocument', revisionId: tx.id });
    else if (pub?.after && pub.before && !dft) events.push({ ...base, type: 'updateLiveDocument', revisionId: tx.id });
    else if (pub && !pub.after && dft?.after)
      events.push({ ...base, type: 'unpublishDocument', versionId: draft, versionRevisionId: tx.id });
    else if (pub && !pub.after) events.push({ ...base, type: 'deleteDocumentGroup' });
    else if (dft?.after && !dft.before)
      events.push({ ...base, type: 'createDocumentVersion', versionId: draft, versionRevisionId: tx.id });
    else if (dft && !dft.after)
      events.push({
        ...base,
        type: 'deleteDocumentVersion',
        versionId: draft,
        versionRevisionId: dft.previousRev ?? undefined,
      });
  }
  return events.reverse();
}

const MIME: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
};

function lakeError(error: LakeError) {
  return {
    error: { description: error.message, type: error.type },
    message: error.message,
    statusCode: error.status,
  };
}

function send(res: Res, status: number, body: string | Buffer, type: string) {
  res.setHeader('Content-Type', type);
  if (!res.hasHeader('Cache-Control')) res.setHeader('Cache-Control', 'no-store');
  res.writeHead(status);
  res.end(body);
}

/** The headers a sign-in check needs (cookie, authorization), as a fetch Request. */
function toRequest(req: Req, url: URL): Request {
  const headers = new Headers();
  for (const name of ['cookie', 'authorization', 'origin']) {
    const value = req.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  return new Request(url, { headers });
}

export type { SanityDocument };
