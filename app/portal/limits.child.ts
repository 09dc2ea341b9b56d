/**
 * A server process as far as the rate limits go, for limits.server.test.ts (run with vite-node):
 *   vite-node --config vitest.config.ts app/portal/limits.child.ts pglite:DIR|postgres:URL USES [GO_AT]
 * Opens the database (PGlite in DIR, or PostgreSQL at URL) with the SESSION_SECRET and
 * SESSION_SECRET_PREVIOUS of its environment, waits until GO_AT (epoch ms) when given, so several
 * start counting at the same instant, then counts USES uses of one window (5 an hour) at once and
 * prints one JSON line: which were allowed, the fingerprint of the database's limits key and of the
 * signing secret it ran with.
 */
import { createHash } from 'node:crypto';
import { openDatabase } from '~/db/client.server';
import { env } from '~/lib/env.server';
import { consume, limitsKey } from './limits.server';

const [where, uses, goAt] = process.argv.slice(2);
const fingerprint = (value: string | Buffer) => createHash('sha256').update(value).digest('hex').slice(0, 16);
const database = await openDatabase(
  where!.startsWith('pglite:')
    ? { kind: 'pglite', dataDir: where!.slice('pglite:'.length), importLog: false }
    : { kind: 'postgres', url: where!.slice('postgres:'.length) },
);
try {
  if (goAt) while (Date.now() < Number(goAt)) await new Promise((r) => setTimeout(r, 1));
  const limit = { max: 5, windowMs: 60 * 60 * 1000 };
  const allowed = await Promise.all(
    Array.from({ length: Number(uses) }, () => consume('signin-ip', '203.0.113.50', limit, { db: database.db })),
  );
  console.log(
    JSON.stringify({
      allowed: allowed.filter(Boolean).length,
      key: fingerprint(await limitsKey(database.db)),
      secret: fingerprint(env().sessionSecret),
      secrets: env().sessionSecrets.length,
    }),
  );
} finally {
  await database.close();
}
