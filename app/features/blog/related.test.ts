import { describe, expect, it } from 'vitest';
import { relatedScore, selectRelated } from './related';

const post = (id: string, categoryId: string | null, tagIds: string[], publishedAt = '2026-01-01') => ({ _id: id, categoryId, tagIds, publishedAt });
const current = post('p', 'finance', ['tax', 'uae', 'vat']);

describe('related posts', () => {
  it('scores a shared category as two shared tags', () => {
    expect(relatedScore(current, post('a', 'finance', []))).toBe(2);
    expect(relatedScore(current, post('b', 'legal', ['tax', 'uae']))).toBe(2);
    expect(relatedScore(current, post('c', 'finance', ['vat']))).toBe(3);
    expect(relatedScore(current, post('d', 'legal', ['dubai']))).toBe(0);
    expect(relatedScore(current, current)).toBe(0);
  });

  it('picks at most three, best match first, newer first on a tie, never itself or unrelated posts', () => {
    const candidates = [
      current,
      post('unrelated', 'legal', ['dubai'], '2026-12-01'),
      post('one-tag-old', 'legal', ['uae'], '2025-01-01'),
      post('one-tag-new', 'business', ['vat'], '2026-06-01'),
      post('category', 'finance', [], '2026-02-01'),
      post('best', 'finance', ['tax', 'vat'], '2024-01-01'),
    ];
    expect(selectRelated(current, candidates).map((p) => p._id)).toEqual(['best', 'category', 'one-tag-new']);
    expect(selectRelated(current, candidates, 10).map((p) => p._id)).toEqual(['best', 'category', 'one-tag-new', 'one-tag-old']);
  });

  it('returns fewer than three when fewer are related, and copes with missing keys', () => {
    expect(selectRelated(current, [post('x', 'legal', ['uae'])]).map((p) => p._id)).toEqual(['x']);
    expect(selectRelated({ _id: 'n', categoryId: null, tagIds: null }, [post('y', null, [])])).toEqual([]);
  });
});
