import { requestLocale } from '~/i18n';
import { requestedPage, type insightsT } from '~/lib/content-page.server';
import { notFound } from '~/lib/not-found.server';
import type { PostCardRaw } from '~/sanity/queries/insights';
import { toPostCard } from './cards';
import { paginate, POSTS_PER_PAGE } from './pagination';

/**
 * The start of a blog listing's loader (the index, a category, a tag): the request's language,
 * the page asked for (?page=N; anything but a positive integer is a 404), and the parameters
 * every listing query takes: the language and the GROQ slice bounds of that page, so the query
 * fetches only the posts it shows.
 */
export async function listingRequest(request: Request) {
  const locale = requestLocale(request);
  const page = requestedPage(request);
  if (page === null) throw await notFound(locale);
  const start = (page - 1) * POSTS_PER_PAGE;
  return { locale, page, query: { lang: locale, start, end: start + POSTS_PER_PAGE } };
}

/** The pagination of `total` posts on `page`; a page past the last is a 404. */
export async function listingSlice(locale: ReturnType<typeof requestLocale>, total: number, page: number) {
  const slice = paginate(total, page);
  if (!slice) throw await notFound(locale);
  return slice;
}

/**
 * A category's or a tag's page of posts, from what its query found: an unknown term (null) is a
 * 404, a known one without posts an empty page. The posts leave as cards with their reading time.
 */
export async function termListing<T extends { total: number; posts: PostCardRaw[] }>(
  locale: ReturnType<typeof requestLocale>,
  page: number,
  found: T | null,
) {
  if (!found) throw await notFound(locale);
  const { total, posts, ...term } = found;
  return { term, pagination: await listingSlice(locale, total, page), posts: posts.map(toPostCard) };
}

/** A listing's meta title: "Page N – title" past the first page. */
export function listingTitle(t: Awaited<ReturnType<typeof insightsT>>, page: number, title: string) {
  return [page > 1 ? t('blog.pageSuffix', { page }) : null, title].filter(Boolean).join(' – ');
}
