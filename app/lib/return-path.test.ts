import { describe, expect, it } from 'vitest';
import { onSiteLocation, safeReturnPath } from './return-path';

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

describe('onSiteLocation (the last step of every redirect)', () => {
  it('folds a location a browser would read as another host into a path of this site', () => {
    const resolve = (location: string) => new URL(onSiteLocation(location), 'https://site.example/en/x').origin;
    for (const location of [
      '//evil.example/login',
      '/\\evil.com',
      '\\evil.com',
      '\\/evil.com',
      '/\t/evil.com',
      ' //evil.com',
    ]) {
      expect(onSiteLocation(location), JSON.stringify(location)).toMatch(/^\/[^/\\]/);
      expect(resolve(location), JSON.stringify(location)).toBe('https://site.example');
    }
    expect(onSiteLocation('//evil.example/login?next=1')).toBe('/evil.example/login?next=1');
  });

  it('leaves paths and absolute URLs chosen by a route as they are', () => {
    for (const location of [
      '/',
      '/ar/faq?x=1#a',
      'https://checkout.stripe.com/c/pay/cs_test_1',
      '/account?next=%2F%2Fx',
    ])
      expect(onSiteLocation(location)).toBe(location);
  });
});
