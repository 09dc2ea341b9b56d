import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The local Content Lake's certificate (ADR 0025). The Studio keeps 7-10 event streams open; over
 * HTTP/1.1 a browser allows 6 connections per host and the rest queue forever, so the lake speaks
 * HTTP/2, which browsers only speak over TLS.
 *
 * Made on first start in `{dataDir}/lake-tls/`: a certificate authority of this machine only
 * (`ca.pem`, the one an editor tells their browser to trust; its key never leaves the folder) and
 * the server's certificate for localhost, *.localhost and 127.0.0.1, signed by it. Made with the
 * `openssl` command (Node cannot issue certificates); LAKE_TLS_CERT and LAKE_TLS_KEY name files
 * of your own instead.
 */
export type LakeTls = { cert: Buffer; key: Buffer; caFile: string | null };

export function lakeTls(dataDir: string, hostNames: readonly string[]): LakeTls {
  if (process.env.LAKE_TLS_CERT && process.env.LAKE_TLS_KEY)
    return {
      cert: readFileSync(process.env.LAKE_TLS_CERT),
      key: readFileSync(process.env.LAKE_TLS_KEY),
      caFile: null,
    };
  const dir = path.resolve(dataDir, 'lake-tls');
  const file = (name: string) => path.join(dir, name);
  if (!existsSync(file('server.pem')) || !existsSync(file('server-key.pem'))) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      if (!existsSync(file('ca.pem'))) {
        openssl(
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-keyout',
          file('ca-key.pem'),
          '-out',
          file('ca.pem'),
          '-days',
          '3650',
          '-subj',
          '/CN=Bawaba local Content Lake (this machine only)',
          '-addext',
          'basicConstraints=critical,CA:TRUE,pathlen:0',
          '-addext',
          'keyUsage=critical,keyCertSign,cRLSign',
        );
      }
      const names = ['localhost', '*.localhost', ...hostNames.map((h) => `${h}.localhost`)];
      writeFileSync(
        file('server.ext'),
        [
          'basicConstraints=critical,CA:FALSE',
          'keyUsage=critical,digitalSignature',
          'extendedKeyUsage=serverAuth',
          `subjectAltName=${[...new Set(names)].map((n) => `DNS:${n}`).join(',')},IP:127.0.0.1,IP:::1`,
        ].join('\n'),
      );
      openssl(
        'req',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        file('server-key.pem'),
        '-out',
        file('server.csr'),
        '-subj',
        '/CN=localhost',
      );
      // 397 days: browsers refuse server certificates valid for longer.
      openssl(
        'x509',
        '-req',
        '-in',
        file('server.csr'),
        '-CA',
        file('ca.pem'),
        '-CAkey',
        file('ca-key.pem'),
        '-CAcreateserial',
        '-out',
        file('server.pem'),
        '-days',
        '397',
        '-extfile',
        file('server.ext'),
      );
    } catch (error) {
      const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error);
      throw new Error(
        `could not make the local Content Lake's certificate with openssl (install it, or set LAKE_TLS_CERT and LAKE_TLS_KEY): ${stderr.trim()}`,
        { cause: error },
      );
    }
  }
  return { cert: readFileSync(file('server.pem')), key: readFileSync(file('server-key.pem')), caFile: file('ca.pem') };
}
