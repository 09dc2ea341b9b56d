// Shared by the benchmarks that start servers: wait until one answers its home page.

/** Resolves once `base` answers `/` with a 2xx; fails if the child exits or 30 s pass. */
export async function ready({ name, base, child }) {
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new Error(`${name} server exited (${child.exitCode})`);
    try {
      if ((await fetch(`${base}/`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} server did not answer within 30 s`);
}
