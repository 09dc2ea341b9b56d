/**
 * A process that takes a data folder's lock, for folder-lock.server.test.ts (run with vite-node):
 *   vite-node app/db/folder-lock.child.ts DIR [GO_AT]
 * Waits until GO_AT (epoch ms) when given, so several start at the same instant, then prints
 * "locked <pid>" and holds the folder until killed, or prints the refusal and exits with 3.
 */
import { FolderInUseError, lockDataFolder } from './folder-lock.server';

const [dir, goAt] = process.argv.slice(2);
if (goAt) while (Date.now() < Number(goAt)) await new Promise((r) => setTimeout(r, 1));
try {
  lockDataFolder(dir!);
  console.log(`locked ${process.pid}`);
  setInterval(() => {}, 60_000);
} catch (error) {
  console.error(error instanceof FolderInUseError ? error.message : String(error));
  process.exit(error instanceof FolderInUseError ? 3 : 1);
}
