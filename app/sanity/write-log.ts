import type { SanityDocument } from './types';

/**
 * The embedded world's write log, `{dataDir}/content-writes.ndjson`: one line per transaction,
 * `{"_tx": id, "docs": [...], "deleted": [...]}`, or (older lines) one document. A torn last
 * line (a crash mid-write) was never acknowledged and is skipped. Read by the embedded content
 * client and, for the records that moved to the database, by its one-time import.
 */
export const WRITES_FILE = 'content-writes.ndjson';

/**
 * Private documents whose data now lives in the database (app/db/): the forms' submissions and
 * token records, the rate-limit windows, the portal's accounts, sign-in codes and mail queue, and
 * the embedded billing engine's state. The log's copies are imported once at start and never
 * read or written here again.
 */
export const MOVED_TO_DATABASE = [
  'submission.',
  'form.token.',
  'portal.limit.',
  'portal.account.',
  'portal.code.',
  'portal.mail.',
  'billing.',
] as const;

export const isMovedToDatabase = (id: string) => MOVED_TO_DATABASE.some((prefix) => id.startsWith(prefix));

/** What one line of the log did, or null for a line that is not whole JSON (a torn last line). */
export function parseWriteLogLine(line: string): { docs: SanityDocument[]; deleted: string[] } | null {
  if (!line.trim()) return { docs: [], deleted: [] };
  let entry: Partial<{ _tx: string; docs: SanityDocument[]; deleted: string[] }> & Partial<SanityDocument>;
  try {
    entry = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof entry._tx === 'string') return { docs: entry.docs ?? [], deleted: entry.deleted ?? [] };
  return typeof entry._id === 'string' ? { docs: [entry as SanityDocument], deleted: [] } : null;
}
