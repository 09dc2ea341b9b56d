import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, compressWithHoles, filled, gzipFilled, splitAtHoles } from './gzip-with-holes.server';

const HOLE = 'cspPLACEHOLDERxyz';

describe('gzip with holes', () => {
  const page = Buffer.from(
    `${HOLE}<!DOCTYPE html><html lang="ar" dir="rtl"><script nonce="${HOLE}">1</script>` +
      'مرحبا بكم في بوابة للاستشارات '.repeat(400) +
      `<script nonce="${HOLE}"></script>${HOLE}${HOLE}end`,
  );

  it('decodes to the page with the fill in every hole, for several fills, from one compression', () => {
    const compressed = compressWithHoles(page, HOLE, 22);
    for (const fill of ['A1b2C3d4E5f6G7h8I9j0K_', 'z'.repeat(22), '-'.repeat(22)]) {
      const expected = page.toString().split(HOLE).join(fill);
      expect(gunzipSync(gzipFilled(compressed, fill)).toString()).toBe(expected);
      expect(filled(compressed.parts, fill).toString()).toBe(expected);
    }
  });

  it('refuses a fill of another length (the distances would be off)', () => {
    expect(() => gzipFilled(compressWithHoles(page, HOLE, 22), 'short')).toThrow();
  });

  it('compresses about as well as the page in one piece (each part sees the text before it)', () => {
    const items = Array.from({ length: 2000 }, (_, i) => `<li>مقال ${i * 7919} post ${i}</li>`);
    const varied = Buffer.from(items.map((item, i) => (i % 50 ? item : `<script nonce="${HOLE}"></script>`)).join(''));
    const nonce = 'A1b2C3d4E5f6G7h8I9j0K_';
    const whole = gzipSync(varied.toString().split(HOLE).join(nonce)).length;
    // 40 holes: a few bytes each for the stored block and a new block's code table.
    expect(gzipFilled(compressWithHoles(varied, HOLE, 22), nonce).length).toBeLessThan(whole * 1.05 + 40 * 60);
  });

  it('a body with NUL bytes is compressed without dictionaries, still correct', () => {
    const withNul = Buffer.from(`a\u0000${HOLE}\u0000\u0000\u0000b${HOLE}\u0000`.repeat(50));
    const fill = '\u0000\u0000\u0000';
    const gz = gzipFilled(compressWithHoles(withNul, HOLE, 3), fill);
    expect(gunzipSync(gz).toString()).toBe(withNul.toString().split(HOLE).join(fill));
  });

  it('works without holes and for an empty body, and compresses', () => {
    const plain = Buffer.from('hello '.repeat(1000));
    const gz = gzipFilled(compressWithHoles(plain, HOLE, 1), 'n');
    expect(gunzipSync(gz).toString()).toBe(plain.toString());
    expect(gz.length).toBeLessThan(100);
    expect(gunzipSync(gzipFilled(compressWithHoles(Buffer.alloc(0), HOLE, 1), 'n')).length).toBe(0);
    expect(compressWithHoles(page, HOLE, 22).compressedBytes).toBeLessThan(page.length / 4);
  });

  it('splits at every hole, keeping the text between them', () => {
    expect(splitAtHoles(Buffer.from(`a${HOLE}b${HOLE}`), HOLE).map(String)).toEqual(['a', 'b', '']);
  });
});

describe('acceptsGzip', () => {
  it.each([
    ['gzip, deflate, br, zstd', true],
    ['br;q=1.0, gzip;q=0.8', true],
    ['GZIP', true],
    ['*', true],
    ['gzip;q=0', false],
    ['br, *;q=0', false],
    ['br', false],
    ['identity', false],
    ['', false],
  ])('%j -> %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
  it('no header: identity', () => expect(acceptsGzip(null)).toBe(false));
});
