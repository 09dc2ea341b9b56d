import { z } from 'zod';

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

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  SITE_URL: z.url().default('http://localhost:3000'),
  SANITY_PROJECT_ID: optional.pipe(z.string().regex(/^[a-z0-9-]+$/, 'lowercase letters, digits and dashes').optional()),
  SANITY_DATASET: optional.pipe(z.string().regex(/^[a-z0-9_-]+$/).optional()),
  SANITY_API_VERSION: optional.pipe(z.string().regex(/^\d{4}-\d{2}-\d{2}$|^v1$|^X$/).optional()),
  SANITY_READ_TOKEN: optional,
  SANITY_WRITE_TOKEN: optional,
  SANITY_API_HOST: optional.pipe(z.url({ protocol: /^https?$/, error: 'an http(s):// URL' }).optional()),
  SANITY_STUDIO_URL: optional.pipe(
    z
      .string()
      .refine((v) => /^\/(?!\/)/.test(v) || /^https?:\/\/[^/]/.test(v), 'an http(s):// URL or a path starting with /')
      .optional(),
  ),
  CONTENT_DATASET_FILE: optional,
  CONTENT_DATA_DIR: optional,
  SESSION_SECRET: optional,
  GTM_ID: optional.pipe(z.string().regex(/^GTM-[A-Z0-9]+$/).optional()),
  PREVIEW_SECRET: optional.pipe(z.string().min(16, 'at least 16 characters').optional()),
  SANITY_WEBHOOK_SECRET: optional,
  CONTENT_CACHE_SECONDS: optional.pipe(z.string().regex(/^\d+$/, 'a whole number of seconds').transform(Number).optional()),
  SMTP_URL: optional.pipe(z.url({ protocol: /^smtps?$/, error: 'an smtp:// or smtps:// URL' }).optional()),
  MAIL_FROM: optional.pipe(z.string().max(320).regex(/^[^\r\n]+$/, 'one line').optional()),
  MAIL_TO: optional.pipe(z.string().max(1000).regex(/^[^\r\n]+$/, 'one line').optional()),
  OUTBOX_DIR: optional,
});

/** Where `sanity dev` (npm run studio:dev) serves the Studio. */
export const DEFAULT_STUDIO_URL = 'http://localhost:3333';

export type ServerEnv = {
  nodeEnv: 'development' | 'production' | 'test';
  isProduction: boolean;
  siteUrl: string;
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
  sessionSecret: string;
  gtmId?: string;
  /** Enables draft preview: the secret a preview link must carry. */
  previewSecret?: string;
  /** Verifies Sanity webhook calls to /api/revalidate. */
  webhookSecret?: string;
  /** How long a published query result may be served from memory before it is refreshed. */
  contentCacheSeconds: number;
  /** The firm's notification emails: SMTP when SMTP_URL is set, else .eml files in outboxDir. */
  mail: { smtpUrl?: string; from?: string; to?: string; outboxDir: string };
};

export function parseEnv(source: Record<string, string | undefined>): ServerEnv {
  const result = schema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = result.data;
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
  if (isProduction && !e.SESSION_SECRET && content.world === 'hosted') {
    throw new Error('Invalid environment:\n  SESSION_SECRET: required in production with a hosted Sanity project');
  }
  return {
    nodeEnv: e.NODE_ENV,
    isProduction,
    siteUrl: e.SITE_URL.replace(/\/$/, ''),
    content,
    // Embedded/local runs get a fixed development secret; hosted production must set one.
    sessionSecret: e.SESSION_SECRET ?? 'local-development-secret-change-me',
    gtmId: e.GTM_ID,
    previewSecret: e.PREVIEW_SECRET,
    webhookSecret: e.SANITY_WEBHOOK_SECRET,
    // Embedded content changes only through the file watcher and writes, which clear the cache.
    contentCacheSeconds: e.CONTENT_CACHE_SECONDS ?? (content.world === 'hosted' ? 300 : 86_400),
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM,
      to: e.MAIL_TO,
      outboxDir: e.OUTBOX_DIR ?? `${e.CONTENT_DATA_DIR ?? 'data'}/outbox`,
    },
  };
}

let cached: ServerEnv | undefined;
export function env(): ServerEnv {
  cached ??= parseEnv(process.env);
  return cached;
}
