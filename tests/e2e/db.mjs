// The end-to-end servers' databases on the test PostgreSQL (TEST_DATABASE_URL; scripts/test-all.sh
// starts a throwaway cluster and sets it). Each server gets a database of its own, made new:
//   node tests/e2e/db.mjs NAME        drop NAME if it exists, create it (from playwright.config.ts)
// and specs read what a server stored with `rows(url, sql, params)`.
import pg from 'pg';

export function testServerUrl() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url)
    throw new Error(
      'TEST_DATABASE_URL is not set: the end-to-end servers keep client data in PostgreSQL. `npm test` starts a ' +
        'throwaway cluster; alone: scripts/test-postgres.sh start /tmp/e2e-pg and export the line it prints.',
    );
  return url;
}

/** The URL of database NAME on the test server (no I/O). */
export function databaseUrl(name) {
  const url = new URL(testServerUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin(statement) {
  const client = new pg.Client({ connectionString: testServerUrl(), connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Drops NAME if it exists and creates it empty; returns its URL. */
export async function freshDatabase(name) {
  if (!/^[a-z0-9_]{1,60}$/.test(name)) throw new Error(`not a database name: ${name}`);
  await admin(`drop database if exists "${name}" with (force)`);
  await admin(`create database "${name}"`);
  return databaseUrl(name);
}

/**
 * Runs one query on the database at `url` and returns its rows.
 * @param {string} url
 * @param {string} sql
 * @param {unknown[]} [params]
 * @returns {Promise<Record<string, unknown>[]>}
 */
export async function rows(url, sql, params = []) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

if (process.argv[1] && process.argv[1].endsWith('db.mjs') && process.argv[2]) await freshDatabase(process.argv[2]);
