import { and, eq, inArray, sql } from 'drizzle-orm';
import { lakeEditorPreferences } from '~/db/schema.server';
import type { Db } from '~/db/types.server';
import type { LakeLimits } from './limits.server';
import { LakeError } from './mutations';

/**
 * The Studio's key-value store (`/users/me/keyvalue`), per editor in the database (ADR 0025):
 * one editor's preferences are never another's, survive a restart, and go when the editor is
 * removed. Bounded: a key's length and characters, a value's size, and keys per editor.
 */
export type Preference = { key: string; value: unknown };

type Bounds = Pick<LakeLimits, 'preferenceKeys' | 'preferenceKeyChars' | 'preferenceBytes'>;

// Any text but a comma (the GET form separates keys with one) or a control character: the Studio's
// keys are dotted names with pane and document ids in them (`studio.structure-tool.…`).
// eslint-disable-next-line no-control-regex
const KEY = /^[^,\u0000-\u001f\u007f]+$/;

export function checkPreferenceKey(key: unknown, bounds: Bounds): string {
  if (typeof key !== 'string' || !key || key.length > bounds.preferenceKeyChars || !KEY.test(key))
    throw new LakeError(
      `A preference key is 1 to ${bounds.preferenceKeyChars} characters, without commas`,
      400,
      'validationError',
    );
  return key;
}

export async function readPreferences(db: Db, email: string, keys: readonly string[]): Promise<Preference[]> {
  const rows = keys.length
    ? await db
        .select({ key: lakeEditorPreferences.key, value: lakeEditorPreferences.value })
        .from(lakeEditorPreferences)
        .where(and(eq(lakeEditorPreferences.email, email), inArray(lakeEditorPreferences.key, [...keys])))
    : [];
  const found = new Map(rows.map((r) => [r.key, r.value]));
  return keys.map((key) => ({ key, value: found.get(key) ?? null }));
}

/** Writes all of `items` or none (400 for a bad item, 413 past a bound). */
export async function writePreferences(db: Db, email: string, body: unknown, bounds: Bounds): Promise<Preference[]> {
  const list = Array.isArray(body) ? body : [body];
  if (list.length > bounds.preferenceKeys)
    throw new LakeError(`Up to ${bounds.preferenceKeys} preferences at once`, 413, 'validationError');
  const items = list.map((item) => {
    if (!item || typeof item !== 'object' || Array.isArray(item))
      throw new LakeError('A preference is {"key": …, "value": …}', 400, 'validationError');
    const { key, value } = item as { key?: unknown; value?: unknown };
    const checked = checkPreferenceKey(key, bounds);
    if (Buffer.byteLength(JSON.stringify(value ?? null)) > bounds.preferenceBytes)
      throw new LakeError(`A preference's value is up to ${bounds.preferenceBytes / 1024} KB`, 413, 'validationError');
    return { key: checked, value: value ?? null };
  });
  if (!items.length) return [];
  await db.transaction(async (tx) => {
    for (const { key, value } of items)
      await tx
        .insert(lakeEditorPreferences)
        .values({ email, key, value, updatedAt: new Date() })
        .onConflictDoUpdate({
          target: [lakeEditorPreferences.email, lakeEditorPreferences.key],
          set: { value, updatedAt: new Date() },
        });
    const [{ count }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(lakeEditorPreferences)
      .where(eq(lakeEditorPreferences.email, email));
    if (count > bounds.preferenceKeys)
      throw new LakeError(`An editor keeps up to ${bounds.preferenceKeys} Studio preferences`, 413, 'validationError');
  });
  return items;
}
