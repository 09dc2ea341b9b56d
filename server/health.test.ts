import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Health, type Check } from './health';

let server: Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(health: Health): Promise<string> {
  server = createServer((req, res) => {
    if (!health.answer(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe('Health', () => {
  it('is alive while starting, ready once started, and unready while draining', async () => {
    const health = new Health({ database: async () => 1 });
    const base = await serve(health);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const starting = await fetch(`${base}/readyz`);
    expect([starting.status, await starting.json()]).toEqual([503, { status: 'starting' }]);
    health.phase = 'ready';
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok' } });
    health.phase = 'draining';
    expect((await fetch(`${base}/readyz`)).status).toBe(503);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it('answers 503 when a dependency fails or is slow, naming the check but not the error', async () => {
    const reasons: string[] = [];
    const health = new Health(
      {
        database: async () => {
          throw new Error('connect ECONNREFUSED 10.0.0.7:5432 /var/lib/secret');
        },
        content: () => new Promise(() => {}),
      },
      (name, ok, reason) => reasons.push(`${name} ${ok} ${reason}`),
      50,
    );
    health.phase = 'ready';
    const base = await serve(health);
    const answer = await fetch(`${base}/readyz`);
    const text = await answer.text();
    expect(answer.status).toBe(503);
    expect(JSON.parse(text)).toEqual({ status: 'unavailable', checks: { database: 'fail', content: 'fail' } });
    expect(text).not.toMatch(/ECONNREFUSED|10\.0\.0\.7|var|ms/);
    // Said once to the log, with its reason.
    expect(reasons).toHaveLength(2);
  });

  it('runs each check at most once a second, however often it is polled', async () => {
    let runs = 0;
    const check: Check = async () => void runs++;
    const health = new Health({ database: check });
    health.phase = 'ready';
    const base = await serve(health);
    const answers = await Promise.all(Array.from({ length: 50 }, () => fetch(`${base}/readyz`)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(runs).toBe(1);
    expect((await fetch(`${base}/other`)).status).toBe(404);
  });
});
