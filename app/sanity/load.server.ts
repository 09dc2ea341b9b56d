import type { z } from 'zod';
import type { Locale } from '~/i18n';
import { contentClient } from './client.server';
import type { QueryDefinition } from './groq';
import type { Perspective, QueryParams } from './types';

/**
 * Runs a named query for a request and checks its result at the boundary: a result that
 * does not match the query's schema is a server error with the query's name, never a
 * half-rendered page.
 */
export function perspectiveFor(_request: Request): Perspective {
  return 'published';
}

export class ContentShapeError extends Error {
  constructor(name: string, issues: z.core.$ZodIssue[]) {
    super(`Query "${name}" returned an unexpected shape: ${issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    this.name = 'ContentShapeError';
  }
}

export async function loadQuery<S extends z.ZodType>(
  request: Request,
  definition: QueryDefinition<S>,
  params: QueryParams & { lang: Locale },
): Promise<z.infer<S>> {
  const raw = await contentClient().fetch(definition.query, params, { perspective: perspectiveFor(request) });
  const parsed = definition.schema.safeParse(raw);
  if (!parsed.success) throw new ContentShapeError(definition.name, parsed.error.issues);
  return parsed.data;
}
