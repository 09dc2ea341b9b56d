/**
 * npm run newsletter -- request-confirmation [--limit 100]
 * Asks the newsletter sign-ups stored before double opt-in (kept as unconfirmed, never exported)
 * to confirm: queues a confirmation email to at most --limit of them (default 100, at most 1000)
 * a run, each one once; the server's jobs send the queue (a few a minute, retried on failure).
 * Those who confirm are exported from then on; the others stay kept and unconfirmed until erased.
 * Run it again for the next batch: it says how many are left. Reads the firm's database like
 * `npm run submissions` (stop a server running on the embedded data folder first). Exits 2 on bad
 * arguments.
 */
import { openCommandDatabase } from '~/db/client.server';
import { requestLegacyConfirmations } from '~/features/newsletter/newsletter.server';
import { newsletterMailDeps } from '~/features/newsletter/pages.server';

const USAGE = 'usage: npm run newsletter -- request-confirmation [--limit 100]';

async function main() {
  console.log = console.error;
  const [verb, flag, value, ...rest] = process.argv.slice(2);
  const limit = flag === undefined ? 100 : flag === '--limit' && /^\d{1,4}$/.test(value ?? '') ? Number(value) : NaN;
  if (verb !== 'request-confirmation' || !(limit >= 1 && limit <= 1000) || rest.length) {
    console.error('newsletter: bad arguments (--limit takes 1 to 1000)');
    console.error(USAGE);
    process.exit(2);
  }
  const database = await openCommandDatabase('newsletter');
  try {
    const { queued, left } = await requestLegacyConfirmations(limit, {
      ...(await newsletterMailDeps()),
      db: database.db,
    });
    console.error(
      `${queued} confirmation request${queued === 1 ? '' : 's'} queued (the server's jobs send them); ${left} sign-up${left === 1 ? '' : 's'} stored before double opt-in still to ask`,
    );
  } finally {
    await database.close();
  }
}

await main();
