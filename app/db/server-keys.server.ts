import { randomBytes } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { serverKeys } from './schema.server';
import type { Db } from './types.server';

/**
 * Keys that belong to the data rather than to a server's configuration (`server_keys`): made once
 * per database, at random, and read once per opened database, then kept in memory. Every server
 * copy on one database reads the same row, so they all agree; a rotation of SESSION_SECRET does
 * not touch them.
 */
export const SERVER_KEY_NAMES = ['rate-limits'] as const;
export type ServerKeyName = (typeof SERVER_KEY_NAMES)[number];
export type ServerKeys = ReadonlyMap<ServerKeyName, Buffer>;

declare global {
  var __serverKeys: WeakMap<Db, Promise<ServerKeys>> | undefined;
}
const cache = () => (globalThis.__serverKeys ??= new WeakMap());

/**
 * Makes the missing keys and reads them all: two statements. The insert does nothing for a key
 * that exists, and when another copy is inserting the same key at that moment it waits for that
 * copy's commit and then does nothing, so the select that follows reads the one key both keep.
 */
export async function loadServerKeys(db: Db): Promise<ServerKeys> {
  await db
    .insert(serverKeys)
    .values(SERVER_KEY_NAMES.map((name) => ({ name, key: randomBytes(32).toString('base64url') })))
    .onConflictDoNothing({ target: serverKeys.name });
  const rows = await db
    .select({ name: serverKeys.name, key: serverKeys.key })
    .from(serverKeys)
    .where(inArray(serverKeys.name, [...SERVER_KEY_NAMES]));
  const keys = new Map<ServerKeyName, Buffer>();
  for (const row of rows) keys.set(row.name as ServerKeyName, Buffer.from(row.key, 'base64url'));
  for (const name of SERVER_KEY_NAMES) if (!keys.has(name)) throw new Error(`server key ${name} could not be made`);
  return keys;
}

/**
 * Called when a database is opened (client.server.ts): the keys are read there, once, with the
 * connection that applied the migrations, so no request ever waits for them or sends a statement
 * for them. `db` is the handle the application will use.
 */
export function rememberServerKeys(db: Db, keys: ServerKeys): void {
  cache().set(db, Promise.resolve(keys));
}

/** The named key of this database: from memory, or read (and made) once if it was opened elsewhere. */
export async function serverKey(db: Db, name: ServerKeyName): Promise<Buffer> {
  let keys = cache().get(db);
  if (!keys) {
    keys = loadServerKeys(db);
    cache().set(db, keys);
    // A failed read is not kept: the next use tries again.
    keys.catch(() => cache().delete(db));
  }
  return (await keys).get(name)!;
}
