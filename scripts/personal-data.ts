/**
 * npm run personal-data -- export someone@example.com --out file.json
 * Writes everything the firm's database holds about that address as the JSON file a signed-in
 * client downloads from /account/personal-data (the same function builds both:
 * app/portal/personal-data.server.ts), for a request that arrives by email. Without --out the
 * file goes to standard output. Reads the firm's database: DATABASE_URL when set, else the
 * embedded one in {CONTENT_DATA_DIR}/db (default data/; stop a server running on that folder
 * first: the command says which process has it). Exits 2 on bad arguments.
 */
import { writeFile } from 'node:fs/promises';
import { openCommandDatabase } from '~/db/client.server';
import { parseEmailAddress } from '~/lib/email';
import { buildPersonalData, personalDataJson } from '~/portal/personal-data.server';

const USAGE = 'usage: npm run personal-data -- export someone@example.com [--out file.json]';

async function main() {
  // Standard output may carry the file: what the stores say at open goes to standard error.
  console.log = console.error;
  const [verb, address, ...rest] = process.argv.slice(2);
  const email = address ? parseEmailAddress(address) : null;
  const out = rest[0] === '--out' && rest[1] && rest.length === 2 ? rest[1] : rest.length ? null : undefined;
  if (verb !== 'export' || !email || out === null) {
    console.error(
      !email && address ? `personal-data: not an email address: ${address}` : 'personal-data: bad arguments',
    );
    console.error(USAGE);
    process.exit(2);
  }
  const database = await openCommandDatabase('personal-data');
  try {
    const file = await buildPersonalData(database.db, email, new Date());
    const json = personalDataJson(file);
    if (out) await writeFile(out, json, { mode: 0o600 });
    else process.stdout.write(json);
    const found = [
      file.account ? 'an account' : null,
      file.billing.customer ? 'a billing customer' : null,
      `${file.billing.invoices.length} invoices`,
      `${file.faqQuestions.length} FAQ questions`,
      `${file.newsletter.length} newsletter sign-ups`,
    ].filter(Boolean);
    console.error(
      `personal data of ${email}: ${found.join(', ')}${file.truncated.length ? ` (cut at the bound: ${file.truncated.join(', ')})` : ''}` +
        (out ? `; written to ${out}` : ''),
    );
  } finally {
    await database.close();
  }
}

await main();
