import { mkdtempSync, rmSync } from 'node:fs';
import http2, { type Http2SecureServer } from 'node:http2';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLakeServer } from './server-limits.server';
import { lakeTls } from './tls.server';

/**
 * Issue 40, item 5: the lake's TLS port cuts off trickling and idle connections as the site's
 * port does (here with the timeouts shortened; the real ones are 10 s, 30 s and 5 s).
 */
describe("the lake's TLS port has the site's timeouts", () => {
  let dir: string;
  let server: Http2SecureServer;
  let port: number;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'lake-limits-'));
    const cert = await lakeTls(dir, ['placeholder']);
    server = createLakeServer(
      cert,
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end('ok');
      },
      { handshakeMs: 600, headersMs: 600, requestMs: 1_000, idleMs: 600, checkMs: 200 },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  /** Milliseconds until the server closes the socket (or `max`). */
  const closedAfter = (socket: net.Socket, max: number) =>
    new Promise<number>((resolve) => {
      const t = Date.now();
      const timer = setTimeout(() => {
        socket.destroy();
        resolve(max);
      }, max);
      socket.on('error', () => {});
      socket.resume();
      socket.once('close', () => {
        clearTimeout(timer);
        resolve(Date.now() - t);
      });
    });

  it('drops a connection that never finishes its TLS handshake', async () => {
    const socket = net.connect(port, '127.0.0.1');
    expect(await closedAfter(socket, 5_000)).toBeLessThan(2_000);
  });

  it('drops an HTTP/1.1 client that trickles its headers, and an idle keep-alive connection', async () => {
    const socket = tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] });
    await new Promise((resolve) => socket.once('secureConnect', resolve));
    socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n');
    const trickle = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 100);
    const ms = await closedAfter(socket, 5_000);
    clearInterval(trickle);
    expect(ms).toBeLessThan(2_000);

    const idle = tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] });
    await new Promise((resolve) => idle.once('secureConnect', resolve));
    idle.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(await closedAfter(idle, 5_000)).toBeLessThan(2_000);
  });

  it('closes an HTTP/2 session with no open stream, but answers one that asks', async () => {
    const session = http2.connect(`https://localhost:${port}`, { rejectUnauthorized: false });
    session.on('error', () => {});
    const answered = await new Promise<number>((resolve) => {
      const req = session.request({ ':path': '/' });
      req.on('response', (headers) => resolve(Number(headers[':status'])));
      req.resume();
    });
    expect(answered).toBe(200);
    const t = Date.now();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5_000);
      session.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    expect(session.closed || session.destroyed).toBe(true);
    expect(Date.now() - t).toBeLessThan(2_500);
    session.destroy();
  });
});
