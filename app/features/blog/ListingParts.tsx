/** Parts of the blog's listing pages: a term's intro, a sidebar box, the empty state and a term's articles. */
import { BackLink, PageIntro } from '~/components/PageIntro';
import { useCrumbsFromHome } from '~/features/insights/PageHeaders';
import { useInsightsCopy } from '~/features/insights/use-insights-copy';
import type { PostCard as PostCardData } from './cards';
import { Pagination } from './PaginationNav';
import { PostGrid } from './PostCard';

/** The top of a category's or a tag's page: Home › all articles › the term, its title and intro, the way back. */
export function TermIntro({
  blogTitle,
  eyebrow,
  title,
  intro,
}: {
  /** The blog's title, the second crumb ("All articles" when the CMS has none). */
  blogTitle: string | null;
  eyebrow?: string;
  /** The page's h1, also its crumb. */
  title: React.ReactNode;
  intro: React.ReactNode;
}) {
  const { t, localize } = useInsightsCopy();
  const crumbsFrom = useCrumbsFromHome();
  return (
    <PageIntro
      crumbs={crumbsFrom({ label: blogTitle ?? t('blog.allArticles'), to: '/blog' }, { label: title })}
      eyebrow={eyebrow}
      title={title}
      intro={intro}
    >
      <div className="mt-6">
        <BackLink to={localize('/blog')}>{t('blog.backToAll')}</BackLink>
      </div>
    </PageIntro>
  );
}

/**
 * A titled box of the listing's sidebar (popular tags, categories). With an `id`, its heading
 * names it (aria-labelledby): a landmark, where it is the page's only one of its kind.
 */
export function SidebarSection({ id, title, children }: { id?: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-sand-200 bg-white p-6">
      <h2 id={id} className="text-base font-bold text-navy-900">
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** The empty state of a listing (a tag or category without posts). */
export function EmptyState({
  testId,
  title,
  text,
  children,
}: {
  testId: string;
  title: string;
  text: string;
  children?: React.ReactNode;
}) {
  return (
    <div
      data-testid={testId}
      className="rounded-3xl border border-dashed border-sand-200 bg-sand-50 px-6 py-12 text-center"
    >
      <h2 className="text-xl font-bold text-navy-900">{title}</h2>
      <p className="mx-auto mt-2 max-w-md text-navy-700">{text}</p>
      {children && <div className="mt-6">{children}</div>}
    </div>
  );
}

/**
 * A category's or a tag's articles with links to their other pages, or, when it has none yet,
 * the empty state leading back to all articles.
 */
export function TermPosts({
  term,
  path,
  posts,
  pagination,
  columns,
}: {
  term: 'category' | 'tag';
  /** The term page's own path, before localizing (page links add ?page=N). */
  path: string;
  posts: PostCardData[];
  pagination: { page: number; totalPages: number };
  columns?: 2 | 3;
}) {
  const { t, localize } = useInsightsCopy();
  if (posts.length === 0)
    return (
      <EmptyState testId={`${term}-empty`} title={t(`blog.${term}EmptyTitle`)} text={t(`blog.${term}EmptyText`)}>
        <BackLink to={localize('/blog')}>{t('blog.backToAll')}</BackLink>
      </EmptyState>
    );
  return (
    <>
      <h2 className="sr-only">{t('blog.allArticles')}</h2>
      <PostGrid posts={posts} columns={columns} />
      <Pagination path={localize(path)} page={pagination.page} totalPages={pagination.totalPages} />
    </>
  );
}
