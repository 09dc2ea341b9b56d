/**
 * npm run rates -- add SGD 2026-11-02 2.8412 CBUAE published rate   (record a rate: AED per SGD)
 * npm run rates -- list                                              (the latest 30)
 * The operator's exchange-rate table (app/billing/tax/rates.server.ts, docs/accounting.md): a UAE
 * supplier's invoice in SGD uses the rate in force on its date of supply, and waits without one.
 * A recorded rate is never changed. The jobs (`npm run jobs`) issue the invoices that waited.
 * Uses the firm's database: DATABASE_URL when set, else the embedded one in {CONTENT_DATA_DIR}/db,
 * which one process opens at a time (stop the server first, or record the rate before it starts).
 * Exits 2 on bad arguments, 1 when the database cannot be opened.
 */
import { ratesCommand } from '~/billing/tax/rates.server';
import { openCommandDatabase } from '~/db/client.server';

async function main() {
  console.log = console.error;
  const database = await openCommandDatabase('rates');
  try {
    const { code, out } = await ratesCommand(database.db, process.argv.slice(2));
    (code === 0 ? process.stdout : process.stderr).write(out);
    process.exitCode = code;
  } finally {
    await database.close();
  }
}

await main();
