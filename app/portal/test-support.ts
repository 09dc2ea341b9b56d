/**
 * Test support for the portal's modules: a real embedded store in a temporary folder, installed
 * as the process's content client, a database of its own (PGlite in memory; rate limits live
 * there) installed as the process's database, and a mailer that records what it sends (and can
 * be told to fail, like a mail server that is down).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { installDatabase, openTestDatabase } from '~/db/test-support';
import type { Database, DatabaseKind } from '~/db/types.server';
import type { Mailer, MailMessage } from '~/lib/mailer.server';
import { EmbeddedContentClient } from '~/sanity/embedded.server';

export interface TestWorld {
  dir: string;
  store: EmbeddedContentClient;
  database: Database;
  sent: (MailMessage & { html?: string; messageId?: string })[];
  mailer: Mailer & { failing: boolean };
  /** A new store on the same folder, as after a restart. */
  restart(): Promise<EmbeddedContentClient>;
  close(): Promise<void>;
}

/**
 * `bundled`: the site's own dataset (packages with their prices, for the billing engine and the
 * portal's plan names); by default a dataset of the site settings alone. `database`: PGlite in
 * memory (default) or a new database on the test PostgreSQL server (app/db/test-support.ts).
 */
export async function createTestWorld(
  options: { dataset?: 'bundled'; database?: DatabaseKind } = {},
): Promise<TestWorld> {
  process.env.SESSION_SECRET ??= 'portal-test-session-secret-0123456789abcdef';
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-'));
  const datasetFile =
    options.dataset === 'bundled' ? path.resolve('studio/dataset/production.ndjson') : path.join(dir, 'dataset.ndjson');
  if (options.dataset !== 'bundled')
    writeFileSync(
      datasetFile,
      JSON.stringify({
        _id: 'siteSettings',
        _type: 'siteSettings',
        brandName: { en: 'Bawaba Advisory', ar: 'بوابة للاستشارات' },
      }) + '\n',
    );
  const open = () => new EmbeddedContentClient({ datasetFile, dataDir: path.join(dir, 'data') });
  const store = open();
  await store.whenReady();
  const database = await openTestDatabase(options.database ?? 'pglite');
  installDatabase(database);
  const sent: TestWorld['sent'] = [];
  const mailer = {
    transport: 'outbox' as const,
    failing: false,
    async send(message: MailMessage & { html?: string; messageId?: string }) {
      if (mailer.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
      sent.push(message);
      return { transport: 'outbox' as const, messageId: message.messageId ?? `<${sent.length}@test>` };
    },
  };
  globalThis.__contentClient = store;
  globalThis.__mailer = mailer;
  // The billing engine of the default world is made anew on this store when first asked for.
  globalThis.__billing = undefined;
  return {
    dir,
    store,
    database,
    sent,
    mailer,
    async restart() {
      const next = open();
      await next.whenReady();
      globalThis.__contentClient = next;
      return next;
    },
    async close() {
      store.close();
      installDatabase(undefined);
      await database.close();
      globalThis.__contentClient = undefined;
      globalThis.__mailer = undefined;
      globalThis.__billing = undefined;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
