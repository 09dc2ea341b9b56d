// Loaded into each server that bench/two-copies.mjs starts (`node --import ./bench/two-copies.probe.mjs
// server.mjs build/index.js`), and nowhere else. The server records no run of its periodic jobs
// (it logs a run only when the run did something), so this reports every attempt from the
// outside: a run holds the advisory lock LOCK_KEYS.portalJobs (app/db/coordination.server.ts)
// for its length, so the answer of `pg_try_advisory_lock` on that key is the run starting (or
// being skipped, another copy holding it), and `pg_advisory_unlock` its end. Nothing in the
// server changes: the lines are printed as the driver's answers arrive.
import { createRequire } from 'node:module';

const JOBS_KEY = 270_027_001;
// The same module instance the server build imports (`import pg from "pg"` loads this CommonJS file).
const pg = createRequire(import.meta.url)('pg');
const query = pg.Client.prototype.query;
const say = (what, startedAt) => process.stdout.write(`[two-copies] jobs ${what} ${startedAt} ${Date.now()}\n`);

pg.Client.prototype.query = function (config, values, ...rest) {
  const result = query.call(this, config, values, ...rest);
  const text = typeof config === 'string' ? config : config?.text;
  if (typeof text === 'string' && Number(values?.[0]) === JOBS_KEY && typeof result?.then === 'function') {
    const startedAt = Date.now();
    if (text.includes('pg_try_advisory_lock'))
      result.then(
        (r) => say(r.rows[0]?.locked === true ? 'ran' : 'skipped', startedAt),
        () => {},
      );
    else if (text.includes('pg_advisory_unlock'))
      result.then(
        () => say('done', startedAt),
        () => {},
      );
  }
  return result;
};
