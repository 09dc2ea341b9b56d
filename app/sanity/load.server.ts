import type { z } from 'zod';
import type { Locale } from '~/i18n';
import { env } from '~/lib/env.server';
import { previewPerspective } from '~/lib/preview.server';
import { QueryCache, typesReadBy } from './cache.server';
import { contentClient } from './client.server';
import { stripFallbackMarks } from './fallback';
import type { QueryDefinition } from './groq';
import type { QueryParams } from './types';

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
      log: (m) => console.warn(`[content] ${m}`),
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
      ? await queryCache().get(
          `${definition.name}:${JSON.stringify(params)}`,
          definition.dependsOn ?? typesReadBy(definition.query),
          run,
        )
      : await run();
  let result = raw;
  if (params.lang !== 'en') {
    const stripped = stripFallbackMarks(raw);
    result = stripped.value;
    if (stripped.fallbacks.length) {
      const seen = fallbacksByRequest.get(request) ?? new Set<string>();
      for (const text of stripped.fallbacks) seen.add(text);
      fallbacksByRequest.set(request, seen);
    }
  }
  const parsed = definition.schema.safeParse(result);
  if (!parsed.success) throw new ContentShapeError(definition.name, parsed.error.issues);
  return parsed.data;
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
