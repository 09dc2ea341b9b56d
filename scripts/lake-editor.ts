/**
 * npm run lake:editor -- add editor@example.com "Their Name"
 * npm run lake:editor -- remove editor@example.com
 * npm run lake:editor -- list
 * The editors of the local Content Lake (embedded world, ADR 0025): who may sign in to the Studio
 * at /studio with a code emailed to them (the sign-in page is /studio/sign-in). Removing an editor
 * ends their sessions at once. Uses the site's database: DATABASE_URL when set, else the embedded
 * one in {CONTENT_DATA_DIR}/db (default data/), which is one process's: with PGlite, run this
 * while the server is stopped (the command says which process has the folder).
 * Exits 2 on bad arguments, 1 when the database cannot be opened.
 */
import { openCommandDatabase } from '~/db/client.server';
import { parseEmailAddress } from '~/lib/email';
import { env } from '~/lib/env.server';
import { addEditor, listEditors, removeEditor } from '~/lake/editors.server';

const USAGE = 'usage: npm run lake:editor -- add editor@example.com "Their Name" | remove editor@example.com | list';

async function main() {
  const [command, address, ...nameParts] = process.argv.slice(2);
  const email = address ? parseEmailAddress(address) : null;
  if (!(command === 'list' || ((command === 'add' || command === 'remove') && email))) {
    console.error(USAGE);
    process.exit(2);
  }
  const e = env();
  if (e.content.world !== 'embedded') {
    console.error('lake:editor: the local Content Lake runs in the embedded world only (no SANITY_PROJECT_ID)');
    process.exit(2);
  }
  // What the database says when it opens goes to standard error; standard output carries the result.
  const log = console.log;
  console.log = console.error;
  const database = await openCommandDatabase('lake:editor');
  try {
    if (command === 'add') {
      await addEditor(email!, nameParts.join(' '));
      log(`${email} is an editor: they sign in at ${e.siteUrl}/studio/sign-in`);
    } else if (command === 'remove') {
      log((await removeEditor(email!)) ? `${email} is no longer an editor (signed out)` : `${email} was not an editor`);
    } else {
      for (const editor of await listEditors()) log(`${editor.email}\t${editor.name}`);
    }
  } finally {
    await database.close();
  }
}

await main();
