/**
 * The portal's test world (test-support.ts: the content store, which still holds accounts, the
 * mail queue and billing until their ports land) with its database on either engine, and a
 * second handle on that database, as another server copy would have: on PostgreSQL a second
 * pool on the same database; on PGlite (one process per database) the same one.
 */
import { openDatabase } from '~/db/client.server';
import { createPostgresDatabase, installDatabase } from '~/db/test-support';
import type { Database, DatabaseKind } from '~/db/types.server';
import { createTestWorld, type TestWorld } from './test-support';

export interface TestWorldOn extends TestWorld {
  /** The same database, through another connection pool (another server copy). */
  copy: Database;
}

export async function createTestWorldOn(
  kind: DatabaseKind,
  options: Parameters<typeof createTestWorld>[0] = {},
): Promise<TestWorldOn> {
  const world = await createTestWorld(options);
  if (kind === 'pglite') return Object.assign(world, { copy: world.database });
  const closeWorld = world.close;
  const created = await createPostgresDatabase();
  const database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 4 });
  const copy = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 4 });
  installDatabase(database);
  return Object.assign(world, {
    database,
    copy,
    async close() {
      await closeWorld();
      await database.close();
      await copy.close();
      await created.drop();
    },
  });
}
