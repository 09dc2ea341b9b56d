import { randomUUID } from 'node:crypto';
import { database as processDatabase } from '~/db/client.server';
import { listen, notify, type Listening } from '~/db/coordination.server';
import type { Database, Db } from '~/db/types.server';
import { contentClient } from '~/sanity/client.server';
import { EmbeddedContentClient } from '~/sanity/embedded.server';
import { HostedContentClient } from '~/sanity/hosted.server';
import { queryCache } from '~/sanity/load.server';
import { pageCache } from './page-cache.server';
import { log as logger } from '~/lib/log.server';

/**
 * Every server copy's content caches clear at once. A Sanity webhook reaches one copy
 * (/api/revalidate): it clears its own caches and publishes the change on the database
 * (`pg_notify('content_changed', …)`); every copy listens and clears its caches as the webhook
 * does locally. The message names the changed document types only (at most MAX_TYPES, each a
 * plain name; anything else becomes "all"), and the copy it came from, which skips its own.
 * A copy whose listening connection dropped missed what was sent meanwhile: once it listens
 * again it clears everything.
 */
export const CONTENT_CHANNEL = 'content_changed';
export const MAX_TYPES = 20;
const TYPE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

export type ContentChange = Set<string> | 'all';

declare global {
  var __contentSyncSelf: string | undefined;
  var __contentSync: Promise<Listening | null> | undefined;
}

/** This process's name on the channel (random, once per process). */
export function selfId(): string {
  globalThis.__contentSyncSelf ??= randomUUID();
  return globalThis.__contentSyncSelf;
}

/** The types as sent: a bounded list of plain names, or "all". */
function bounded(types: ContentChange): string[] | 'all' {
  if (types === 'all' || types.size === 0 || types.size > MAX_TYPES) return 'all';
  const list = [...types];
  return list.every((t) => TYPE_NAME.test(t)) ? list.sort() : 'all';
}

export function encodeChange(from: string, types: ContentChange): string {
  return JSON.stringify({ from, types: bounded(types) });
}

/** A received message; anything malformed reads as "everything changed" from an unknown copy. */
export function decodeChange(payload: string): { from: string | null; types: ContentChange } {
  try {
    const message = JSON.parse(payload) as { from?: unknown; types?: unknown };
    const from = typeof message.from === 'string' ? message.from : null;
    if (
      Array.isArray(message.types) &&
      message.types.length > 0 &&
      message.types.length <= MAX_TYPES &&
      message.types.every((t) => typeof t === 'string' && TYPE_NAME.test(t))
    )
      return { from, types: new Set(message.types as string[]) };
    return { from, types: 'all' };
  } catch {
    return { from: null, types: 'all' };
  }
}

/**
 * What a content change does to this process's caches (the webhook's local work): the embedded
 * dataset file is read again, cached query results that read the changed types are dropped,
 * the hosted client's listeners are told, and the rendered pages are emptied. Returns how many
 * query results were dropped.
 */
export async function clearContentCaches(changed: ContentChange): Promise<number> {
  const client = contentClient();
  // Embedded world: the change is in the dataset file; read it again (a broken file keeps the old content).
  if (client instanceof EmbeddedContentClient) await client.reload();
  const dropped = queryCache().invalidate(changed);
  if (client instanceof HostedContentClient) client.notify(changed);
  // Rendered pages do not record what they read: any change empties the page cache.
  pageCache()?.clear();
  return dropped;
}

/** Tells the other copies (the database's listeners) that `changed` changed. */
export function publishContentChange(db: Db, changed: ContentChange, from = selfId()): Promise<void> {
  return notify(db, CONTENT_CHANNEL, encodeChange(from, changed));
}

/**
 * Follows the changes other copies publish: `apply` runs for each (never for this copy's own),
 * and with "all" after a reconnection.
 */
export function followContentChanges(
  database: Database,
  apply: (changed: ContentChange) => unknown,
  options: { self?: string; log?: (message: string) => void; retryMs?: number; pingMs?: number } = {},
): Promise<Listening> {
  const self = options.self ?? selfId();
  const log = options.log ?? ((m: string) => logger.info(`[content] ${m}`));
  const run = (changed: ContentChange) => {
    try {
      void Promise.resolve(apply(changed)).catch((error: unknown) =>
        log(`could not clear the caches: ${String(error)}`),
      );
    } catch (error) {
      log(`could not clear the caches: ${String(error)}`);
    }
  };
  return listen(database, CONTENT_CHANNEL, {
    onMessage(payload) {
      const { from, types } = decodeChange(payload);
      if (from === self) return;
      run(types);
    },
    onReconnect: () => run('all'),
    log,
    retryMs: options.retryMs,
    pingMs: options.pingMs,
  });
}

/** At server start: this copy clears its caches when another copy hears of a content change. */
export function startContentSync(): Promise<Listening | null> {
  globalThis.__contentSync ??= processDatabase().then(
    (database) =>
      followContentChanges(database, async (changed) => {
        const dropped = await clearContentCaches(changed);
        const what = changed === 'all' ? 'all content' : [...changed].join(', ');
        logger.info(`[content] another server copy reported a change (${what}): ${dropped} cached results cleared`);
      }),
    // The database's own start reports why it could not open.
    () => null,
  );
  return globalThis.__contentSync;
}
