import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { CmsText, RouteErrorBoundary } from '~/kit';
import { container } from '~/content-kit';
import {
  CategoryLinks,
  errorMeta,
  SidebarSection,
  TermIntro,
  termListingMeta,
  TermPosts,
  useInsightsCopy,
} from '~/features/insights/kit';
import { englishFallbacks, insightsT, listingRequest, listingTitle, loadQuery, termListing } from '~/server-api';
import { BLOG_CATEGORY_QUERY } from '~/sanity/queries/insights';

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { locale, page, query } = await listingRequest(request);
  const result = await loadQuery(request, BLOG_CATEGORY_QUERY, { ...query, slug: params.categorySlug ?? '' });
  const { term: category, pagination, posts } = await termListing(locale, page, result.category);
  const t = await insightsT(locale);
  return {
    category,
    blogTitle: result.blogTitle,
    pagination,
    posts,
    categories: result.categories,
    englishFallbacks: englishFallbacks(request),
    metaTitle: listingTitle(t, page, t('blog.categoryMetaTitle', { category: category.title })),
  };
}

export const meta: MetaFunction<typeof loader> = (args) => {
  if (!args.data) return errorMeta(args);
  const { metaTitle, category, pagination } = args.data;
  return termListingMeta(args, { title: metaTitle, description: category.description }, pagination);
};

export const ErrorBoundary = RouteErrorBoundary;

export default function BlogCategory() {
  const { category, blogTitle, pagination, posts, categories } = useLoaderData<typeof loader>();
  const { t } = useInsightsCopy();
  return (
    <div data-testid="blog-category">
      <TermIntro
        blogTitle={blogTitle}
        eyebrow={t('blog.category')}
        title={category.title}
        intro={
          <>
            <CmsText text={category.description} />
            {pagination.total > 0 && (
              <p className="mt-2 text-base text-navy-700">{t('blog.postCount', { count: pagination.total })}</p>
            )}
          </>
        }
      />

      <div className={`${container} grid gap-10 py-10 md:py-14 lg:grid-cols-[minmax(0,1fr)_20rem]`}>
        <div>
          <TermPosts
            term="category"
            path={`/blog/category/${category.slug}`}
            posts={posts}
            pagination={pagination}
            columns={2}
          />
        </div>
        <aside>
          <SidebarSection id="all-categories" title={t('blog.categories')}>
            <CategoryLinks categories={categories} currentSlug={category.slug} />
          </SidebarSection>
        </aside>
      </div>
    </div>
  );
}
