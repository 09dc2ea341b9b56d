import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createPresence } from './presence.server';

const editors = {
  'Bearer good-a': { id: 'ea', name: 'A', email: 'a@x' },
  'Bearer good-b': { id: 'eb', name: 'B', email: 'b@x' },
};

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server whose upgrades go to the presence socket, as the lake's and the site's do. */
async function serve() {
  const presence = createPresence({
    dataset: 'production',
    allowedOrigins: (origin) => origin === 'https://site.test',
    authenticate: async (req) => editors[req.headers.get('authorization') as keyof typeof editors] ?? null,
  });
  server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket, head) => {
    if (!presence.upgrade(req, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const base = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { presence, base };
}

/** A client as the Studio opens it: the messages it receives, and a way to send and wait. */
async function connect(base: string, origin = 'https://site.test') {
  const ws = new WebSocket(`${base}/v2022-06-30/socket/production?tag=sanity.studio`, { origin });
  const received: unknown[] = [];
  let closed: number | null = null;
  ws.on('message', (data) => received.push(JSON.parse(String(data))));
  ws.on('close', (code) => (closed = code));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 30));
  return {
    ws,
    received,
    closed: () => closed,
    send: async (message: unknown) => {
      ws.send(JSON.stringify(message));
      await settle();
    },
    settle,
  };
}

describe('the Studio presence socket', () => {
  it('opens for the site and refuses another site', async () => {
    const { base } = await serve();
    const ok = await connect(base);
    expect(ok.ws.readyState).toBe(WebSocket.OPEN);
    ok.ws.close();
    await expect(connect(base, 'https://evil.test')).rejects.toThrow('HTTP 403');
  });

  it('relays one editor’s presence to another, only after each has signed in with a token', async () => {
    const { presence, base } = await serve();
    const a = await connect(base);
    const b = await connect(base);
    // Nothing before the authorization: the socket is closed with bifur's 4001.
    const stranger = await connect(base);
    await stranger.send({ jsonrpc: '2.0', id: '0', method: 'presence_subscribe', params: {} });
    expect(stranger.closed()).toBe(4001);
    await a.send({ jsonrpc: '2.0', id: '1', method: 'authorization', params: { authorization: 'Bearer good-a' } });
    await b.send({ jsonrpc: '2.0', id: '1', method: 'authorization', params: { authorization: 'Bearer good-b' } });
    await b.send({ jsonrpc: '2.0', id: '2', method: 'presence_subscribe', params: {} });
    const subscription = (b.received.at(-1) as { result: string }).result;
    await a.send({
      jsonrpc: '2.0',
      id: '3',
      method: 'presence_announce',
      params: { data: { sessionId: 's-a', locations: [{ documentId: 'faqItem-x' }] } },
    });
    expect(a.received.at(-1)).toEqual({ jsonrpc: '2.0', id: '3', result: true });
    expect(b.received.at(-1)).toEqual({
      jsonrpc: '2.0',
      method: 'presence_subscription',
      params: {
        subscription,
        result: { type: 'state', i: 'ea', m: { sessionId: 's-a', locations: [{ documentId: 'faqItem-x' }] } },
      },
    });
    // A's connection goes: B is told its session left.
    a.ws.close();
    await b.settle();
    expect((b.received.at(-1) as { params: { result: unknown } }).params.result).toEqual({
      type: 'disconnect',
      i: 'ea',
      m: { session: 's-a' },
    });
    const wrong = await connect(base);
    await wrong.send({ jsonrpc: '2.0', id: '1', method: 'authorization', params: { authorization: 'Bearer forged' } });
    expect(wrong.closed()).toBe(4001);
    b.ws.close();
    await b.settle();
    expect(presence.connections()).toBe(0);
  });

  it('closes a socket whose message is larger than any presence message', async () => {
    const { base } = await serve();
    const c = await connect(base);
    c.ws.send('x'.repeat(300 * 1024));
    await c.settle();
    await expect.poll(() => c.closed()).toBe(1009);
  });

  it('takes at most 256 sockets at once, signed in or not: one more is refused until one closes', async () => {
    const { presence, base } = await serve();
    const open = await Promise.all(Array.from({ length: 256 }, () => connect(base)));
    expect(presence.connections()).toBe(256);
    await expect(connect(base)).rejects.toThrow('HTTP 503');
    open[0]!.ws.close();
    await expect.poll(() => presence.connections()).toBe(255);
    const again = await connect(base);
    expect(again.ws.readyState).toBe(WebSocket.OPEN);
    for (const c of [...open.slice(1), again]) c.ws.terminate();
  });
});
