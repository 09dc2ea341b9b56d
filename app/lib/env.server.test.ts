import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listeningSiteUrl, localSessionSecret, parseEnv } from './env.server';

const SECRET = 'a-session-secret-of-at-least-32-characters';
const DATABASE_URL = 'postgres://site:pw@127.0.0.1:5432/site';

const TAX_PROFILE = {
  legalName: { en: 'Bawaba Advisory FZ-LLC', ar: 'بوابة للاستشارات ش.م.ح-ذ.م.م' },
  address: { en: 'Dubai, United Arab Emirates', ar: 'دبي، الإمارات العربية المتحدة' },
  country: 'AE',
  registered: true,
  registrationNumber: '100123456789012',
  pricesIncludeTax: true,
};

describe('environment', () => {
  it('backups: none on a schedule by default, seven kept; BACKUP_EVERY in minutes, hours or days; a bad value names itself', () => {
    expect(parseEnv({}).backups).toEqual({ dir: 'backups', everySeconds: null, keep: 7 });
    expect(parseEnv({ BACKUP_EVERY: '30m', BACKUP_KEEP: '3', BACKUP_DIR: '/srv/b' }).backups).toEqual({
      dir: '/srv/b',
      everySeconds: 1800,
      keep: 3,
    });
    expect(parseEnv({ BACKUP_EVERY: '6h' }).backups.everySeconds).toBe(21_600);
    expect(parseEnv({ BACKUP_EVERY: '1d' }).backups.everySeconds).toBe(86_400);
    for (const bad of ['0h', '6 hours', '90s', '-1d'])
      expect(() => parseEnv({ BACKUP_EVERY: bad })).toThrow(/BACKUP_EVERY/);
    expect(() => parseEnv({ BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP/);
  });

  it('runs the embedded world when no Sanity project is configured', () => {
    const e = parseEnv({});
    expect(e.content.world).toBe('embedded');
    expect(e.siteUrl).toBe('http://localhost:3000');
  });

  it('without SITE_URL, links to the address the server listens on (PORT, HOST), not to port 3000', () => {
    expect(parseEnv({ PORT: '5250' }).siteUrl).toBe('http://localhost:5250');
    expect(parseEnv({ PORT: '5250', SITE_URL: '' }).siteUrl).toBe('http://localhost:5250');
    expect(parseEnv({ PORT: '5250', HOST: '127.0.0.1' }).siteUrl).toBe('http://127.0.0.1:5250');
    expect(parseEnv({ PORT: '5250', HOST: '0.0.0.0' }).siteUrl).toBe('http://localhost:5250');
    expect(parseEnv({ PORT: '5250', NODE_ENV: 'production' }).siteUrl).toBe('http://localhost:5250');
    // Still a local site: the embedded engine's test cards stay on.
    expect(parseEnv({ PORT: '5250', HOST: '127.0.0.1' }).billing).toEqual({ kind: 'embedded', because: 'loopback' });
    // SITE_URL, when set, wins.
    expect(parseEnv({ PORT: '5250', SITE_URL: 'https://www.example.com/' }).siteUrl).toBe('https://www.example.com');
  });

  it('derives the listening address as server.mjs prints it', () => {
    expect(listeningSiteUrl(undefined, undefined)).toBe('http://localhost:3000');
    expect(listeningSiteUrl('8080', '::1')).toBe('http://[::1]:8080');
    expect(listeningSiteUrl('8080', '[::1]')).toBe('http://[::1]:8080');
    expect(listeningSiteUrl('8080', '::')).toBe('http://localhost:8080');
    expect(listeningSiteUrl('not-a-port', undefined)).toBe('http://localhost:3000');
    expect(listeningSiteUrl('70000', undefined)).toBe('http://localhost:3000');
  });

  it('treats empty hosted settings as missing, not as an error', () => {
    expect(parseEnv({ SANITY_PROJECT_ID: '', SANITY_READ_TOKEN: ' ' }).content.world).toBe('embedded');
  });

  it('runs the hosted world with a project id, with defaults for dataset and API version', () => {
    const e = parseEnv({ SANITY_PROJECT_ID: 'abc123', SESSION_SECRET: SECRET, DATABASE_URL, NODE_ENV: 'production' });
    expect(e.content).toMatchObject({
      world: 'hosted',
      projectId: 'abc123',
      dataset: 'production',
      apiVersion: '2025-02-19',
    });
  });

  it('stops with a clear message on a malformed setting', () => {
    expect(() => parseEnv({ SANITY_PROJECT_ID: 'Not Valid!' })).toThrow(/SANITY_PROJECT_ID/);
    expect(() => parseEnv({ SITE_URL: 'not a url' })).toThrow(/SITE_URL/);
  });

  it('requires a session secret in the hosted world, in production and out of it', () => {
    expect(() => parseEnv({ SANITY_PROJECT_ID: 'abc123', DATABASE_URL, NODE_ENV: 'production' })).toThrow(
      /SESSION_SECRET: required/,
    );
    expect(() => parseEnv({ SANITY_PROJECT_ID: 'abc123', DATABASE_URL })).toThrow(/SESSION_SECRET: required/);
    expect(() => parseEnv({ SANITY_PROJECT_ID: 'abc123', DATABASE_URL, SESSION_SECRET: 'short' })).toThrow(
      /SESSION_SECRET: at least 32/,
    );
  });

  it('requires DATABASE_URL in the hosted world; without it elsewhere the data folder holds the database', () => {
    expect(() => parseEnv({ SANITY_PROJECT_ID: 'abc123', SESSION_SECRET: SECRET, NODE_ENV: 'production' })).toThrow(
      /DATABASE_URL: required with a hosted Sanity project/,
    );
    // Both missing: both named, in one message.
    expect(() => parseEnv({ SANITY_PROJECT_ID: 'abc123' })).toThrow(
      /SESSION_SECRET: required[^]*DATABASE_URL: required/,
    );
    expect(() => parseEnv({ DATABASE_URL: 'mysql://x@host/db' })).toThrow(/DATABASE_URL: a postgres:\/\//);
    expect(() => parseEnv({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(parseEnv({ SANITY_PROJECT_ID: 'abc123', SESSION_SECRET: SECRET, DATABASE_URL }).database).toEqual({
      kind: 'postgres',
      url: DATABASE_URL,
    });
    expect(parseEnv({}).database).toEqual({ kind: 'pglite', dataDir: 'data' });
    expect(parseEnv({ CONTENT_DATA_DIR: '/srv/data', DATABASE_URL: ' ' }).database).toEqual({
      kind: 'pglite',
      dataDir: '/srv/data',
    });
    // The embedded content world may keep its client data on a PostgreSQL server too.
    expect(parseEnv({ DATABASE_URL: 'postgresql://127.0.0.1/site' }).database).toEqual({
      kind: 'postgres',
      url: 'postgresql://127.0.0.1/site',
    });
  });

  it('never signs with a built-in value: without SESSION_SECRET the embedded world gets its local secret', () => {
    const a = parseEnv({ NODE_ENV: 'production' });
    const b = parseEnv({ NODE_ENV: 'production' });
    expect(a.sessionSecret).not.toBe(b.sessionSecret);
    expect(a.sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(a.sessionSecretSource).toBe('ephemeral');
    const local = parseEnv({ CONTENT_DATA_DIR: '/srv/data' }, (dir) => ({
      secret: `from ${dir} ${'x'.repeat(32)}`,
      source: 'data-folder',
    }));
    expect(local.sessionSecret).toBe(`from /srv/data ${'x'.repeat(32)}`);
    expect(local.sessionSecretSource).toBe('data-folder');
    expect(parseEnv({ SESSION_SECRET: SECRET }).sessionSecretSource).toBe('environment');
  });

  it('accepts previous secrets during a rotation: the current one signs, all verify', () => {
    const e = parseEnv({ SESSION_SECRET: SECRET, SESSION_SECRET_PREVIOUS: 'old-secret-one old-secret-two' });
    expect(e.sessionSecret).toBe(SECRET);
    expect(e.sessionSecrets).toEqual([SECRET, 'old-secret-one', 'old-secret-two']);
  });

  it('Stripe runs only with both keys; test hooks are refused in production, with Stripe and hosted', () => {
    expect(parseEnv({}).billing).toEqual({ kind: 'embedded', because: 'loopback' });
    const stripe = parseEnv({
      STRIPE_SECRET_KEY: 'sk_test_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      STRIPE_PRICE_BUSINESS: 'price_b',
      STRIPE_API_BASE: 'http://127.0.0.1:4000/',
    });
    expect(stripe.billing).toEqual({
      kind: 'stripe',
      secretKey: 'sk_test_abc',
      webhookSecret: 'whsec_abc',
      prices: { starter: undefined, business: 'price_b', enterprise: undefined },
      apiBase: 'http://127.0.0.1:4000',
      tax: 'rates',
    });
    const keys = { STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' };
    expect(parseEnv({ ...keys, STRIPE_TAX: 'automatic' }).billing).toMatchObject({ tax: 'automatic' });
    expect(() => parseEnv({ ...keys, STRIPE_TAX: 'yes' })).toThrow(/STRIPE_TAX/);
    expect(() => parseEnv({ STRIPE_SECRET_KEY: 'sk_test_abc' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(() => parseEnv({ STRIPE_WEBHOOK_SECRET: 'whsec_abc' })).toThrow(/STRIPE_SECRET_KEY/);
    expect(() => parseEnv({ STRIPE_SECRET_KEY: 'pk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' })).toThrow(
      /STRIPE_SECRET_KEY/,
    );
    expect(parseEnv({ PORTAL_TEST_HOOKS: '1', NODE_ENV: 'test' }).portalTestHooks).toBe(true);
    expect(() => parseEnv({ PORTAL_TEST_HOOKS: '1', NODE_ENV: 'production' })).toThrow(/PORTAL_TEST_HOOKS/);
    expect(() =>
      parseEnv({ PORTAL_TEST_HOOKS: '1', STRIPE_SECRET_KEY: 'sk_test_a', STRIPE_WEBHOOK_SECRET: 'whsec_a' }),
    ).toThrow(/PORTAL_TEST_HOOKS/);
    expect(() =>
      parseEnv({ PORTAL_TEST_HOOKS: '1', SANITY_PROJECT_ID: 'abc', SESSION_SECRET: SECRET, DATABASE_URL }),
    ).toThrow(/PORTAL_TEST_HOOKS/);
  });

  it('runs no test-card billing on a public site: the embedded engine needs a loopback SITE_URL or BILLING=demo', () => {
    const billing = (extra: Record<string, string>) => parseEnv(extra).billing;
    for (const local of [
      'http://localhost:3000',
      'http://LOCALHOST:8080/',
      'http://portal.localhost',
      'http://127.0.0.1:3210',
      'http://127.9.8.7',
      'http://127.1:3000', // the URL parser reads it as 127.0.0.1
      'http://[::1]:3000',
    ])
      expect(billing({ SITE_URL: local, NODE_ENV: 'production' }), local).toEqual({
        kind: 'embedded',
        because: 'loopback',
      });
    for (const site of [
      'https://www.example.com',
      'http://10.0.0.5:3000',
      'http://192.168.1.10',
      'http://0.0.0.0:3000',
      'http://128.0.0.1',
      'http://[::2]',
      'http://localhost.example.com', // a public name that starts like one
      'http://127.0.0.1.nip.io',
    ]) {
      expect(billing({ SITE_URL: site }), site).toEqual({ kind: 'none' });
      expect(billing({ SITE_URL: site, BILLING: 'demo' }), site).toEqual({ kind: 'embedded', because: 'BILLING=demo' });
    }
    // Stripe keys decide on any site; asking for the demo engine beside them is a mistake to name.
    expect(
      parseEnv(
        {
          SITE_URL: 'https://www.example.com',
          STRIPE_SECRET_KEY: 'sk_live_a',
          STRIPE_WEBHOOK_SECRET: 'whsec_a',
          TAX_PROFILE_FILE: 'tax.json',
        },
        undefined,
        () => JSON.stringify(TAX_PROFILE),
      ).billing.kind,
    ).toBe('stripe');
    expect(() =>
      parseEnv({ BILLING: 'demo', STRIPE_SECRET_KEY: 'sk_live_a', STRIPE_WEBHOOK_SECRET: 'whsec_a' }),
    ).toThrow(/BILLING: demo runs the local engine/);
    expect(() => parseEnv({ BILLING: 'stripe' })).toThrow(/BILLING: unset, or demo/);
    expect(billing({ SITE_URL: 'https://www.example.com', BILLING: '' })).toEqual({ kind: 'none' });
  });

  it('takes the tax profile from TAX_PROFILE_FILE; Stripe on a public site refuses to start without a complete one', () => {
    const stripe = {
      SITE_URL: 'https://www.example.com',
      STRIPE_SECRET_KEY: 'sk_live_a',
      STRIPE_WEBHOOK_SECRET: 'whsec_a',
    };
    expect(() => parseEnv(stripe)).toThrow(/TAX_PROFILE_FILE: required with Stripe on a public site/);
    const withFile = (profile: unknown) =>
      parseEnv({ ...stripe, TAX_PROFILE_FILE: '/etc/tax.json' }, undefined, (file) => {
        expect(file).toBe('/etc/tax.json');
        return typeof profile === 'string' ? profile : JSON.stringify(profile);
      });
    expect(withFile(TAX_PROFILE).taxProfile).toMatchObject({
      country: 'AE',
      registrationNumber: '100123456789012',
      demo: false,
    });
    // A file cannot claim to be the demo: only the built-in profile is.
    expect(withFile({ ...TAX_PROFILE, demo: true }).taxProfile?.demo).toBe(false);
    expect(() => withFile({ ...TAX_PROFILE, address: { en: 'Dubai' } })).toThrow(/TAX_PROFILE_FILE address\.ar/);
    expect(() => withFile({ ...TAX_PROFILE, registrationNumber: '1234' })).toThrow(/a UAE TRN is 15 digits/);
    expect(() => withFile('{ not json')).toThrow(/TAX_PROFILE_FILE: \/etc\/tax.json is not a readable JSON file/);
    // Where no real payment is taken: the demo profile, which says it is one; none without billing.
    expect(parseEnv({ SITE_URL: 'http://localhost:3000' }).taxProfile?.demo).toBe(true);
    expect(parseEnv({ SITE_URL: 'https://www.example.com', BILLING: 'demo' }).taxProfile?.demo).toBe(true);
    expect(parseEnv({ ...stripe, SITE_URL: 'http://127.0.0.1:3000' }).taxProfile?.demo).toBe(true);
    expect(parseEnv({ SITE_URL: 'https://www.example.com' }).taxProfile).toBeNull();
  });

  it('reads the Studio URL (default: where npm run studio:dev serves it) and an optional Content Lake host', () => {
    const hosted = (extra: Record<string, string>) =>
      parseEnv({ SANITY_PROJECT_ID: 'abc123', SESSION_SECRET: SECRET, DATABASE_URL, ...extra }).content;
    expect(hosted({})).toMatchObject({ studioUrl: 'http://localhost:3333' });
    expect(hosted({})).not.toHaveProperty('apiHost');
    expect(
      hosted({ SANITY_STUDIO_URL: 'https://bawaba.sanity.studio/', SANITY_API_HOST: 'http://127.0.0.1:3651/' }),
    ).toMatchObject({
      studioUrl: 'https://bawaba.sanity.studio',
      apiHost: 'http://127.0.0.1:3651',
    });
    expect(hosted({ SANITY_STUDIO_URL: '/studio' })).toMatchObject({ studioUrl: '/studio' });
    expect(() => parseEnv({ SANITY_STUDIO_URL: 'bawaba.sanity.studio' })).toThrow(/SANITY_STUDIO_URL/);
    expect(() => parseEnv({ SANITY_STUDIO_URL: '//evil.example' })).toThrow(/SANITY_STUDIO_URL/);
    expect(() => parseEnv({ SANITY_API_HOST: 'ftp://example.com' })).toThrow(/SANITY_API_HOST/);
  });

  it('drops a trailing slash from the site URL', () => {
    expect(parseEnv({ SITE_URL: 'https://example.com/' }).siteUrl).toBe('https://example.com');
  });

  it('reads the mail settings: SMTP when set, otherwise an outbox under the data folder', () => {
    expect(parseEnv({}).mail).toEqual({ smtpUrl: undefined, from: undefined, to: undefined, outboxDir: 'data/outbox' });
    expect(parseEnv({ CONTENT_DATA_DIR: '/tmp/x' }).mail.outboxDir).toBe('/tmp/x/outbox');
    expect(
      parseEnv({ OUTBOX_DIR: '/tmp/out', SMTP_URL: 'smtps://u:p@mail.example.com:465', MAIL_TO: 'a@example.com' }).mail,
    ).toMatchObject({ outboxDir: '/tmp/out', smtpUrl: 'smtps://u:p@mail.example.com:465', to: 'a@example.com' });
    expect(() => parseEnv({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL/);
    expect(() => parseEnv({ MAIL_FROM: 'a@example.com\nBcc: x@example.com' })).toThrow(/MAIL_FROM/);
  });
});

describe('localSessionSecret (embedded world without SESSION_SECRET)', () => {
  it('generates a random secret on first start, owner-readable only, and reuses it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'secret-'));
    try {
      const first = localSessionSecret(path.join(dir, 'data'));
      expect(first).toMatch(/^[A-Za-z0-9_-]{64}$/);
      const file = path.join(dir, 'data', 'session-secret');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(localSessionSecret(path.join(dir, 'data'))).toBe(first);
      expect(readFileSync(file, 'utf8').trim()).toBe(first);
      // Another folder, another secret: nothing is built in.
      expect(localSessionSecret(path.join(dir, 'other'))).not.toBe(first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('tightens a secret file others can read, and refuses an empty one', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'secret-'));
    try {
      const file = path.join(dir, 'session-secret');
      writeFileSync(file, 'y'.repeat(40), { mode: 0o644 });
      expect(localSessionSecret(dir)).toBe('y'.repeat(40));
      expect(statSync(file).mode & 0o777).toBe(0o600);
      writeFileSync(file, '\n');
      expect(() => localSessionSecret(dir)).toThrow(/no usable secret/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
