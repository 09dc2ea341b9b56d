/**
 * An auth store that never calls the API, used ONLY when the schema is extracted offline for
 * TypeGen (scripts/typegen.sh sets SANITY_OFFLINE_SCHEMA_EXTRACT=1).
 *
 * `sanity schema extract` loads the Studio config and resolves its workspace, which asks the
 * API who the current user is; without a network (or a login) that fails. Extraction only needs
 * the schema, so a stub that reports "authenticated, no user" is enough.
 *
 * The variable is read from the Node process only: Sanity inlines only SANITY_STUDIO_* variables
 * into the Studio bundle, so a built or deployed Studio always uses the normal login.
 */
import { createClient } from '@sanity/client';
import { createMockAuthStore, type AuthStore } from 'sanity';
import { API_VERSION } from '../schemas/fields';

export const OFFLINE_EXTRACT_ENV = 'SANITY_OFFLINE_SCHEMA_EXTRACT';

/** True only in a Node process that asked for offline extraction (never in the browser bundle). */
export function isOfflineSchemaExtract(): boolean {
  const env =
    typeof process === 'undefined' ? undefined : (process.env as Record<string, string | undefined> | undefined);
  return env?.[OFFLINE_EXTRACT_ENV] === '1';
}

export function offlineAuthStore(projectId: string, dataset: string): AuthStore {
  const client = createClient({ projectId, dataset, apiVersion: API_VERSION, useCdn: false, withCredentials: false });
  return createMockAuthStore({ client, currentUser: null });
}
