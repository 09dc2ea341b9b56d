import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { RouteErrorBoundary } from '~/components/RouteError';
import { toPostCard } from '~/features/blog/cards';
import { BackLink, PageIntro } from '~/components/PageIntro';
import { container } from '~/components/marketing/ui';
import { TermPosts } from '~/features/blog/ListingParts';
import { CategoryLinks } from '~/features/blog/TermLinks';
import { insightsT } from '~/lib/content-page.server';
import { listingRequest, listingSlice, listingTitle } from '~/features/blog/listing.server';
import { notFound } from '~/lib/not-found.server';
import { errorMeta, termListingMeta } from '~/features/blog/meta';
import { englishFallbacks, loadQuery } from '~/sanity/load.server';
import { BLOG_CATEGORY_QUERY } from '~/sanity/queries/insights';
import { useInsightsCopy } from '~/features/insights/use-insights-copy';

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { locale, page, start, end } = await listingRequest(request);
  const result = await loadQuery(request, BLOG_CATEGORY_QUERY, {
    lang: locale,
    slug: params.categorySlug ?? '',
    start,
    end,
  });
  if (!result.category) throw await notFound(locale);
  const { total, posts, ...category } = result.category;
  const pagination = await listingSlice(locale, total, page);
  const t = await insightsT(locale);
  return {
    category,
    blogTitle: result.blogTitle,
    pagination,
    posts: posts.map(toPostCard),
    categories: result.categories,
    englishFallbacks: englishFallbacks(request),
    metaTitle: listingTitle(t, page, t('blog.categoryMetaTitle', { category: result.category.title })),
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
  const { t, localize, inEnglish } = useInsightsCopy();
  return (
    <div data-testid="blog-category">
      <PageIntro
        crumbs={[
          { label: t('breadcrumb.home'), to: localize('/') },
          { label: blogTitle ?? t('blog.allArticles'), to: localize('/blog') },
          { label: category.title },
        ]}
        eyebrow={t('blog.category')}
        title={category.title}
        intro={
          <>
            {category.description && <p {...inEnglish(category.description)}>{category.description}</p>}
            {pagination.total > 0 && (
              <p className="mt-2 text-base text-navy-700">{t('blog.postCount', { count: pagination.total })}</p>
            )}
          </>
        }
      >
        <div className="mt-6">
          <BackLink to={localize('/blog')}>{t('blog.backToAll')}</BackLink>
        </div>
      </PageIntro>

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
          <section aria-labelledby="all-categories" className="rounded-2xl border border-sand-200 bg-white p-6">
            <h2 id="all-categories" className="text-base font-bold text-navy-900">
              {t('blog.categories')}
            </h2>
            <div className="mt-4">
              <CategoryLinks categories={categories} currentSlug={category.slug} />
            </div>
          </section>
        </aside>
      </div>
    </div>
  );
}
