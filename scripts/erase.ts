/**
 * npm run erase -- someone@example.com
 * Removes that person's data wherever the product holds it and prints what it removed, place by
 * place (app/portal/erase.server.ts): the database (portal account with its sessions and sign-in
 * codes, FAQ questions, newsletter sign-up, client emails), the development outbox, and, until
 * their port to the database lands, the content store's portal documents. Stripe's customers
 * with that address are listed for the operator, not deleted; the billing engine's records are
 * not erased yet (the billing port adds them). Erasing again removes nothing.
 * Uses the firm's database: DATABASE_URL when set, else the embedded one in
 * {CONTENT_DATA_DIR}/db (default data/). The embedded data folder is one process's: while a
 * server runs on it, stop it first (the command says which process has it).
 * Refuses, erasing nothing, while the person has a subscription that renews (exit 3): erased, they
 * would go on being billed with no account to cancel it from.
 * Exits 2 on bad arguments, 1 when the stores or the billing providers cannot be read.
 */
import { billing, embeddedBilling, stripeBilling } from '~/billing/billing.server';
import { openDatabase } from '~/db/client.server';
import { FolderInUseError, lockDataFolder } from '~/db/folder-lock.server';
import { parseEmailAddress } from '~/lib/email';
import { env } from '~/lib/env.server';
import { erasePerson, formatErasure, StillBilledError } from '~/portal/erase.server';
import { contentClient } from '~/sanity/client.server';
import { EmbeddedContentClient } from '~/sanity/embedded.server';

async function main() {
  // Standard output carries the report; what the stores say at open goes to standard error.
  console.log = console.error;
  const args = process.argv.slice(2);
  const email = args.length === 1 ? parseEmailAddress(args[0]) : null;
  if (!email) {
    console.error(args.length === 1 ? `erase: not an email address: ${args[0]}` : 'erase: one email address');
    console.error('usage: npm run erase -- someone@example.com');
    process.exit(2);
  }
  const e = env();
  let database;
  try {
    // The embedded content store writes its log in the data folder: no server may run on it.
    if (e.content.world === 'embedded' && e.database.kind === 'postgres') lockDataFolder(e.content.dataDir);
    database = await openDatabase(
      e.database.kind === 'postgres'
        ? { kind: 'postgres', url: e.database.url, poolSize: 1 }
        : { kind: 'pglite', dataDir: e.database.dataDir },
    );
  } catch (error) {
    console.error(error instanceof FolderInUseError ? error.message : `erase: ${String(error)}`);
    process.exit(1);
  }
  // The billing engine reads the process's database: this one (a second open of the folder would wait on its lock).
  globalThis.__database = Promise.resolve(database);
  const store = e.content.world === 'hosted' && !e.content.writeToken ? null : contentClient();
  try {
    billing(); // decided once; the two below are views of it
    const reports = await erasePerson(email, {
      db: database.db,
      outboxDir: e.mail.outboxDir,
      billingEngine: embeddedBilling(),
      stripe: stripeBilling(),
    });
    process.stdout.write(formatErasure(email, reports));
    if (reports.some((r) => r.failed)) process.exitCode = 1;
  } catch (error) {
    // Nothing was erased: a subscription still renews (exit 3), or billing could not be read (1).
    console.error(
      error instanceof StillBilledError ? `erase: ${error.message}` : `erase: nothing erased: ${String(error)}`,
    );
    process.exitCode = error instanceof StillBilledError ? 3 : 1;
  } finally {
    if (store instanceof EmbeddedContentClient) store.close();
    await database.close();
  }
}

await main();
