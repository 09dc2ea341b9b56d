import { describe, expect, it } from 'vitest';
import { parseEmailAddress } from './email';

describe('one email rule', () => {
  it('accepts ordinary addresses, trimmed and in lower case', () => {
    expect(parseEmailAddress(' Client@Example.com ')).toBe('client@example.com');
    expect(parseEmailAddress('first.last+tag@sub.example.ae')).toBe('first.last+tag@sub.example.ae');
  });

  it('refuses markup, spaces, missing parts and overlong addresses', () => {
    for (const bad of [
      '<svg/onload=alert(3)>@example.net',
      '"quoted"@example.com',
      'a b@example.com',
      'no-at.example.com',
      'x@localhost',
      'x@example.com\r\nBcc: y@example.com',
      `${'a'.repeat(250)}@example.com`,
      '',
      null,
      42,
    ])
      expect(parseEmailAddress(bad), String(bad)).toBeNull();
  });
});
