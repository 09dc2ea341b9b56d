/**
 * npm run submissions -- [--since 2026-11-01] [--until 2026-12-01] [--kind faq|newsletter] [--csv]
 * Lists the FAQ questions and the newsletter sign-ups confirmed by their address (double opt-in)
 * received in a period (default: the last 30 days), oldest first: readable text, or CSV (UTF-8, a header row) to redirect into a file:
 *   npm run --silent submissions -- --since 2026-11-01 --csv > submissions.csv
 * Reads the firm's database: DATABASE_URL when set, else the embedded one in
 * {CONTENT_DATA_DIR}/db (default data/). PGlite is one process per folder: while a server runs
 * on that folder, stop it first (the command says which process has it). Exits 2 on bad arguments.
 */
import { openCommandDatabase } from '~/db/client.server';
import { csvHeader, csvLine, listSubmissions, textBlock } from '~/features/forms/export.server';
import { parseArguments, type Arguments } from './submissions-args';

async function main() {
  // Standard output carries the listing only (it may be redirected into a CSV file): what the
  // stores say at open (a generated secret, an import) goes to standard error.
  console.log = console.error;
  let args: Arguments;
  try {
    args = parseArguments(process.argv.slice(2));
  } catch (error) {
    console.error(`submissions: ${(error as Error).message}`);
    console.error(
      'usage: npm run submissions -- [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--kind faq|newsletter] [--csv]',
    );
    process.exit(2);
  }
  const database = await openCommandDatabase('submissions');
  try {
    const out = process.stdout;
    const write = (text: string) =>
      out.write(text) ? Promise.resolve() : new Promise<void>((resolve) => out.once('drain', () => resolve()));
    if (args.csv) await write(csvHeader());
    let n = 0;
    for await (const row of listSubmissions(database.db, args)) {
      await write(args.csv ? csvLine(row) : textBlock(row));
      n++;
    }
    console.error(
      `${n} submission${n === 1 ? '' : 's'} (${args.kinds.join(' and ')}) from ${args.since.toISOString()}` +
        `${args.until ? ` until ${args.until.toISOString()}` : ''}, ${database.kind === 'pglite' ? database.where : 'PostgreSQL ' + database.where}`,
    );
  } finally {
    await database.close();
  }
}

await main();
