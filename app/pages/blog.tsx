import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { pageMeta, RouteErrorBoundary } from '~/kit';
import { container } from '~/content-kit';
import { NewsletterForm } from '~/features/forms/NewsletterForm';
import { toPostCard } from '~/features/blog/cards';
import {
  CategoryLinks,
  errorMeta,
  FeaturedPost,
  IndexIntro,
  PostGrid,
  SidebarSection,
  TagChips,
  useInsightsCopy,
  withPagination,
} from '~/features/insights/kit';
import { Pagination } from '~/features/blog/PaginationNav';
import { englishFallbacks, insightsT, listingRequest, listingSlice, loadQuery } from '~/server-api';
import { BLOG_INDEX_QUERY } from '~/sanity/queries/insights';

const POPULAR_TAGS = 8;

export async function loader({ request }: LoaderFunctionArgs) {
  const { locale, page, query } = await listingRequest(request);
  const result = await loadQuery(request, BLOG_INDEX_QUERY, { ...query, tagLimit: POPULAR_TAGS });
  const pagination = await listingSlice(locale, result.total, page);
  const t = await insightsT(locale);
  return {
    intro: result.page,
    pagination,
    pageLabel: page > 1 ? t('blog.pageSuffix', { page }) : null,
    // The featured article opens the first page; the list below holds all the others.
    featured: page === 1 && result.featured ? toPostCard(result.featured) : null,
    posts: result.posts.map(toPostCard),
    popularTags: result.popularTags,
    categories: result.categories,
    englishFallbacks: englishFallbacks(request),
  };
}

export const meta: MetaFunction<typeof loader> = (args) => {
  if (!args.data) return errorMeta(args);
  const { intro, pagination, pageLabel } = args.data;
  const title = intro.seo.title || intro.title;
  return withPagination(
    pageMeta(args, {
      title: pageLabel ? `${pageLabel} – ${title}` : title,
      description: intro.seo.description ?? intro.intro,
    }),
    args,
    pagination.page,
    pagination.totalPages,
  );
};

export const ErrorBoundary = RouteErrorBoundary;

export default function BlogIndex() {
  const { intro, pagination, featured, posts, popularTags, categories } = useLoaderData<typeof loader>();
  const { t, localize } = useInsightsCopy();
  return (
    <div data-testid="blog-index">
      <IndexIntro title={intro.title} intro={intro.intro} />

      {featured && (
        <div className={`${container} pt-10 md:pt-14`}>
          <FeaturedPost post={featured} />
        </div>
      )}

      <div className={`${container} grid gap-10 py-10 md:py-14 lg:grid-cols-[minmax(0,1fr)_20rem]`}>
        <section aria-labelledby="recent-heading" data-testid="recent-posts">
          <h2 id="recent-heading" className="mb-6 text-2xl font-bold text-navy-900">
            {t('blog.recent')}
          </h2>
          <PostGrid posts={posts} columns={2} />
          <Pagination path={localize('/blog')} page={pagination.page} totalPages={pagination.totalPages} />
        </section>

        <aside className="space-y-6 lg:pt-14">
          <SidebarSection title={t('blog.popularTags')}>
            <div data-testid="popular-tags">
              <TagChips tags={popularTags} showCounts />
            </div>
          </SidebarSection>
          <SidebarSection title={t('blog.categories')}>
            <div data-testid="categories">
              <CategoryLinks categories={categories} />
            </div>
          </SidebarSection>
          {/* Below lg the sidebar stacks under the posts, right above the footer's own newsletter
              box: the page shows that one only, rather than the same form twice in a row. */}
          <div className="hidden rounded-2xl border border-navy-100 bg-sand-50 p-5 lg:block">
            <NewsletterForm formId="blog" regionLabel={t('blog.newsletterRegion')} />
          </div>
        </aside>
      </div>
    </div>
  );
}
