import { describe, expect, it } from 'vitest';
import { scrub, scrubText } from './log.server';

describe('scrub', () => {
  it('replaces addresses, codes, tokens, IPs and queries in text, and keeps ids', () => {
    const text = scrubText(
      'sent 482913 to layla.h@example.com from 203.0.113.9 and 2001:db8::7 via /account/verify?code=482913&t=x ' +
        'session Zx9_aB3kLmN0pQrStUvWxYz0123456789abcDEF request 0f8fad5b-d9cb-469f-a165-70867728950e invoice BWB-2026-000123 on 127.0.0.1 by pid 654321',
    );
    for (const secret of ['482913', 'layla', 'example.com', '203.0.113.9', '2001:db8::7', 'code=', 'Zx9_aB3k'])
      expect(text).not.toContain(secret);
    expect(text).toContain('0f8fad5b-d9cb-469f-a165-70867728950e');
    expect(text).toContain('BWB-2026-000123');
    expect(text).toContain('127.0.0.1');
    expect(text).toContain('pid 654321');
    // An image asset's name (its bytes' SHA-1 and size) is public: the resizer's lines keep it.
    const asset = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4-3200x2000.jpg';
    expect(scrubText(`[images] resized ${asset} to 2048xauto webp`)).toContain(asset);
    expect(scrubText(`token e3b0c44298fc1c149afbf4c8996fb92427ae41e4a1b2c3d4`)).toBe('token [token]');
  });
  it('drops secret-named fields at any depth and scrubs errors', () => {
    const out = scrub({
      customerId: 'cus_123',
      email: 'a@b.co',
      nested: { Name: 'Layla', cookie: '__client=abc', list: [{ token: 't' }] },
      err: new Error('no mailbox for a@b.co'),
    });
    expect(out).toEqual({
      customerId: 'cus_123',
      email: '[redacted]',
      nested: { Name: '[redacted]', cookie: '[redacted]', list: [{ token: '[redacted]' }] },
      err: { type: 'Error', message: 'no mailbox for [email]' },
    });
  });
});
