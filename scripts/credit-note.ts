/**
 * npm run credit-note -- issue BWB-2026-0007 --reason "Refunded: cancelled in the first week"
 * npm run credit-note -- list
 * The operator's tax credit notes (docs/accounting.md): a full credit of one issued invoice,
 * numbered CN-YYYY-NNNN in its own sequence (embedded engine), or Stripe's credit note on the
 * invoice (Stripe). Running it again for the same invoice never makes a second note.
 * Uses the firm's billing: Stripe when its keys are set, else the database (DATABASE_URL, or the
 * embedded one in {CONTENT_DATA_DIR}/db, which one process opens at a time: stop the server
 * first, or use PostgreSQL). Exits 2 on bad arguments or a refusal, 1 when billing is unavailable.
 */
import { EmbeddedBilling } from '~/billing/engine/engine.server';
import { StripeBilling } from '~/billing/stripe.server';
import { creditNoteCommand } from '~/billing/tax/credit-note-command.server';
import { openCommandDatabase } from '~/db/client.server';
import { env } from '~/lib/env.server';

async function main() {
  console.log = console.error;
  const e = env();
  const log = (m: string) => console.error(`[billing] ${m}`);
  const run = async (provider: Parameters<typeof creditNoteCommand>[0]) => {
    const { code, out } = await creditNoteCommand(provider, process.argv.slice(2));
    (code === 0 ? process.stdout : process.stderr).write(out);
    process.exitCode = code;
  };
  if (e.billing.kind === 'none') {
    console.error('credit-note: this site takes no payments (no Stripe keys, and it is public)');
    process.exit(1);
  }
  if (e.billing.kind === 'stripe') {
    const { secretKey, webhookSecret, prices, apiBase } = e.billing;
    await run(new StripeBilling({ secretKey, webhookSecret, prices, apiBase, plans: async () => [], log }));
    return;
  }
  const database = await openCommandDatabase('credit-note');
  try {
    // Credit notes need no plans: the invoice's snapshot carries everything they show.
    await run(new EmbeddedBilling(database.db, { plans: async () => [], log }));
  } finally {
    await database.close();
  }
}

await main();
