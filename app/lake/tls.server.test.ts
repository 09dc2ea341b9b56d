import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lakeTls } from './tls.server';

/** The lake's certificate, made in Node alone (no `openssl` command): it chains to the machine's authority and names the hosts. */
describe('the local Content Lake certificate', () => {
  const dirs: string[] = [];
  const folder = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'lake-tls-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('makes an authority and a server certificate signed by it, for localhost, *.localhost and the project', async () => {
    const dir = folder();
    const tls = await lakeTls(dir, ['placeholder']);
    const ca = new X509Certificate(readFileSync(path.join(dir, 'lake-tls', 'ca.pem')));
    const server = new X509Certificate(tls.cert);
    expect(tls.caFile).toBe(path.join(dir, 'lake-tls', 'ca.pem'));
    expect(ca.ca).toBe(true);
    expect(server.ca).toBe(false);
    expect(ca.verify(ca.publicKey)).toBe(true);
    expect(server.verify(ca.publicKey)).toBe(true);
    expect(server.checkIssued(ca)).toBe(true);
    expect(server.subjectAltName?.split(', ').sort()).toEqual(
      [
        'DNS:localhost',
        'DNS:*.localhost',
        'DNS:placeholder.localhost',
        'IP Address:127.0.0.1',
        'IP Address:0:0:0:0:0:0:0:1',
      ].sort(),
    );
    expect(server.checkHost('localhost')).toBe('localhost');
    expect(server.checkHost('placeholder.localhost')).toBeTruthy();
    expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(server.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    // 397 days at most, as browsers require.
    const days = (Date.parse(server.validTo) - Date.parse(server.validFrom)) / 86_400_000;
    expect(days).toBeLessThanOrEqual(398);
    // The key is the certificate's, and only the owner reads it.
    expect(createPublicKey(createPrivateKey(tls.key)).export({ format: 'pem', type: 'spki' })).toBe(
      server.publicKey.export({ format: 'pem', type: 'spki' }),
    );
    expect(statSync(path.join(dir, 'lake-tls', 'ca-key.pem')).mode & 0o077).toBe(0);
  });

  it('keeps what it made, and signs a new server certificate with the same authority when that one is gone', async () => {
    const dir = folder();
    const first = await lakeTls(dir, ['placeholder']);
    expect((await lakeTls(dir, ['placeholder'])).cert).toEqual(first.cert);
    const ca = readFileSync(path.join(dir, 'lake-tls', 'ca.pem'));
    rmSync(path.join(dir, 'lake-tls', 'server.pem'));
    const second = await lakeTls(dir, ['placeholder']);
    expect(second.cert).not.toEqual(first.cert);
    expect(readFileSync(path.join(dir, 'lake-tls', 'ca.pem'))).toEqual(ca);
    expect(new X509Certificate(second.cert).verify(new X509Certificate(ca).publicKey)).toBe(true);
  });
});
