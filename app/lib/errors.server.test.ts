import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleError } from '~/entry.server';
import { flushErrors, startErrorReporting } from './errors.server';

/**
 * Sentry reporting (issue 44, item 5) against a local endpoint that receives the SDK's envelopes:
 * nothing is sent without SENTRY_DSN; with it, a failed request reaches it through Remix's
 * handleError with nothing personal in it (the address, the code, the cookie, the query).
 */
let server: Server;
let port: number;
const received: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push((req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body).toString('utf8'));
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const personal = {
  email: 'layla.haddad@example.com',
  code: '482913',
  cookie: '__portal_session=s3cr3tSessionValue0123456789abcdefABCDEF',
};

function failedRequest() {
  const request = new Request(`http://127.0.0.1/account/verify?email=${personal.email}&code=${personal.code}`, {
    method: 'POST',
    headers: { Cookie: personal.cookie, 'X-Forwarded-For': '203.0.113.9' },
  });
  const error = new Error(`could not sign in ${personal.email} with ${personal.code} from 203.0.113.9`);
  handleError(error, { request });
}

describe('error reporting', () => {
  it('sends nothing without SENTRY_DSN', async () => {
    expect(await startErrorReporting(undefined)).toBe(false);
    failedRequest();
    await flushErrors();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received).toEqual([]);
  });

  it('refuses a malformed SENTRY_DSN with what to do', async () => {
    await expect(startErrorReporting('not a dsn')).rejects.toThrow(/SENTRY_DSN/);
    await expect(startErrorReporting(`http://127.0.0.1:${port}/1`)).rejects.toThrow(/Sentry DSN/);
  });

  it('with SENTRY_DSN, reports a failed request with nothing personal in it', async () => {
    expect(await startErrorReporting(`http://publickey@127.0.0.1:${port}/1`)).toBe(true);
    failedRequest();
    await flushErrors(5_000);
    expect(received).toHaveLength(1);
    const envelope = received[0];
    expect(envelope).toContain('"type":"event"');
    expect(envelope).toContain('could not sign in [email] with [code] from [ip]');
    expect(envelope).toContain('/account/verify');
    for (const value of [personal.email, personal.code, 's3cr3tSessionValue', '203.0.113.9', 'email='])
      expect(envelope).not.toContain(value);
    // None of the integrations that record requests, console lines, local variables or source lines.
    for (const name of ['"RequestData"', '"Console"', '"LocalVariablesAsync"', '"ContextLines"', '"Http"'])
      expect(envelope).not.toContain(name);
  });
});
