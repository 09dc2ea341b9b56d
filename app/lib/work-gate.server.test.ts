import { describe, expect, it } from 'vitest';
import { WorkGate } from './work-gate.server';

/** A job that finishes when told to, and records how many jobs ran at once. */
function jobs() {
  let active = 0;
  let peak = 0;
  const release: (() => void)[] = [];
  const job = () =>
    new Promise<string>((resolve) => {
      active++;
      peak = Math.max(peak, active);
      release.push(() => {
        active--;
        resolve('ok');
      });
    });
  const tick = () => new Promise((r) => setTimeout(r, 0));
  return { job, release, tick, peak: () => peak };
}

describe('WorkGate', () => {
  it('runs at most `concurrency` jobs at once and the rest in turn', async () => {
    const gate = new WorkGate({ concurrency: 2, maxWaiting: 10, perKey: 10 });
    const { job, release, tick, peak } = jobs();
    const all = Array.from({ length: 5 }, (_, i) => gate.run(`client-${i}`, job));
    await tick();
    expect(gate.load).toMatchObject({ running: 2, waiting: 3 });
    while (release.length) {
      release.shift()!();
      await tick();
    }
    const results = await Promise.all(all);
    expect(results.every((r) => r.status === 'done')).toBe(true);
    expect(peak()).toBe(2);
    expect(gate.load).toEqual({ running: 0, waiting: 0, keys: 0 });
  });

  it('one key holds at most `perKey` places; beyond, and beyond the queue, it is busy at once', async () => {
    const gate = new WorkGate({ concurrency: 1, maxWaiting: 2, perKey: 2 });
    const { job, release, tick } = jobs();
    const flood = Array.from({ length: 10 }, () => gate.run('one-client', job));
    await tick();
    // Two places for that client (one running, one waiting); the other eight are refused.
    const settled = await Promise.race([Promise.all(flood.slice(2)), tick().then(() => null)]);
    expect(settled?.map((r) => r.status)).toEqual(Array(8).fill('busy'));
    // Another client still gets the last waiting place; a third finds the queue full.
    const other = gate.run('other-client', job);
    expect(await gate.run('third-client', job)).toEqual({ status: 'busy' });
    while (release.length || gate.load.running) {
      release.shift()?.();
      await tick();
    }
    expect((await Promise.all([...flood.slice(0, 2), other])).map((r) => r.status)).toEqual(['done', 'done', 'done']);
  });

  it('a failing job gives its place back', async () => {
    const gate = new WorkGate({ concurrency: 1, maxWaiting: 0, perKey: 1 });
    await expect(gate.run('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(gate.load).toEqual({ running: 0, waiting: 0, keys: 0 });
    expect(await gate.run('a', async () => 1)).toEqual({ status: 'done', value: 1 });
  });
});
