import type { z } from 'zod';
import type { Locale } from '~/i18n';
import { env } from '~/lib/env.server';
import { previewPerspective } from '~/lib/preview.server';
import { QueryCache, typesReadBy, type CacheDeps } from './cache.server';
import { contentClient } from './client.server';
import { stripFallbackMarks } from './fallback';
import type { QueryDefinition } from './groq';
import type { QueryParams } from './types';
import { log as logger } from '~/lib/log.server';

export class ContentShapeError extends Error {
  constructor(name: string, issues: z.core.$ZodIssue[]) {
    super(
      `Query "${name}" returned an unexpected shape: ${issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ')}`,
    );
    this.name = 'ContentShapeError';
  }
}

declare global {
  var __queryCache: QueryCache | undefined;
}

/** The process's cache of published results, cleared by content changes. */
export function queryCache(): QueryCache {
  if (!globalThis.__queryCache) {
    const cache = new QueryCache({
      maxAgeMs: env().contentCacheSeconds * 1000,
      log: (m) => logger.warn(`[content] ${m}`),
    });
    contentClient().onChange((types) => cache.invalidate(types));
    globalThis.__queryCache = cache;
  }
  return globalThis.__queryCache;
}

/**
 * Runs a named query for a request and checks its result at the boundary: a result that
 * does not match the query's schema is a server error with the query's name, never a
 * half-rendered page. Published results are cached in process (see cache.server.ts) and
 * dropped when the content they read changes; a preview session reads its perspective
 * (drafts unless the Studio chose published), uncached.
 */
export async function loadQuery<S extends z.ZodType>(
  request: Request,
  definition: QueryDefinition<S>,
  params: QueryParams & { lang: Locale },
): Promise<z.infer<S>> {
  const preview = await previewPerspective(request);
  const perspective = preview ?? 'published';
  const run = () => contentClient().fetch(definition.query, params, { perspective, preview: preview !== null });
  // Visitors share the cache of published results; a preview session (drafts, or published
  // chosen in the Studio) always reads afresh.
  const raw =
    preview === null
      ? await queryCache().get(`${definition.name}:${JSON.stringify(params)}`, depsOf(definition), run)
      : await run();
  const { data, fallbacks } = checked(definition, raw, params.lang);
  if (fallbacks.length) {
    const seen = fallbacksByRequest.get(request) ?? new Set<string>();
    for (const text of fallbacks) seen.add(text);
    fallbacksByRequest.set(request, seen);
  }
  return data as z.infer<S>;
}

/** The document types a query reads, worked out from its text once. */
const depsByQuery = new WeakMap<QueryDefinition<z.ZodType>, CacheDeps>();
function depsOf(definition: QueryDefinition<z.ZodType>): CacheDeps {
  let deps = definition.dependsOn ?? depsByQuery.get(definition);
  if (!deps) depsByQuery.set(definition, (deps = typesReadBy(definition.query)));
  return deps;
}

type Checked = { definition: QueryDefinition<z.ZodType>; data: unknown; fallbacks: string[] };
/**
 * A result unmarked (English fallbacks listed) and checked against the query's schema, once
 * per result: the cache hands every visitor the same result object, so the same checked data
 * serves them all. Loaders and components therefore never change what a query returned
 * (outside production it is frozen, so a test that tried would fail).
 */
const checkedResults = new WeakMap<object, Checked>();
function checked(definition: QueryDefinition<z.ZodType>, raw: unknown, lang: Locale): Checked {
  const known = raw !== null && typeof raw === 'object' ? checkedResults.get(raw) : undefined;
  if (known?.definition === definition) return known;
  const stripped = lang === 'en' ? { value: raw, fallbacks: [] } : stripFallbackMarks(raw);
  const parsed = definition.schema.safeParse(stripped.value);
  if (!parsed.success) throw new ContentShapeError(definition.name, parsed.error.issues);
  const result = { definition, data: parsed.data, fallbacks: stripped.fallbacks };
  if (process.env.NODE_ENV !== 'production') deepFreeze(result.data);
  if (raw !== null && typeof raw === 'object') checkedResults.set(raw, result);
  return result;
}

function deepFreeze(value: unknown) {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const item of Object.values(value)) deepFreeze(item);
}

const fallbacksByRequest = new WeakMap<Request, Set<string>>();

/**
 * The texts this request's queries showed in English because their translation is missing.
 * A loader returns them as `englishFallbacks`; components mark those texts lang="en"
 * (useFallbackLang in app/lib/content-lang.ts).
 */
export function englishFallbacks(request: Request): string[] {
  return [...(fallbacksByRequest.get(request) ?? [])];
}
