/** Page numbers for the article listings (?page=N); page 1 is the bare path. */
export const POSTS_PER_PAGE = 6;

/** The page asked for: no parameter is page 1; anything but a plain positive integer is invalid (null). */
export function parsePageParam(raw: string | null | undefined): number | null {
  if (raw === null || raw === undefined) return 1;
  if (!/^[1-9]\d{0,5}$/.test(raw)) return null;
  return Number(raw);
}

export type PageSlice = {
  page: number;
  totalPages: number;
  total: number;
  start: number;
  end: number;
  perPage: number;
};

/**
 * The slice of `total` items on `page`, or null when the page does not exist. An empty
 * listing still has its first page (it shows the empty state).
 */
export function paginate(total: number, page: number, perPage = POSTS_PER_PAGE): PageSlice | null {
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  if (!Number.isInteger(page) || page < 1 || page > totalPages) return null;
  const start = (page - 1) * perPage;
  return { page, totalPages, total, perPage, start, end: Math.min(start + perPage, total) };
}

/** The URL of a page of a listing (page 1 has no parameter, so it has one URL only). */
export function pageHref(path: string, page: number): string {
  return page <= 1 ? path : `${path}?page=${page}`;
}

/**
 * Page numbers to show: first, last, the current one and its neighbours; null marks a gap.
 * [1, null, 4, 5, 6, null, 10]
 */
export function pageWindow(current: number, totalPages: number): (number | null)[] {
  const shown = new Set([1, totalPages, current - 1, current, current + 1].filter((p) => p >= 1 && p <= totalPages));
  const pages = [...shown].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  for (const [i, p] of pages.entries()) {
    if (i > 0) {
      const gap = p - pages[i - 1];
      if (gap === 2) out.push(p - 1);
      else if (gap > 2) out.push(null);
    }
    out.push(p);
  }
  return out;
}
