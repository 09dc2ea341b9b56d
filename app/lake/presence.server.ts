import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Editor } from './api.server';

/**
 * The Studio's presence connection (`wss://{apiHost}/v2022-06-30/socket/{dataset}`, Sanity's
 * "bifur"): a WebSocket carrying JSON-RPC 2.0. The Studio opens it on load, sends
 * `authorization` with its bearer token (a browser's WebSocket cannot send the header), then
 * `presence_subscribe`, and announces where its editor is (`presence_announce`,
 * `presence_rollcall`, `presence_disconnect`). Refused, the Studio retried it forever with a
 * console error each time (issue 39); answered, editors see who else has a document open.
 * Relayed in memory between the connections of this process; nothing is stored.
 *
 * The protocol is read from @sanity/bifur-client and the Studio's presence store (5.31). The
 * WebSocket framing (RFC 6455) is the small part the Studio uses: text frames, ping, close.
 */
export type PresenceOptions = {
  dataset: string;
  authenticate: (req: Request) => Promise<Editor | null>;
  allowedOrigins: (origin: string) => boolean;
  log?: (message: string) => void;
};

const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const HEARTBEAT = '\u2665';
const HEARTBEAT_MS = 25_000;
/** A presence message is a few hundred bytes; anything far bigger is not the Studio's. */
const MAX_FRAME = 256 * 1024;
/** Close codes bifur knows (4001: unauthorized, 4004: no such socket). */
const UNAUTHORIZED = 4001;

type Connection = {
  send: (text: string) => void;
  close: (code: number, reason: string) => void;
  editor: Editor | null;
  subscriptions: Set<string>;
  sessions: Set<string>;
};

export function createPresence(options: PresenceOptions) {
  const connections = new Set<Connection>();
  const path = new RegExp(`^/v\\d{4}-\\d{2}-\\d{2}/socket/${options.dataset}$|^/socket/${options.dataset}$`);

  /** Sends a presence event to every other signed-in connection that subscribed. */
  function broadcast(from: Connection, event: Record<string, unknown>) {
    for (const other of connections) {
      if (other === from || !other.editor) continue;
      for (const subscription of other.subscriptions)
        other.send(
          JSON.stringify({ jsonrpc: '2.0', method: 'presence_subscription', params: { subscription, result: event } }),
        );
    }
  }

  async function onMessage(conn: Connection, text: string) {
    if (text === HEARTBEAT) return;
    let msg: { id?: string; method?: string; params?: Record<string, unknown> };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      return conn.close(4000, 'not JSON');
    }
    const reply = (result: unknown) => conn.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
    const params = msg.params ?? {};
    if (msg.method === 'authorization') {
      const headers = new Headers({ authorization: String(params.authorization ?? '') });
      conn.editor = await options.authenticate(new Request('https://lake/socket', { headers }));
      if (!conn.editor) return conn.close(UNAUTHORIZED, 'Sign in as an editor');
      return reply(true);
    }
    if (!conn.editor) return conn.close(UNAUTHORIZED, 'Sign in as an editor');
    const userId = conn.editor.id;
    switch (msg.method) {
      case 'presence_subscribe': {
        const subscription = randomBytes(8).toString('hex');
        conn.subscriptions.add(subscription);
        return reply(subscription);
      }
      case 'presence_unsubscribe':
        conn.subscriptions.delete(String(params.subscriptionId ?? ''));
        return reply(true);
      case 'presence_rollcall':
        broadcast(conn, { type: 'rollCall', i: userId, session: params.session });
        return reply(true);
      case 'presence_announce': {
        const data = (params.data ?? {}) as { sessionId?: string; locations?: unknown };
        if (typeof data.sessionId === 'string') conn.sessions.add(data.sessionId);
        broadcast(conn, {
          type: 'state',
          i: userId,
          m: { sessionId: data.sessionId, locations: data.locations ?? [] },
        });
        return reply(true);
      }
      case 'presence_disconnect':
        conn.sessions.delete(String(params.session ?? ''));
        broadcast(conn, { type: 'disconnect', i: userId, m: { session: params.session } });
        return reply(true);
      default:
        return conn.send(
          JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } }),
        );
    }
  }

  /** The server's `upgrade` handler: true when the request was the presence socket (answered here). */
  function upgrade(req: IncomingMessage, socket: Duplex): boolean {
    const url = new URL(req.url ?? '/', 'https://lake');
    if (!path.test(url.pathname)) return false;
    const key = req.headers['sec-websocket-key'];
    const origin = typeof req.headers.origin === 'string' ? req.headers.origin : '';
    if (
      typeof key !== 'string' ||
      String(req.headers.upgrade).toLowerCase() !== 'websocket' ||
      !options.allowedOrigins(origin)
    ) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return true;
    }
    const accept = createHash('sha1')
      .update(key + WS_GUID)
      .digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    let open = true;
    const conn: Connection = {
      editor: null,
      subscriptions: new Set(),
      sessions: new Set(),
      send: (text) => {
        if (open) socket.write(frame(0x1, Buffer.from(text, 'utf8')));
      },
      close: (code, reason) => {
        if (!open) return;
        const body = Buffer.alloc(2 + Buffer.byteLength(reason));
        body.writeUInt16BE(code, 0);
        body.write(reason, 2);
        socket.write(frame(0x8, body));
        open = false;
        socket.end();
      },
    };
    connections.add(conn);
    const heartbeat = setInterval(() => conn.send(HEARTBEAT), HEARTBEAT_MS);
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const parsed = readFrame(buffered);
        if (parsed === 'incomplete') return;
        if (parsed === 'invalid') return conn.close(1009, 'frame too large or not masked');
        buffered = buffered.subarray(parsed.length);
        if (parsed.opcode === 0x8) return conn.close(1000, 'bye');
        if (parsed.opcode === 0x9) socket.write(frame(0xa, parsed.payload));
        else if (parsed.opcode === 0x1)
          onMessage(conn, parsed.payload.toString('utf8')).catch((error: unknown) => {
            options.log?.(`presence: ${error instanceof Error ? error.message : String(error)}`);
            conn.close(1011, 'error');
          });
      }
    });
    const gone = () => {
      if (!connections.delete(conn)) return;
      open = false;
      clearInterval(heartbeat);
      // Others stop showing this connection's editor.
      if (conn.editor)
        for (const session of conn.sessions) broadcast(conn, { type: 'disconnect', i: conn.editor.id, m: { session } });
    };
    socket.on('close', gone);
    socket.on('error', gone);
    return true;
  }

  return { upgrade, connections: () => connections.size };
}

/** One server frame (final, unmasked). */
export function frame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const head =
    length < 126
      ? Buffer.from([0x80 | opcode, length])
      : length < 65536
        ? Buffer.from([0x80 | opcode, 126, length >> 8, length & 0xff])
        : Buffer.concat([Buffer.from([0x80 | opcode, 127]), bigLength(length)]);
  return Buffer.concat([head, payload]);
}

function bigLength(length: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(length));
  return b;
}

/** One client frame from the start of `data`: clients always mask (RFC 6455 5.1). */
export function readFrame(
  data: Buffer,
): { opcode: number; payload: Buffer; length: number } | 'incomplete' | 'invalid' {
  if (data.length < 2) return 'incomplete';
  const opcode = data[0] & 0x0f;
  const masked = (data[1] & 0x80) !== 0;
  let length = data[1] & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (data.length < 4) return 'incomplete';
    length = data.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    if (data.length < 10) return 'incomplete';
    const big = data.readBigUInt64BE(2);
    if (big > BigInt(MAX_FRAME)) return 'invalid';
    length = Number(big);
    offset = 10;
  }
  if (!masked || length > MAX_FRAME) return 'invalid';
  if (data.length < offset + 4 + length) return 'incomplete';
  const mask = data.subarray(offset, offset + 4);
  const payload = Buffer.from(data.subarray(offset + 4, offset + 4 + length));
  for (let i = 0; i < payload.length; i++) payload[i] ^= mask[i % 4];
  return { opcode, payload, length: offset + 4 + length };
}
