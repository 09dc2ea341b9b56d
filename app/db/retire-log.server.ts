import { existsSync } from 'node:fs';
import { open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { isMovedToDatabase, parseWriteLogLine, WRITES_FILE } from '~/sanity/write-log';

/**
 * Once the previous version's private records are in the database (the imports ran in the same
 * start, before this), the write log's copies of them are removed: otherwise every client's
 * address, name and card digits would stay in a plain file of the data folder for as long as the
 * folder lives, beyond any retention or erasure. The log is rewritten without them (a line whose
 * every document moved goes; a line with content documents too keeps those, byte for byte when
 * nothing of it moved) into a temporary file, synced, and renamed over the log, so a crash leaves
 * the old log or the new one, never half of either. No backup is kept: a backup would keep the
 * very data this removes.
 *
 * The log is the embedded content client's, which appends to it by path. A content write landing
 * between the read and the rename would be lost, so the rename happens only if the log is still
 * the size it was read at (else it is read again, at most three times); at start nothing writes
 * content, so this is a guard, not a queue.
 */
export async function retireMovedRecords(dataDir: string): Promise<{ removed: number } | null> {
  const file = path.join(path.resolve(dataDir), WRITES_FILE);
  if (!existsSync(file)) return null;
  for (let attempt = 0; attempt < 3; attempt++) {
    const text = await readFile(file, 'utf8');
    const size = Buffer.byteLength(text);
    const { kept, removed } = withoutMovedRecords(text);
    if (!removed) return null;
    const temporary = `${file}.retiring`;
    const handle = await open(temporary, 'w');
    try {
      await handle.write(kept);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if ((await stat(file)).size !== size) {
      await rm(temporary, { force: true });
      continue;
    }
    await rename(temporary, file);
    const dir = await open(path.dirname(file), 'r');
    try {
      await dir.sync();
    } catch {
      // Some file systems refuse fsync on a directory; the file itself was synced.
    } finally {
      await dir.close();
    }
    return { removed };
  }
  throw new Error(
    `${file} kept changing while its moved records were being removed; they are removed at the next start`,
  );
}

/** The log's text without the moved records, and how many documents and deletions were dropped. */
export function withoutMovedRecords(text: string): { kept: string; removed: number } {
  let removed = 0;
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const parsed = parseWriteLogLine(line);
    // A torn last line was never acknowledged (the content client cuts it off at load too): it
    // goes, whatever it held. Any other line that is not whole JSON is left to the content client.
    if (!parsed && i === lines.length - 1) {
      removed++;
      out.push(''); // the log still ends with a newline
      continue;
    }
    if (!parsed || !line.trim()) {
      out.push(line);
      continue;
    }
    const docs = parsed.docs.filter((doc) => !isMovedToDatabase(doc._id));
    const deleted = parsed.deleted.filter((id) => !isMovedToDatabase(id));
    const dropped = parsed.docs.length - docs.length + parsed.deleted.length - deleted.length;
    if (!dropped) {
      out.push(line);
      continue;
    }
    removed += dropped;
    if (!docs.length && !deleted.length) continue;
    const entry = JSON.parse(line) as { _tx?: string };
    out.push(JSON.stringify({ _tx: entry._tx ?? `retired-${i}`, docs, deleted }));
  }
  return { kept: out.join('\n'), removed };
}
