import { Link } from '@remix-run/react';
import { TitledSection } from '~/components/marketing/TitledSection';
import { useLocalizePath } from '~/lib/locale';
import type { CountedTerm } from '~/sanity/queries/insights';
import { useInsightsCopy } from '~/features/insights/use-insights-copy';

/** A link to a tag's or a category's page; `current` marks the page's own term (aria-current). */
export function TermLink({
  term,
  slug,
  current,
  ...props
}: { term: 'tag' | 'category'; slug: string; current?: boolean } & Omit<
  React.ComponentProps<typeof Link>,
  'to' | 'prefetch'
>) {
  const localize = useLocalizePath();
  return (
    <Link
      to={localize(`/blog/${term}/${slug}`)}
      prefetch="intent"
      aria-current={current ? 'page' : undefined}
      {...props}
    />
  );
}

/** Tag chips linking to their tag pages. */
export function TagChips({
  tags,
  showCounts,
}: {
  tags: (Pick<CountedTerm, '_id' | 'slug' | 'title'> & { count?: number })[];
  showCounts?: boolean;
}) {
  const { t, inEnglish } = useInsightsCopy();
  return (
    <ul className="flex flex-wrap gap-2">
      {tags.map((tag) => (
        <li key={tag._id}>
          <TermLink
            term="tag"
            slug={tag.slug}
            aria-label={
              showCounts && tag.count !== undefined
                ? t('blog.tagCount', { tag: tag.title, count: tag.count })
                : undefined
            }
            className="inline-flex min-h-9 items-center gap-1.5 rounded-full border px-3.5 text-sm font-medium transition border-sand-200 bg-white text-navy-800 hover:border-gold-500 hover:bg-sand-50"
          >
            <span aria-hidden="true" className="text-gold-700">
              #
            </span>
            <span {...inEnglish(tag.title)}>{tag.title}</span>
            {showCounts && tag.count !== undefined && (
              <span aria-hidden="true" className="text-xs text-navy-500">
                {tag.count}
              </span>
            )}
          </TermLink>
        </li>
      ))}
    </ul>
  );
}

/** Categories with their article counts, linking to the category pages. */
export function CategoryLinks({ categories, currentSlug }: { categories: CountedTerm[]; currentSlug?: string }) {
  const { t, inEnglish } = useInsightsCopy();
  return (
    <ul className="divide-y divide-sand-200">
      {categories.map((c) => {
        const current = c.slug === currentSlug;
        return (
          <li key={c._id}>
            <TermLink
              term="category"
              slug={c.slug}
              current={current}
              className={`flex min-h-11 items-center justify-between gap-3 rounded py-2 hover:text-navy-900 hover:underline ${current ? 'font-semibold text-navy-900' : 'text-navy-700'}`}
            >
              <span {...inEnglish(c.title)}>{c.title}</span>
              <span className="shrink-0 rounded-full bg-sand-100 px-2.5 py-0.5 text-xs font-medium text-navy-800">
                {t('blog.postCount', { count: c.count })}
              </span>
            </TermLink>
          </li>
        );
      })}
    </ul>
  );
}

/** The titled lists of tags under a rule: a post's own tags after its text, or other topics below a tag's posts. */
const TAG_SECTIONS = {
  post: {
    id: 'post-tags',
    testId: 'post-tags',
    className: 'mt-12 border-t border-sand-200 pt-8',
    titleClassName: 'text-sm font-semibold uppercase tracking-wider text-navy-700',
    listClassName: 'mt-3',
  },
  otherTopics: {
    id: 'other-tags',
    testId: undefined,
    className: 'mt-14 border-t border-sand-200 pt-10',
    titleClassName: 'text-xl font-bold text-navy-900',
    listClassName: 'mt-4',
  },
};

/** Tag chips under their own heading, in one of the two places the blog shows them (TAG_SECTIONS). */
export function TagSection({
  place,
  title,
  ...chips
}: { place: keyof typeof TAG_SECTIONS; title: string } & React.ComponentProps<typeof TagChips>) {
  const { listClassName, ...section } = TAG_SECTIONS[place];
  return (
    <TitledSection title={title} {...section}>
      <div className={listClassName}>
        <TagChips {...chips} />
      </div>
    </TitledSection>
  );
}
