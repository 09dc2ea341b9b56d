import { describe, expect, it } from 'vitest';
import { pageHref, pageWindow, paginate, parsePageParam } from './pagination';

describe('parsePageParam', () => {
  it('reads a missing parameter as page 1 and plain positive integers as pages', () => {
    expect(parsePageParam(null)).toBe(1);
    expect(parsePageParam(undefined)).toBe(1);
    expect(parsePageParam('1')).toBe(1);
    expect(parsePageParam('2')).toBe(2);
    expect(parsePageParam('120')).toBe(120);
  });

  it('rejects anything else', () => {
    for (const raw of ['', '0', '-1', '01', '1.5', 'abc', '2abc', ' 2', '1e3', '9999999'])
      expect(parsePageParam(raw), raw).toBeNull();
  });
});

describe('paginate', () => {
  it('slices six per page by default', () => {
    expect(paginate(8, 1)).toEqual({ page: 1, totalPages: 2, total: 8, perPage: 6, start: 0, end: 6 });
    expect(paginate(8, 2)).toEqual({ page: 2, totalPages: 2, total: 8, perPage: 6, start: 6, end: 8 });
    expect(paginate(12, 2)?.totalPages).toBe(2);
    expect(paginate(13, 3)).toMatchObject({ start: 12, end: 13, totalPages: 3 });
  });

  it('has no page past the last, and none below one', () => {
    expect(paginate(8, 3)).toBeNull();
    expect(paginate(12, 3)).toBeNull();
    expect(paginate(8, 0)).toBeNull();
  });

  it('keeps the first page of an empty listing', () => {
    expect(paginate(0, 1)).toEqual({ page: 1, totalPages: 1, total: 0, perPage: 6, start: 0, end: 0 });
    expect(paginate(0, 2)).toBeNull();
  });

  it('honours another page size', () => {
    expect(paginate(10, 4, 3)).toMatchObject({ start: 9, end: 10, totalPages: 4 });
  });
});

describe('page links', () => {
  it('gives page 1 the bare path', () => {
    expect(pageHref('/blog', 1)).toBe('/blog');
    expect(pageHref('/ar/blog/tag/uae', 3)).toBe('/ar/blog/tag/uae?page=3');
  });

  it('shows first, last and neighbours with gaps', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 2)).toEqual([1, 2]);
    expect(pageWindow(1, 5)).toEqual([1, 2, null, 5]);
    expect(pageWindow(3, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(5, 10)).toEqual([1, null, 4, 5, 6, null, 10]);
    expect(pageWindow(10, 10)).toEqual([1, null, 9, 10]);
  });
});
