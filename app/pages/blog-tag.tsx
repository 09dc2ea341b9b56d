import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { RouteErrorBoundary, TaggedText } from '~/kit';
import { container } from '~/content-kit';
import { errorMeta, TagSection, TermIntro, termListingMeta, TermPosts, useInsightsCopy } from '~/features/insights/kit';
import { englishFallbacks, insightsT, listingRequest, listingTitle, loadQuery, termListing } from '~/server-api';
import { BLOG_TAG_QUERY } from '~/sanity/queries/insights';

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { locale, page, query } = await listingRequest(request);
  const result = await loadQuery(request, BLOG_TAG_QUERY, { ...query, slug: params.tagSlug ?? '', tagLimit: 12 });
  // An unknown tag is a 404; a known tag without posts shows the empty state.
  const { term: tag, pagination, posts } = await termListing(locale, page, result.tag);
  const t = await insightsT(locale);
  return {
    tag,
    blogTitle: result.blogTitle,
    pagination,
    posts,
    tags: result.popularTags,
    englishFallbacks: englishFallbacks(request),
    metaTitle: listingTitle(t, page, t('blog.tagMetaTitle', { tag: tag.title })),
    metaDescription: t('blog.tagMetaDescription', { tag: tag.title }),
  };
}

export const meta: MetaFunction<typeof loader> = (args) => {
  if (!args.data) return errorMeta(args);
  const { metaTitle, metaDescription, pagination } = args.data;
  return termListingMeta(args, { title: metaTitle, description: metaDescription }, pagination);
};

export const ErrorBoundary = RouteErrorBoundary;

export default function BlogTag() {
  const { tag, blogTitle, pagination, posts, tags } = useLoaderData<typeof loader>();
  const { t, inEnglish } = useInsightsCopy();
  const otherTags = tags.filter((x) => x.slug !== tag.slug);
  // "Tag: {tag}", with the tag's title marked when it stands in for a missing translation.
  const tagTitle = (
    <TaggedText text={t('blog.tagTitle', { tag: tag.title })} tags={{ bdi: <bdi {...inEnglish(tag.title)} /> }} />
  );
  return (
    <div data-testid="blog-tag">
      <TermIntro
        blogTitle={blogTitle}
        title={tagTitle}
        intro={
          <p data-testid="tag-showing" className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span>{t('blog.tagShowing')}</span>
            <span className="inline-flex items-center rounded-full bg-navy-900 px-3 py-0.5 text-base font-semibold text-white">
              <span aria-hidden="true" className="me-1 text-gold-300">
                #
              </span>
              <bdi {...inEnglish(tag.title)}>{tag.title}</bdi>
            </span>
            {pagination.total > 0 && (
              <span className="text-base text-navy-700">({t('blog.postCount', { count: pagination.total })})</span>
            )}
          </p>
        }
      />

      <div className={`${container} py-10 md:py-14`}>
        <TermPosts term="tag" path={`/blog/tag/${tag.slug}`} posts={posts} pagination={pagination} />

        {otherTags.length > 0 && (
          <TagSection place="otherTopics" title={t('blog.browseTopics')} tags={otherTags} showCounts />
        )}
      </div>
    </div>
  );
}
