import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEMO_TAX_PROFILE, parseTaxProfile, type TaxProfile } from '~/billing/tax/profile';
import { log as logger } from '~/lib/log.server';

/**
 * The server's environment, read once and validated. A missing hosted setting means
 * the embedded world (bundled dataset, local store, outbox), never a crash; a setting
 * that is present but malformed stops the server at start with a clear message.
 */
const optional = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/** An optional Stripe price id (price_…), one a plan. */
const stripePriceId = optional.pipe(
  z
    .string()
    .regex(/^price_[A-Za-z0-9_]+$/, 'a Stripe price id (price_…)')
    .optional(),
);

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  SITE_URL: optional.pipe(z.url().optional()),
  // Read only to derive SITE_URL's default (server.mjs listens on them): never an error here.
  PORT: optional,
  HOST: optional,
  SANITY_PROJECT_ID: optional.pipe(
    z
      .string()
      .regex(/^[a-z0-9-]+$/, 'lowercase letters, digits and dashes')
      .optional(),
  ),
  SANITY_DATASET: optional.pipe(
    z
      .string()
      .regex(/^[a-z0-9_-]+$/)
      .optional(),
  ),
  SANITY_API_VERSION: optional.pipe(
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$|^v1$|^X$/)
      .optional(),
  ),
  SANITY_READ_TOKEN: optional,
  SANITY_WRITE_TOKEN: optional,
  SANITY_API_HOST: optional.pipe(z.url({ protocol: /^https?$/, error: 'an http(s):// URL' }).optional()),
  SANITY_STUDIO_URL: optional.pipe(
    z
      .string()
      .refine((v) => /^\/(?!\/)/.test(v) || /^https?:\/\/[^/]/.test(v), 'an http(s):// URL or a path starting with /')
      .optional(),
  ),
  DATABASE_URL: optional.pipe(
    z.url({ protocol: /^postgres(ql)?$/, error: 'a postgres:// or postgresql:// URL' }).optional(),
  ),
  CONTENT_DATASET_FILE: optional,
  CONTENT_DATA_DIR: optional,
  SESSION_SECRET: optional.pipe(z.string().min(32, 'at least 32 characters (e.g. openssl rand -base64 48)').optional()),
  SESSION_SECRET_PREVIOUS: optional,
  STRIPE_SECRET_KEY: optional.pipe(
    z
      .string()
      .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/, 'a Stripe secret key (sk_live_… or sk_test_…)')
      .optional(),
  ),
  STRIPE_WEBHOOK_SECRET: optional.pipe(
    z
      .string()
      .regex(/^whsec_[A-Za-z0-9_]+$/, 'a Stripe webhook signing secret (whsec_…)')
      .optional(),
  ),
  STRIPE_PRICE_STARTER: stripePriceId,
  STRIPE_PRICE_BUSINESS: stripePriceId,
  STRIPE_PRICE_ENTERPRISE: stripePriceId,
  STRIPE_API_BASE: optional.pipe(z.url({ protocol: /^https?$/, error: 'an http(s):// URL' }).optional()),
  /** How Stripe's invoices get their tax: `rates` (default, tax rates from the profile) or `automatic` (Stripe Tax). */
  STRIPE_TAX: optional.pipe(z.enum(['rates', 'automatic'], { error: 'rates or automatic' }).optional()),
  /** `demo`: run the embedded billing engine (test cards, demo clients) on a public site too. */
  BILLING: optional.pipe(z.enum(['demo'], { error: 'unset, or demo' }).optional()),
  PORTAL_TEST_HOOKS: optional.pipe(z.enum(['0', '1']).optional()),
  PORTAL_JOBS_INTERVAL_SECONDS: optional.pipe(
    z.string().regex(/^\d+$/, 'a whole number of seconds').transform(Number).optional(),
  ),
  GTM_ID: optional.pipe(
    z
      .string()
      .regex(/^GTM-[A-Z0-9]+$/)
      .optional(),
  ),
  /** Google Consent Mode: `basic` (GTM only after consent, the default) or `advanced` (GTM loads with everything denied). */
  CONSENT_MODE: optional.pipe(z.enum(['basic', 'advanced'], { error: 'unset, basic or advanced' }).optional()),
  PREVIEW_SECRET: optional.pipe(z.string().min(16, 'at least 16 characters').optional()),
  SANITY_WEBHOOK_SECRET: optional,
  CONTENT_CACHE_SECONDS: optional.pipe(
    z.string().regex(/^\d+$/, 'a whole number of seconds').transform(Number).optional(),
  ),
  PAGE_CACHE: optional.pipe(z.enum(['on', 'off']).optional()),
  SMTP_URL: optional.pipe(z.url({ protocol: /^smtps?$/, error: 'an smtp:// or smtps:// URL' }).optional()),
  MAIL_FROM: optional.pipe(
    z
      .string()
      .max(320)
      .regex(/^[^\r\n]+$/, 'one line')
      .optional(),
  ),
  MAIL_TO: optional.pipe(
    z
      .string()
      .max(1000)
      .regex(/^[^\r\n]+$/, 'one line')
      .optional(),
  ),
  OUTBOX_DIR: optional,
  /** Online backups of the embedded database (app/db/backup.server.ts): where, how often, how many kept. */
  BACKUP_DIR: optional,
  BACKUP_EVERY: optional.pipe(
    z
      .string()
      .regex(/^[1-9]\d{0,5}[mhd]$/, 'a whole number of minutes, hours or days: 30m, 6h, 1d')
      .optional(),
  ),
  BACKUP_KEEP: optional.pipe(
    z
      .string()
      .regex(/^[1-9]\d{0,3}$/, 'a whole number from 1')
      .transform(Number)
      .optional(),
  ),
  /** The issuing entity's tax profile: a JSON file (docs/accounting.md). */
  TAX_PROFILE_FILE: optional,
});

/** Where `sanity dev` (npm run studio:dev) serves the Studio. */
export const DEFAULT_STUDIO_URL = 'http://localhost:3333';

export type ServerEnv = {
  nodeEnv: 'development' | 'production' | 'test';
  isProduction: boolean;
  siteUrl: string;
  /**
   * The site runs behind HTTPS: a production start whose SITE_URL is https://. Then cookies are
   * Secure and every response carries Strict-Transport-Security (app/lib/csp.server.ts).
   */
  behindHttps: boolean;
  content:
    | { world: 'embedded'; datasetFile: string; dataDir: string; projectId: 'embedded'; dataset: 'production' }
    | {
        world: 'hosted';
        projectId: string;
        dataset: string;
        apiVersion: string;
        readToken?: string;
        writeToken?: string;
        /** Where the Studio runs: the edit links stega-encoded into preview text point there. */
        studioUrl: string;
        /** Another Content Lake address (tests point this at a local fake); unset = Sanity's API. */
        apiHost?: string;
      };
  /**
   * Client data (app/db/): a PostgreSQL server at DATABASE_URL (required in the hosted world), or
   * else PGlite in `{CONTENT_DATA_DIR}/db/`.
   */
  database: { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string };
  /** Signs cookies and form tokens: the current secret. Never a built-in value. */
  sessionSecret: string;
  /** Every secret a signature is checked against: the current one first, then SESSION_SECRET_PREVIOUS (rotation). */
  sessionSecrets: string[];
  /** Where the secret came from: the environment, or the file generated in the data folder (embedded world). */
  sessionSecretSource: 'environment' | 'data-folder' | 'ephemeral';
  /**
   * Billing: Stripe when its keys are set; else the embedded engine (local checkout, test cards,
   * demo clients) only on a site that is not public (a loopback SITE_URL) or when the operator
   * opts in with BILLING=demo; else none (a public site without Stripe takes no payment: the
   * packages are offered by consultation, nothing is seeded).
   */
  billing:
    | { kind: 'embedded'; because: 'loopback' | 'BILLING=demo' }
    | { kind: 'none' }
    | {
        kind: 'stripe';
        secretKey: string;
        webhookSecret: string;
        /** Price ids per plan from the environment; a package's stripePriceId in the CMS wins. */
        prices: { starter?: string; business?: string; enterprise?: string };
        /** Another Stripe API address (tests point it at tests/fake-stripe.mjs). */
        apiBase?: string;
        /** Tax rates made from the profile (`rates`), or Stripe Tax (`automatic`, enabled in the Stripe account). */
        tax: 'rates' | 'automatic';
      };
  /** Test-only hooks (move the billing clock, make invoices fail): refused in production and with Stripe. */
  portalTestHooks: boolean;
  /** How often the server runs the portal's jobs (renewals, reminders, mail); 0 = never (cron runs `npm run jobs`). */
  portalJobsIntervalSeconds: number;
  gtmId?: string;
  /** Consent Mode (issue 42): `basic` loads GTM only after consent; `advanced` loads it with everything denied. */
  consentMode: 'basic' | 'advanced';
  /** Enables draft preview: the secret a preview link must carry. */
  previewSecret?: string;
  /** Verifies Sanity webhook calls to /api/revalidate. */
  webhookSecret?: string;
  /** How long a published query result may be served from memory before it is refreshed. */
  contentCacheSeconds: number;
  /** The in-process cache of rendered public pages (ADR 0010); PAGE_CACHE=off disables it. */
  pageCache: boolean;
  /** The firm's notification emails: SMTP when SMTP_URL is set, else .eml files in outboxDir. */
  mail: { smtpUrl?: string; from?: string; to?: string; outboxDir: string };
  /**
   * Backups of the embedded database (docs/operating.md#back-up): made into `dir`; every
   * `everySeconds` by the running server (null: only by `npm run backup`); the newest `keep` kept.
   */
  backups: { dir: string; everySeconds: number | null; keep: number };
  /**
   * Who the invoices are from (app/billing/tax/profile.ts): the operator's TAX_PROFILE_FILE; else,
   * where no real payment is taken (the embedded engine, or Stripe on a loopback site), the demo
   * profile, which says it is one; null when the site takes no payment. Stripe on a public site
   * refuses to start without a complete profile.
   */
  taxProfile: TaxProfile | null;
};

/**
 * The embedded world's signing secret when SESSION_SECRET is not set: generated on first start
 * (48 random bytes), kept in `{dataDir}/session-secret` readable by the owner only, and reused
 * after. Two processes starting at once agree: the file appears whole or not at all (written
 * aside, then hard-linked into place, which fails if another process won).
 */
export function localSessionSecret(dataDir: string): string {
  const file = path.resolve(dataDir, 'session-secret');
  const read = () => {
    const value = readFileSync(file, 'utf8').trim();
    if (value.length < 32) throw new Error(`${file} holds no usable secret: delete it to generate a new one`);
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    return value;
  };
  try {
    return read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, randomBytes(48).toString('base64url') + '\n', { mode: 0o600, flush: true });
  try {
    linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temp);
  }
  return read();
}

/**
 * SITE_URL when none is set: the address `npm start` listens on and prints (server.mjs), so a
 * server started with PORT=5250 links to itself, not to port 3000. A wildcard HOST (all
 * interfaces) or none is reached as localhost; a PORT that is not a port number falls back to
 * server.mjs's default, 3000.
 */
export function listeningSiteUrl(port: string | undefined, host: string | undefined): string {
  const number = /^\d{1,5}$/.test(port ?? '') ? Number(port) : 0;
  const portPart = number >= 1 && number <= 65535 ? number : 3000;
  const bare = (host ?? '').replace(/^\[(.*)\]$/, '$1');
  const name = !bare || bare === '0.0.0.0' || bare === '::' ? 'localhost' : bare.includes(':') ? `[${bare}]` : bare;
  return `http://${name}:${portPart}`;
}

/**
 * A site that only this machine can reach: SITE_URL on localhost (or a name under .localhost),
 * 127.0.0.0/8 or [::1]. Anything else is public, whatever NODE_ENV says.
 */
export function isLoopbackSite(siteUrl: string): boolean {
  let host: string;
  try {
    host = new URL(siteUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  // The URL parser has already normalised 127.1, 0x7f.0.0.1 and 2130706433 to dotted quads.
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === '[::1]'
  );
}

export function parseEnv(
  source: Record<string, string | undefined>,
  /** Where an embedded world without SESSION_SECRET gets its secret; default: a fresh random one (tests). */
  localSecret: (dataDir: string) => { secret: string; source: 'data-folder' | 'ephemeral' } = () => ({
    secret: randomBytes(48).toString('base64url'),
    source: 'ephemeral',
  }),
  /** Reads TAX_PROFILE_FILE (tests pass their own). */
  readFile: (file: string) => string = (file) => readFileSync(file, 'utf8'),
): ServerEnv {
  const result = schema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = result.data;
  const siteUrl = e.SITE_URL ?? listeningSiteUrl(e.PORT, e.HOST);
  const isProduction = e.NODE_ENV === 'production';
  const content: ServerEnv['content'] = e.SANITY_PROJECT_ID
    ? {
        world: 'hosted',
        projectId: e.SANITY_PROJECT_ID,
        dataset: e.SANITY_DATASET ?? 'production',
        apiVersion: e.SANITY_API_VERSION ?? '2025-02-19',
        readToken: e.SANITY_READ_TOKEN,
        writeToken: e.SANITY_WRITE_TOKEN,
        // `npm run studio:dev` serves the Studio here; a deployed Studio sets its own URL.
        studioUrl: (e.SANITY_STUDIO_URL ?? DEFAULT_STUDIO_URL).replace(/(.)\/$/, '$1'),
        ...(e.SANITY_API_HOST ? { apiHost: e.SANITY_API_HOST.replace(/\/$/, '') } : {}),
      }
    : {
        world: 'embedded',
        datasetFile: e.CONTENT_DATASET_FILE ?? 'studio/dataset/production.ndjson',
        dataDir: e.CONTENT_DATA_DIR ?? 'data',
        projectId: 'embedded',
        dataset: 'production',
      };
  const problems: string[] = [];
  // The hosted world can run as several copies: they must share one secret, so it is set, never generated.
  if (!e.SESSION_SECRET && content.world === 'hosted')
    problems.push('SESSION_SECRET: required with a hosted Sanity project');
  // Client data never goes to the content store: the hosted world keeps it in its PostgreSQL.
  if (!e.DATABASE_URL && content.world === 'hosted')
    problems.push('DATABASE_URL: required with a hosted Sanity project (postgres://user:password@host:5432/database)');
  if (Boolean(e.STRIPE_SECRET_KEY) !== Boolean(e.STRIPE_WEBHOOK_SECRET)) {
    problems.push(
      `${e.STRIPE_SECRET_KEY ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY'}: Stripe needs both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET`,
    );
  }
  if (e.BILLING === 'demo' && e.STRIPE_SECRET_KEY)
    problems.push('BILLING: demo runs the local engine with test cards; unset it to use the Stripe keys');
  const portalTestHooks = e.PORTAL_TEST_HOOKS === '1';
  if (portalTestHooks && (isProduction || e.STRIPE_SECRET_KEY || content.world === 'hosted')) {
    problems.push('PORTAL_TEST_HOOKS: test hooks are refused in production, with Stripe and in the hosted world');
  }
  let taxProfile: TaxProfile | null = null;
  if (e.TAX_PROFILE_FILE) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFile(e.TAX_PROFILE_FILE));
    } catch (error) {
      problems.push(
        `TAX_PROFILE_FILE: ${e.TAX_PROFILE_FILE} is not a readable JSON file (${(error as Error).message})`,
      );
    }
    if (raw !== undefined) {
      const parsed = parseTaxProfile(raw);
      if (parsed.ok) taxProfile = { ...parsed.profile, demo: false };
      else problems.push(...parsed.problems.map((p) => `TAX_PROFILE_FILE ${p}`));
    }
  } else if (e.STRIPE_SECRET_KEY && !isLoopbackSite(siteUrl)) {
    // Real payments need real tax invoices: who issues them is not guessed.
    problems.push(
      'TAX_PROFILE_FILE: required with Stripe on a public site (the issuing entity: legal name and address in English and Arabic, country, registration number; see docs/accounting.md)',
    );
  } else if (e.STRIPE_SECRET_KEY || e.BILLING === 'demo' || isLoopbackSite(siteUrl)) taxProfile = DEMO_TAX_PROFILE;
  if (problems.length) throw new Error(`Invalid environment:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  const generated = e.SESSION_SECRET || content.world === 'hosted' ? null : localSecret(content.dataDir);
  const sessionSecret = e.SESSION_SECRET ?? generated!.secret;
  const previous = (e.SESSION_SECRET_PREVIOUS ?? '').split(/\s+/).filter(Boolean);
  return {
    nodeEnv: e.NODE_ENV,
    isProduction,
    siteUrl: siteUrl.replace(/\/$/, ''),
    behindHttps: isProduction && siteUrl.startsWith('https:'),
    content,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'pglite', dataDir: e.CONTENT_DATA_DIR ?? 'data' },
    sessionSecret,
    sessionSecrets: [sessionSecret, ...previous.filter((p) => p !== sessionSecret)],
    sessionSecretSource: generated ? generated.source : 'environment',
    billing:
      e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
        ? {
            kind: 'stripe',
            secretKey: e.STRIPE_SECRET_KEY,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET,
            prices: {
              starter: e.STRIPE_PRICE_STARTER,
              business: e.STRIPE_PRICE_BUSINESS,
              enterprise: e.STRIPE_PRICE_ENTERPRISE,
            },
            ...(e.STRIPE_API_BASE ? { apiBase: e.STRIPE_API_BASE.replace(/\/$/, '') } : {}),
            tax: e.STRIPE_TAX ?? 'rates',
          }
        : e.BILLING === 'demo'
          ? { kind: 'embedded', because: 'BILLING=demo' }
          : isLoopbackSite(siteUrl)
            ? { kind: 'embedded', because: 'loopback' }
            : { kind: 'none' },
    portalTestHooks,
    portalJobsIntervalSeconds: e.PORTAL_JOBS_INTERVAL_SECONDS ?? 60,
    gtmId: e.GTM_ID,
    consentMode: e.CONSENT_MODE ?? 'basic',
    previewSecret: e.PREVIEW_SECRET,
    webhookSecret: e.SANITY_WEBHOOK_SECRET,
    // Embedded content changes only through the file watcher and writes, which clear the cache.
    contentCacheSeconds: e.CONTENT_CACHE_SECONDS ?? (content.world === 'hosted' ? 300 : 86_400),
    pageCache: e.PAGE_CACHE !== 'off',
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM,
      to: e.MAIL_TO,
      outboxDir: e.OUTBOX_DIR ?? `${e.CONTENT_DATA_DIR ?? 'data'}/outbox`,
    },
    taxProfile,
    backups: {
      dir: e.BACKUP_DIR ?? 'backups',
      everySeconds: e.BACKUP_EVERY
        ? Number(e.BACKUP_EVERY.slice(0, -1)) *
          { m: 60, h: 3600, d: 86_400 }[e.BACKUP_EVERY.slice(-1) as 'm' | 'h' | 'd']
        : null,
      keep: e.BACKUP_KEEP ?? 7,
    },
  };
}

let cached: ServerEnv | undefined;
export function env(): ServerEnv {
  if (!cached) {
    cached = parseEnv(process.env, (dataDir) => ({ secret: localSessionSecret(dataDir), source: 'data-folder' }));
    if (cached.sessionSecretSource === 'data-folder' && cached.content.world === 'embedded') {
      logger.info(
        `[security] signing secret: ${cached.content.dataDir}/session-secret (generated on first start; set SESSION_SECRET to choose one)`,
      );
    }
  }
  return cached;
}
