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
  CONTENT_DATASET_FILE: optional,
  CONTENT_DATA_DIR: optional,
  SESSION_SECRET: optional,
  GTM_ID: optional.pipe(z.string().regex(/^GTM-[A-Z0-9]+$/).optional()),
});

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
      };
  sessionSecret: string;
  gtmId?: string;
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
  };
}

let cached: ServerEnv | undefined;
export function env(): ServerEnv {
  cached ??= parseEnv(process.env);
  return cached;
}
