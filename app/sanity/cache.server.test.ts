import { describe, expect, it } from 'vitest';
import { QueryCache, typesReadBy } from './cache.server';

describe('typesReadBy', () => {
  it('finds the types a query reads', () => {
    expect(typesReadBy('*[_type == "service"] | order(order asc){ title }')).toEqual(new Set(['service']));
    expect(typesReadBy('*[_type in ["faqItem", "faqCategory"]]')).toEqual(new Set(['faqItem', 'faqCategory']));
    expect(typesReadBy('*[_id == "siteSettings"][0]{ "logo": logo{ "asset": asset->{url} } }')).toEqual(
      new Set(['siteSettings']),
    );
  });

  it('treats reference-following queries and untyped queries as reading everything', () => {
    expect(typesReadBy('*[_type == "blogPost"]{ "category": category->title }')).toBe('all');
    expect(typesReadBy('*[defined(slug)]')).toBe('all');
  });
});

describe('QueryCache', () => {
  const make = (now = { t: 0 }) => ({ cache: new QueryCache({ maxAgeMs: 1000, now: () => now.t }), now });

  it('serves a stored result without calling the content API again', async () => {
    const { cache } = make();
    let calls = 0;
    const load = async () => ++calls;
    expect(await cache.get('k', new Set(['service']), load)).toBe(1);
    expect(await cache.get('k', new Set(['service']), load)).toBe(1);
    expect(calls).toBe(1);
  });

  it('drops exactly the entries whose types changed', async () => {
    const { cache } = make();
    await cache.get('services', new Set(['service']), async () => 's');
    await cache.get('faq', new Set(['faqItem']), async () => 'f');
    await cache.get('posts', 'all', async () => 'p');
    expect(cache.invalidate(new Set(['service']))).toBe(2);
    let reloaded = false;
    await cache.get('faq', new Set(['faqItem']), async () => ((reloaded = true), 'f2'));
    expect(reloaded).toBe(false);
  });

  it('refreshes old entries and keeps the last good one when the refresh fails', async () => {
    const { cache, now } = make();
    await cache.get('k', 'all', async () => 'good');
    now.t = 5000;
    expect(
      await cache.get('k', 'all', async () => {
        throw new Error('API down');
      }),
    ).toBe('good');
    await expect(
      cache.get('other', 'all', async () => {
        throw new Error('API down');
      }),
    ).rejects.toThrow('API down');
  });

  it('shares one request between concurrent readers', async () => {
    const { cache } = make();
    let calls = 0;
    const load = () => new Promise<number>((r) => setTimeout(() => r(++calls), 10));
    const [a, b] = await Promise.all([cache.get('k', 'all', load), cache.get('k', 'all', load)]);
    expect([a, b, calls]).toEqual([1, 1, 1]);
  });
});
