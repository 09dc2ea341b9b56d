/**
 * npm run lake:editor -- editor@example.com "Their Name"
 * Prints a sign-in link to the Studio at /studio for an editor of the local Content Lake (embedded
 * world, ADR 0025), valid for 12 hours: opening it stores the editor's token in that browser and
 * signs them in. The token is signed with the site's secret (SESSION_SECRET, or the data folder's
 * generated one), so run this with the same settings as the server.
 *
 * PARTIAL: the issue asks for editor accounts with an emailed-code sign-in (the portal's
 * mechanism); until that lands, whoever can run commands on the server hands out these links.
 */
import { parseEmailAddress } from '~/lib/email';
import { env } from '~/lib/env.server';
import { issueEditorToken } from '~/lake/editors.server';

const [address, ...nameParts] = process.argv.slice(2);
const email = address ? parseEmailAddress(address) : null;
if (!email) {
  console.error('usage: npm run lake:editor -- editor@example.com "Their Name"');
  process.exit(2);
}
const e = env();
if (e.content.world !== 'embedded') {
  console.error('lake:editor: the local Content Lake runs in the embedded world only (no SANITY_PROJECT_ID)');
  process.exit(2);
}
const token = issueEditorToken(email, nameParts.join(' ') || email);
console.log(`${e.siteUrl}/studio#token=${token}`);
