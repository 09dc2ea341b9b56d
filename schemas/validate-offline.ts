/**
 * Validates documents against the schema exactly as the Studio would, without a Studio or a
 * network: the compiled schema plus stub answers for the two things that need the Content
 * Lake (uniqueness lookups pass, references are taken to exist). For tests and content checks.
 */
import { createSchema, validateDocument, type SanityDocument, type ValidationMarker } from 'sanity';
import { schemaTypes } from './index';

export type OfflineEnvironment = 'studio' | 'cli';

let compiled: ReturnType<typeof createSchema> | undefined;

export function compiledSchema() {
  compiled ??= createSchema({ name: 'default', types: schemaTypes });
  return compiled;
}

/** Stub client: every `!defined(...)` uniqueness query answers "unique". */
const offlineClient = {
  fetch: async () => true,
  withConfig() {
    return offlineClient;
  },
};

let shimUsers = 0;
let ownsWindowShim = false;

/**
 * Markers (errors, warnings) for one document.
 * - `studio`: the levels editors see in the Studio.
 * - `cli`: also reports fields that are not in the schema. Caution: in this mode Sanity
 *   downgrades `required` on object-typed fields to warnings, so judge levels with `studio`.
 */
export async function validateOffline(
  document: Record<string, unknown>,
  environment: OfflineEnvironment = 'studio',
): Promise<ValidationMarker[]> {
  // Sanity schedules validation with requestIdleCallback; outside a browser its shim uses window.setTimeout.
  const g = globalThis as { window?: unknown };
  if (typeof g.window === 'undefined') {
    g.window = { setTimeout, clearTimeout };
    ownsWindowShim = true;
  }
  shimUsers++;
  try {
    return await validateDocument({
      document: { _createdAt: '', _updatedAt: '', _rev: '', ...document } as SanityDocument,
      workspace: { schema: compiledSchema(), i18n: undefined } as unknown as Parameters<
        typeof validateDocument
      >[0]['workspace'],
      getClient: () => offlineClient as never,
      getDocumentExists: async () => true,
      environment,
    });
  } finally {
    shimUsers--;
    if (ownsWindowShim && shimUsers === 0) {
      delete g.window;
      ownsWindowShim = false;
    }
  }
}

/** "path.to[0].field: message" lines, for readable assertions and reports. */
export function describeMarkers(markers: ValidationMarker[]): string[] {
  return markers.map((marker) => {
    const path = marker.path
      .map((segment) =>
        typeof segment === 'string'
          ? segment
          : typeof segment === 'number'
            ? `[${segment}]`
            : '_key' in segment
              ? `[_key=="${segment._key}"]`
              : '[]',
      )
      .join('.')
      .replace(/\.\[/g, '[');
    return `${marker.level} ${path || '(document)'}: ${marker.message}`;
  });
}
