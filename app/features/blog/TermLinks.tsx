import { Link } from '@remix-run/react';
import type { CountedTerm } from '~/sanity/queries/insights';
import { useInsightsCopy } from '~/features/insights/use-insights-copy';

/** Tag chips linking to their tag pages. */
export function TagChips({
  tags,
  showCounts,
  currentSlug,
}: {
  tags: (Pick<CountedTerm, '_id' | 'slug' | 'title'> & { count?: number })[];
  showCounts?: boolean;
  currentSlug?: string;
}) {
  const { t, localize, inEnglish } = useInsightsCopy();
  return (
    <ul className="flex flex-wrap gap-2">
      {tags.map((tag) => {
        const current = tag.slug === currentSlug;
        return (
          <li key={tag._id}>
            <Link
              to={localize(`/blog/tag/${tag.slug}`)}
              prefetch="intent"
              aria-current={current ? 'page' : undefined}
              aria-label={
                showCounts && tag.count !== undefined
                  ? t('blog.tagCount', { tag: tag.title, count: tag.count })
                  : undefined
              }
              className={`inline-flex min-h-9 items-center gap-1.5 rounded-full border px-3.5 text-sm font-medium transition ${
                current
                  ? 'border-navy-900 bg-navy-900 text-white'
                  : 'border-sand-200 bg-white text-navy-800 hover:border-gold-500 hover:bg-sand-50'
              }`}
            >
              <span aria-hidden="true" className={current ? 'text-gold-300' : 'text-gold-700'}>
                #
              </span>
              <span {...inEnglish(tag.title)}>{tag.title}</span>
              {showCounts && tag.count !== undefined && (
                <span aria-hidden="true" className={`text-xs ${current ? 'text-navy-100' : 'text-navy-500'}`}>
                  {tag.count}
                </span>
              )}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** Categories with their article counts, linking to the category pages. */
export function CategoryLinks({ categories, currentSlug }: { categories: CountedTerm[]; currentSlug?: string }) {
  const { t, localize, inEnglish } = useInsightsCopy();
  return (
    <ul className="divide-y divide-sand-200">
      {categories.map((c) => {
        const current = c.slug === currentSlug;
        return (
          <li key={c._id}>
            <Link
              to={localize(`/blog/category/${c.slug}`)}
              prefetch="intent"
              aria-current={current ? 'page' : undefined}
              className={`flex min-h-11 items-center justify-between gap-3 rounded py-2 hover:text-navy-900 hover:underline ${current ? 'font-semibold text-navy-900' : 'text-navy-700'}`}
            >
              <span {...inEnglish(c.title)}>{c.title}</span>
              <span className="shrink-0 rounded-full bg-sand-100 px-2.5 py-0.5 text-xs font-medium text-navy-800">
                {t('blog.postCount', { count: c.count })}
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
