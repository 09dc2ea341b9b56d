/**
 * In-process cache of published query results.
 *
 * - Each entry remembers which document types its query reads (derived from the GROQ
 *   text: `_type == "x"`, `_type in [...]`, singleton `_id == "x"`); a query that follows
 *   references other than image assets (`->`) or names no type is taken to read everything.
 * - A change (a signed webhook, a write, the dataset file) drops exactly the entries that
 *   read a changed type.
 * - Entries older than `maxAgeMs` are refreshed on the next read; if the refresh fails, the
 *   last good result is served and the failure logged (stale-if-error).
 */
export type CacheDeps = Set<string> | 'all';

export function typesReadBy(query: string): CacheDeps {
  const types = new Set<string>();
  for (const m of query.matchAll(/_type\s*==\s*"([\w.]+)"/g)) types.add(m[1]);
  for (const m of query.matchAll(/_type\s+in\s+\[([^\]]*)\]/g))
    for (const t of m[1].matchAll(/"([\w.]+)"/g)) types.add(t[1]);
  for (const m of query.matchAll(/_id\s*==\s*"([\w-]+)"/g)) types.add(m[1]); // singletons: _id equals the type name
  const derefs = [...query.matchAll(/([\w\])]+)\s*->/g)].filter((m) => !/^asset$/.test(m[1]));
  if (derefs.length > 0 || types.size === 0) return 'all';
  return types;
}

type Entry = { value: unknown; storedAt: number; deps: CacheDeps };

export class QueryCache {
  private entries = new Map<string, Entry>();
  private inflight = new Map<string, Promise<unknown>>();

  constructor(private options: { maxAgeMs: number; now?: () => number; log?: (m: string) => void }) {}

  get size() {
    return this.entries.size;
  }

  async get<T>(key: string, deps: CacheDeps, load: () => Promise<T>): Promise<T> {
    const now = this.options.now?.() ?? Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.storedAt < this.options.maxAgeMs) return hit.value as T;
    const running = this.inflight.get(key);
    if (running) return running as Promise<T>;
    const task = load()
      .then((value) => {
        this.entries.set(key, { value, storedAt: this.options.now?.() ?? Date.now(), deps });
        return value;
      })
      .catch((error) => {
        if (hit) {
          this.options.log?.(`serving cached content after a failed refresh (${key.slice(0, 60)}…): ${String(error)}`);
          return hit.value as T;
        }
        throw error;
      })
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, task);
    return task;
  }

  /** Drop the entries that read any of the changed types ('all': everything). Returns how many. */
  invalidate(changed: CacheDeps): number {
    let dropped = 0;
    for (const [key, entry] of this.entries) {
      const hit =
        changed === 'all' || entry.deps === 'all' || [...changed].some((t) => (entry.deps as Set<string>).has(t));
      if (hit) {
        this.entries.delete(key);
        dropped++;
      }
    }
    return dropped;
  }
}
