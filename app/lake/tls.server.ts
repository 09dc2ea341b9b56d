import { createPrivateKey, randomBytes, webcrypto } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
// @peculiar/x509 2.x needs a Reflect metadata polyfill loaded before it (its README says so).
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

/**
 * The local Content Lake's certificate (ADR 0025). The Studio keeps 7-10 event streams open; over
 * HTTP/1.1 a browser allows 6 connections per host and the rest queue forever, so the lake speaks
 * HTTP/2, which browsers only speak over TLS.
 *
 * Made on first start in `{dataDir}/lake-tls/`: a certificate authority of this machine only
 * (`ca.pem`, the one an editor tells their browser to trust; its key `ca-key.pem` never leaves the
 * folder) and the server's certificate for localhost, *.localhost, the project's subdomains of
 * localhost, 127.0.0.1 and ::1, signed by it (`server.pem`, `server-key.pem`). Made in Node
 * (WebCrypto, ECDSA P-256 with SHA-256, and @peculiar/x509 to write the certificates): no
 * `openssl` command is needed. LAKE_TLS_CERT and LAKE_TLS_KEY name files of your own instead.
 */
export type LakeTls = { cert: Buffer; key: Buffer; caFile: string | null };

const crypto = webcrypto as unknown as Crypto;
x509.cryptoProvider.set(crypto);
const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;
const DAY = 86_400_000;

export async function lakeTls(dataDir: string, hostNames: readonly string[]): Promise<LakeTls> {
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
    const ca = existsSync(file('ca.pem')) && existsSync(file('ca-key.pem')) ? await readAuthority(dir) : null;
    const authority = ca ?? (await makeAuthority(dir));
    await makeServerCertificate(dir, authority, hostNames);
  }
  return { cert: readFileSync(file('server.pem')), key: readFileSync(file('server-key.pem')), caFile: file('ca.pem') };
}

type Authority = { cert: x509.X509Certificate; key: CryptoKey };

const serial = () => {
  const bytes = randomBytes(16);
  bytes[0] &= 0x7f; // positive
  bytes[0] |= 0x01; // and 16 bytes long
  return bytes.toString('hex');
};

async function privateKeyPem(key: CryptoKey): Promise<string> {
  return x509.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');
}

function write(name: string, text: string, mode = 0o644) {
  writeFileSync(name, text.endsWith('\n') ? text : `${text}\n`, { mode });
}

async function readAuthority(dir: string): Promise<Authority> {
  const cert = new x509.X509Certificate(readFileSync(path.join(dir, 'ca.pem'), 'utf8'));
  const der = createPrivateKey(readFileSync(path.join(dir, 'ca-key.pem'))).export({ format: 'der', type: 'pkcs8' });
  const key = await crypto.subtle.importKey('pkcs8', der, EC, false, ['sign']);
  return { cert, key };
}

/** An authority for this machine: ten years, may sign server certificates only (path length 0). */
async function makeAuthority(dir: string): Promise<Authority> {
  const keys = await crypto.subtle.generateKey(EC, true, ['sign', 'verify']);
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: 'CN=Bawaba local Content Lake (this machine only)',
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + 3650 * DAY),
    signingAlgorithm: SIGNING,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  write(path.join(dir, 'ca-key.pem'), await privateKeyPem(keys.privateKey), 0o600);
  write(path.join(dir, 'ca.pem'), cert.toString('pem'));
  return { cert, key: keys.privateKey };
}

/** The server's certificate, signed by the authority: 397 days (browsers refuse longer ones). */
async function makeServerCertificate(dir: string, ca: Authority, hostNames: readonly string[]): Promise<void> {
  const keys = await crypto.subtle.generateKey(EC, true, ['sign', 'verify']);
  const names = [...new Set(['localhost', '*.localhost', ...hostNames.map((h) => `${h}.localhost`)])];
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: 'CN=localhost',
    issuer: ca.cert.subject,
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + 397 * DAY),
    signingAlgorithm: SIGNING,
    publicKey: keys.publicKey,
    signingKey: ca.key,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        ...names.map((value) => ({ type: 'dns' as const, value })),
        { type: 'ip', value: '127.0.0.1' },
        { type: 'ip', value: '::1' },
      ]),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(ca.cert),
    ],
  });
  write(path.join(dir, 'server-key.pem'), await privateKeyPem(keys.privateKey), 0o600);
  write(path.join(dir, 'server.pem'), cert.toString('pem'));
}
