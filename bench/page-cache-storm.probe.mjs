// Loaded into each server that bench/page-cache-storm.mjs starts (`node --expose-gc --import
// <this file> server.mjs build/index.js`), and nowhere else: on SIGUSR2 it runs a full garbage
// collection and prints the process's memory (process.memoryUsage(), bytes) as one line, so the
// benchmark reads what the server keeps (its cache and the rest), not garbage not yet collected,
// nor memory freed but still held by the allocator. Nothing in the server changes.
process.on('SIGUSR2', () => {
  globalThis.gc?.();
  process.stdout.write(`[page-cache-storm] ${JSON.stringify(process.memoryUsage())}\n`);
});
