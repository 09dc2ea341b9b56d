import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import type { QueryParams } from '~/sanity/types';
import { LakeError } from './mutations';

/**
 * What one editor request to the local Content Lake may ask (ADR 0025, "Limits"; operating.md).
 * Each bound sits well above what the Studio sends (its list panes, search, Vision, a publish of a
 * long Portable Text document) and well below what would hold the server: a request past one is
 * refused with a 4xx whose message the Studio shows, before any work is done.
 */
export type LakeLimits = {
  /** A JSON body (query, mutate, actions, keyvalue); images keep the upload bound of api.server.ts. */
  bodyBytes: number;
  /** The whole request body must arrive within this (the site's own port allows 30 s). */
  bodyMs: number;
  /** A GROQ query's length (the Studio's longest, its search across every type, is a few KB). */
  queryChars: number;
  /** A listener's filter, parsed on the main thread per change, so shorter. */
  listenQueryChars: number;
  /** Parameters of one query (`$name`), and their total size as JSON. */
  params: number;
  paramsBytes: number;
  /** Mutations, or actions, in one transaction (a publish is 1-3). */
  mutations: number;
  /**
   * What one transaction writes, as JSON: each document, and all of them together. The database
   * (PGlite runs on the main thread) keeps each document's state before and after, so this bounds
   * how long a commit holds the thread.
   */
  documentBytes: number;
  transactionBytes: number;
  /** Nesting of any JSON body (Portable Text with tables is about 15 deep). */
  depth: number;
  /** Open listeners per editor (a Studio tab opens 7-10). */
  listenersPerEditor: number;
  /** Public live event streams at once, for everyone together (they need no sign-in; no content). */
  publicLiveStreams: number;
  /** Studio preferences (keyvalue) per editor, a key's length and a value's size as JSON. */
  preferenceKeys: number;
  preferenceKeyChars: number;
  preferenceBytes: number;
};

export const LAKE_LIMITS: LakeLimits = {
  bodyBytes: 2 * 1024 * 1024,
  bodyMs: 30_000,
  queryChars: 100_000,
  listenQueryChars: 20_000,
  params: 100,
  paramsBytes: 1024 * 1024,
  mutations: 100,
  documentBytes: 2 * 1024 * 1024,
  transactionBytes: 4 * 1024 * 1024,
  depth: 100,
  listenersPerEditor: 64,
  publicLiveStreams: 200,
  preferenceKeys: 200,
  preferenceKeyChars: 200,
  preferenceBytes: 16 * 1024,
};

/** JSON from a request body: 400 for anything that is not JSON or nests deeper than `depth`. */
export function parseJson(bytes: Buffer, limits: Pick<LakeLimits, 'depth'>, what = 'The request body'): unknown {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new LakeError(`${what} is not valid JSON`, 400, 'invalidJson');
  }
  checkDepth(value, limits.depth, what);
  return value;
}

/** 400 when a value nests deeper than `max` (checked without recursion, so any depth is safe). */
export function checkDepth(value: unknown, max: number, what = 'The request body'): void {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (!item || typeof item !== 'object') continue;
    if (depth >= max) throw new LakeError(`${what} nests deeper than ${max} levels`, 400, 'invalidJson');
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, depth + 1]);
  }
}

/** An object body (`{…}`), or 400. */
export function objectBody<T extends object>(value: unknown, what: string): Partial<T> {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new LakeError(`${what} must be a JSON object`, 400, 'invalidJson');
  return value as Partial<T>;
}

/** A path segment's percent-encoding, or 400. */
export function decodeSegment(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new LakeError('The request path has broken percent-encoding', 400, 'invalidRequest');
  }
}

/** A query and its parameters within bounds (413), before any parsing. */
export function checkQuery(query: string, params: QueryParams, limits: LakeLimits, maxChars = limits.queryChars): void {
  if (typeof query !== 'string' || !query.trim()) throw new LakeError('The query is empty', 400, 'queryParseError');
  if (query.length > maxChars)
    throw new LakeError(
      `The query is ${query.length.toLocaleString('en')} characters long; the lake takes up to ${maxChars.toLocaleString('en')}`,
      413,
      'queryTooLarge',
    );
  if (!params || typeof params !== 'object' || Array.isArray(params))
    throw new LakeError('The query parameters must be an object', 400, 'invalidJson');
  const names = Object.keys(params);
  if (names.length > limits.params)
    throw new LakeError(
      `The query has ${names.length} parameters; the lake takes up to ${limits.params}`,
      413,
      'queryTooLarge',
    );
  checkDepth(params, limits.depth, 'The query parameters');
  if (Buffer.byteLength(JSON.stringify(params)) > limits.paramsBytes)
    throw new LakeError(
      `The query parameters are larger than ${limits.paramsBytes / 1024 / 1024} MB`,
      413,
      'queryTooLarge',
    );
}

/** Mutations or actions of one transaction within bounds (413). */
export function checkTransactionSize(count: number, limits: LakeLimits, what: 'mutations' | 'actions'): void {
  if (count > limits.mutations)
    throw new LakeError(
      `The transaction has ${count.toLocaleString('en')} ${what}; the lake takes up to ${limits.mutations.toLocaleString('en')} in one`,
      413,
      'transactionTooLarge',
    );
}

/** The documents a transaction would write within bounds (413), checked before anything is written. */
export function checkWrites(
  docs: readonly ({ _id: string } | null)[],
  limits: Pick<LakeLimits, 'documentBytes' | 'transactionBytes'>,
): void {
  let total = 0;
  for (const doc of docs) {
    if (!doc) continue;
    const bytes = Buffer.byteLength(JSON.stringify(doc));
    if (bytes > limits.documentBytes)
      throw new LakeError(
        `${doc._id} would be ${(bytes / 1024 / 1024).toFixed(1)} MB; a document is up to ${limits.documentBytes / 1024 / 1024} MB`,
        413,
        'documentTooLarge',
      );
    total += bytes;
  }
  if (total > limits.transactionBytes)
    throw new LakeError(
      `The transaction would write ${(total / 1024 / 1024).toFixed(1)} MB; the lake writes up to ${limits.transactionBytes / 1024 / 1024} MB in one`,
      413,
      'transactionTooLarge',
    );
}

type Req = IncomingMessage | Http2ServerRequest;

/**
 * A request's body, at most `maxBytes` (413, refused unread when its declared length is larger)
 * and within `ms` (408): a client that trickles its body is cut off, as on the site's own port.
 */
export function readBody(req: Req, maxBytes: number, ms: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > maxBytes) {
      reject(tooLarge(maxBytes));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => {
      reject(new LakeError(`The request body did not arrive within ${ms / 1000} s`, 408, 'requestTimeout'));
      req.destroy();
    }, ms);
    timer.unref();
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        clearTimeout(timer);
        reject(tooLarge(maxBytes));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

const tooLarge = (maxBytes: number) =>
  new LakeError(`The request is larger than ${maxBytes / 1024 / 1024} MB`, 413, 'requestTooLarge');

/**
 * A log that writes the first line of each `windowMs` and counts the rest, so a flood of refused
 * requests cannot fill the disk or drown the log; the count is written when the window ends.
 */
export function throttledLog(log: (message: string) => void, windowMs = 10_000): (message: string) => void {
  let windowEnds = 0;
  let suppressed = 0;
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    timer = null;
    if (suppressed)
      log(`… and ${suppressed} more refused request${suppressed === 1 ? '' : 's'} in ${windowMs / 1000} s`);
    suppressed = 0;
  };
  return (message) => {
    const now = Date.now();
    if (now >= windowEnds) {
      windowEnds = now + windowMs;
      log(message);
      timer = setTimeout(flush, windowMs);
      timer.unref();
      return;
    }
    suppressed++;
    void timer;
  };
}
