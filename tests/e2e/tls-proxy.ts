import http from 'node:http';
import http2 from 'node:http2';
import { lakeTls } from '../../app/lake/tls.server';

/**
 * A public site's TLS front, in miniature (issue 39 item 5): HTTPS with HTTP/2 to the browser
 * (ALPN; HTTP/1.1 for clients that ask for it), plain HTTP/1.1 to the site on loopback, the
 * host name passed through and the visitor's address and scheme in X-Forwarded-For/-Proto, as
 * docs/operating.md asks of nginx or Caddy. Its certificate is a throwaway one, made in `certDir`.
 * `requests` lists what passed, with the HTTP version the browser spoke.
 */
export type TlsProxy = {
  port: number;
  requests: { path: string; httpVersion: string; status: number }[];
  close(): Promise<void>;
};

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te']);

export async function startTlsProxy(options: {
  port: number;
  upstreamPort: number;
  certDir: string;
}): Promise<TlsProxy> {
  const tls = await lakeTls(options.certDir, []);
  const requests: TlsProxy['requests'] = [];
  const server = http2.createSecureServer({ cert: tls.cert, key: tls.key, allowHTTP1: true }, (req, res) => {
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers))
      if (!name.startsWith(':') && !HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
    headers.host = req.headers[':authority'] ?? req.headers.host;
    headers['x-forwarded-for'] = req.socket.remoteAddress ?? '127.0.0.1';
    headers['x-forwarded-proto'] = 'https';
    const entry = { path: req.url, httpVersion: req.httpVersion, status: 0 };
    requests.push(entry);
    const upstream = http.request(
      { host: '127.0.0.1', port: options.upstreamPort, method: req.method, path: req.url, headers },
      (answer) => {
        const out: http.OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(answer.headers))
          if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
        entry.status = answer.statusCode ?? 502;
        res.writeHead(entry.status, out);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  return {
    port: options.port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Event streams stay open: end them so close() returns.
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        setTimeout(resolve, 2000).unref();
      }),
  };
}
