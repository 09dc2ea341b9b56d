import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createPresence, frame, readFrame } from './presence.server';

/** A client's text frame: masked, as browsers send them. */
function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const mask = Buffer.from([1, 2, 3, 4]);
  const masked = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]));
  const head =
    payload.length < 126
      ? Buffer.from([0x81, 0x80 | payload.length])
      : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  return Buffer.concat([head, mask, masked]);
}

/** The server's frames written to a socket, as text (skipping the 101 handshake). */
function serverTexts(written: Buffer[]): string[] {
  let data = Buffer.concat(written);
  data = data.subarray(data.indexOf('\r\n\r\n') + 4);
  const texts: string[] = [];
  while (data.length >= 2) {
    const length = data[1] & 0x7f;
    const offset = length === 126 ? 4 : 2;
    const size = length === 126 ? data.readUInt16BE(2) : length;
    texts.push(`${data[0] & 0x0f}:${data.subarray(offset, offset + size).toString('utf8')}`);
    data = data.subarray(offset + size);
  }
  return texts;
}

function connect(presence: ReturnType<typeof createPresence>, origin = 'https://site.test') {
  const socket = new PassThrough();
  const written: Buffer[] = [];
  socket.write = ((chunk: Buffer | string) => {
    written.push(Buffer.from(chunk));
    return true;
  }) as typeof socket.write;
  const end = socket.end.bind(socket);
  socket.end = ((chunk?: Buffer | string) => {
    if (chunk) written.push(Buffer.from(chunk));
    return end();
  }) as typeof socket.end;
  const req = {
    url: '/v2022-06-30/socket/production?tag=sanity.studio',
    headers: { upgrade: 'websocket', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', origin },
  } as unknown as IncomingMessage;
  const handled = presence.upgrade(req, socket);
  const send = async (message: unknown) => {
    socket.emit('data', clientFrame(JSON.stringify(message)));
    await new Promise((resolve) => setTimeout(resolve, 5));
  };
  return { handled, written, send, texts: () => serverTexts(written), socket };
}

const editors = {
  'Bearer good-a': { id: 'ea', name: 'A', email: 'a@x' },
  'Bearer good-b': { id: 'eb', name: 'B', email: 'b@x' },
};
const presence = () =>
  createPresence({
    dataset: 'production',
    allowedOrigins: (origin) => origin === 'https://site.test',
    authenticate: async (req) => editors[req.headers.get('authorization') as keyof typeof editors] ?? null,
  });

describe('the Studio presence socket', () => {
  it('frames: reads a masked client frame and writes unmasked ones of every length', () => {
    const parsed = readFrame(clientFrame('hello'));
    expect(parsed).toMatchObject({ opcode: 1 });
    expect(parsed !== 'incomplete' && parsed !== 'invalid' && parsed.payload.toString()).toBe('hello');
    expect(readFrame(clientFrame('hello').subarray(0, 4))).toBe('incomplete');
    // Unmasked client frames are refused (RFC 6455 5.1).
    expect(readFrame(frame(1, Buffer.from('x')))).toBe('invalid');
    expect(frame(1, Buffer.alloc(200)).subarray(0, 4)).toEqual(Buffer.from([0x81, 126, 0, 200]));
  });

  it('answers the handshake with the RFC 6455 accept value, and refuses another site', () => {
    const p = presence();
    const ok = connect(p);
    expect(ok.handled).toBe(true);
    expect(Buffer.concat(ok.written).toString()).toContain('Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
    const other = connect(p, 'https://evil.test');
    expect(Buffer.concat(other.written).toString()).toMatch(/^HTTP\/1\.1 403/);
  });

  it('relays one editor’s presence to another, only after each has signed in with a token', async () => {
    const p = presence();
    const a = connect(p);
    const b = connect(p);
    // Nothing before the authorization: the socket is closed with bifur's 4001.
    const stranger = connect(p);
    await stranger.send({ jsonrpc: '2.0', id: '0', method: 'presence_subscribe', params: {} });
    expect(stranger.texts().at(-1)).toMatch(/^8:/);
    await a.send({ jsonrpc: '2.0', id: '1', method: 'authorization', params: { authorization: 'Bearer good-a' } });
    await b.send({ jsonrpc: '2.0', id: '1', method: 'authorization', params: { authorization: 'Bearer good-b' } });
    await b.send({ jsonrpc: '2.0', id: '2', method: 'presence_subscribe', params: {} });
    const subscription = JSON.parse(b.texts().at(-1)!.slice(2)).result as string;
    await a.send({
      jsonrpc: '2.0',
      id: '3',
      method: 'presence_announce',
      params: { data: { sessionId: 's-a', locations: [{ documentId: 'faqItem-x' }] } },
    });
    expect(JSON.parse(a.texts().at(-1)!.slice(2))).toEqual({ jsonrpc: '2.0', id: '3', result: true });
    expect(JSON.parse(b.texts().at(-1)!.slice(2))).toEqual({
      jsonrpc: '2.0',
      method: 'presence_subscription',
      params: {
        subscription,
        result: { type: 'state', i: 'ea', m: { sessionId: 's-a', locations: [{ documentId: 'faqItem-x' }] } },
      },
    });
    // A's connection goes: B is told its session left.
    a.socket.emit('close');
    expect(JSON.parse(b.texts().at(-1)!.slice(2)).params.result).toEqual({
      type: 'disconnect',
      i: 'ea',
      m: { session: 's-a' },
    });
    const wrong = connect(p);
    await wrong.send({ jsonrpc: '2.0', id: '1', method: 'authorization', params: { authorization: 'Bearer forged' } });
    expect(wrong.texts().at(-1)).toMatch(/^8:/);
  });
});
