import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
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
 * The protocol is read from @sanity/bifur-client and the Studio's presence store (5.31); the
 * WebSocket itself (RFC 6455: handshake, framing, ping, close, size limit) is the `ws` library's.
 */
export type PresenceOptions = {
  dataset: string;
  authenticate: (req: Request) => Promise<Editor | null>;
  allowedOrigins: (origin: string) => boolean;
  log?: (message: string) => void;
};

const HEARTBEAT = '\u2665';
const HEARTBEAT_MS = 25_000;
/** A presence message is a few hundred bytes; anything far bigger is not the Studio's. */
const MAX_FRAME = 256 * 1024;
/** Open presence sockets at once, for everyone (a Studio tab opens one). */
const MAX_CONNECTIONS = 256;
/** A socket that has not authorized as an editor by then is closed. */
const AUTHORIZE_MS = 10_000;
/** Sessions a connection may announce (a Studio tab has one). */
const MAX_SESSIONS = 16;
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
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME, perMessageDeflate: false });
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
        if (conn.subscriptions.size >= MAX_SESSIONS) return conn.close(1008, 'too many subscriptions');
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
        if (typeof data.sessionId === 'string') {
          if (!conn.sessions.has(data.sessionId) && conn.sessions.size >= MAX_SESSIONS)
            return conn.close(1008, 'too many sessions');
          conn.sessions.add(data.sessionId);
        }
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

  /**
   * The server's `upgrade` handler: true when the request was the presence socket (answered here,
   * the WebSocket itself by the `ws` library). A socket must authorize within AUTHORIZE_MS, and at
   * most MAX_CONNECTIONS are open at once, signed in or not (the origin check stops only browsers).
   */
  function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer = Buffer.alloc(0)): boolean {
    const url = new URL(req.url ?? '/', 'https://lake');
    if (!path.test(url.pathname)) return false;
    const origin = typeof req.headers.origin === 'string' ? req.headers.origin : '';
    if (!options.allowedOrigins(origin)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return true;
    }
    if (connections.size >= MAX_CONNECTIONS) {
      socket.end(
        'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 30\r\nContent-Length: 0\r\n\r\n',
      );
      return true;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => attach(ws));
    return true;
  }

  function attach(ws: WebSocket) {
    const conn: Connection = {
      editor: null,
      subscriptions: new Set(),
      sessions: new Set(),
      send: (text) => {
        if (ws.readyState === ws.OPEN) ws.send(text);
      },
      close: (code, reason) => ws.close(code, reason),
    };
    connections.add(conn);
    const heartbeat = setInterval(() => conn.send(HEARTBEAT), HEARTBEAT_MS);
    const deadline = setTimeout(() => {
      if (!conn.editor) conn.close(UNAUTHORIZED, 'Sign in as an editor');
    }, AUTHORIZE_MS);
    ws.on('message', (data, isBinary) => {
      if (isBinary) return conn.close(1003, 'text only');
      // A Buffer: the socket's binaryType is ws's default, 'nodebuffer'.
      onMessage(conn, (data as Buffer).toString('utf8')).catch((error: unknown) => {
        options.log?.(`presence: ${error instanceof Error ? error.message : String(error)}`);
        conn.close(1011, 'error');
      });
    });
    const gone = () => {
      if (!connections.delete(conn)) return;
      clearInterval(heartbeat);
      clearTimeout(deadline);
      // Others stop showing this connection's editor.
      if (conn.editor)
        for (const session of conn.sessions) broadcast(conn, { type: 'disconnect', i: conn.editor.id, m: { session } });
    };
    ws.on('close', gone);
    ws.on('error', gone);
  }

  return { upgrade, connections: () => connections.size };
}
