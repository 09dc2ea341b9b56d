import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-path';

const ORIGINS = ['http://127.0.0.1:3000', 'https://www.bawaba-advisory.com'];

describe('safeReturnPath', () => {
  it('keeps site paths, with their search and hash', () => {
    expect(safeReturnPath('/blog')).toBe('/blog');
    expect(safeReturnPath('/ar/blog?page=2#top')).toBe('/ar/blog?page=2#top');
    expect(safeReturnPath('/ar/blog?page=2', ORIGINS)).toBe('/ar/blog?page=2');
  });

  it('takes absolute URLs only on the given origins, as their path', () => {
    expect(safeReturnPath('https://www.bawaba-advisory.com/faq?x=1', ORIGINS)).toBe('/faq?x=1');
    expect(safeReturnPath('http://127.0.0.1:3000/', ORIGINS)).toBe('/');
    expect(safeReturnPath('https://www.bawaba-advisory.com/faq')).toBeNull();
  });

  it('refuses other origins, protocol-relative and backslash tricks, and junk', () => {
    const bad = [
      'https://evil.com/faq',
      '//evil.com/faq',
      '/\\evil.com/faq',
      '\\\\evil.com',
      '/..//evil.com',
      'javascript:alert(1)',
      'http://www.bawaba-advisory.com/',
      'faq',
      '',
      null,
      undefined,
      `/${'a'.repeat(3000)}`,
    ];
    for (const raw of bad) expect(safeReturnPath(raw, ORIGINS), String(raw)).toBeNull();
  });
});
