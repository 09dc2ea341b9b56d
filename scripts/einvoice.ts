/**
 * npm run einvoice -- export --from 2027-07-01 --to 2027-07-31 --out ./asp-outbox [--limit 500]
 * Writes the PINT AE e-invoice of each eligible invoice issued in the range to the folder, for the
 * firm's Accredited Service Provider (app/billing/tax/einvoice-export.server.ts, docs/accounting.md).
 * Idempotent: a document already there is left alone. Uses the firm's database: DATABASE_URL
 * when set, else the embedded one in {CONTENT_DATA_DIR}/db, which one process opens at a time
 * (with PGlite, export while the server is stopped).
 * Exits 2 on bad arguments, 1 when the database cannot be opened or a file holds another document.
 */
import { einvoiceCommand } from '~/billing/tax/einvoice-export.server';
import { openCommandDatabase } from '~/db/client.server';

async function main() {
  console.log = console.error;
  const database = await openCommandDatabase('einvoice');
  try {
    const { code, out } = await einvoiceCommand(database.db, process.argv.slice(2));
    (code === 0 ? process.stdout : process.stderr).write(out);
    process.exitCode = code;
  } finally {
    await database.close();
  }
}

await main();
