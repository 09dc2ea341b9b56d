import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { RichText } from '~/components/RichText';
import { JsonLd, localizePath, pageMeta, requestLocale, RouteErrorBoundary } from '~/kit';
import { FolderIcon, PageHeading } from '~/content-kit';
import { imageUrlBuilder } from '~/lib/image';
import { toPostCard } from '~/features/blog/cards';
import {
  ArticleHeader,
  BackLink,
  CoverImage,
  errorMeta,
  PostGrid,
  PostMeta,
  ReadNext,
  TagSection,
  TermLink,
  useInsightsCopy,
} from '~/features/insights/kit';
import { englishFallbacks, imageConfig, insightsT, loadQuery, notFound, siteUrl, renderRichText } from '~/server-api';
import { absoluteUrl, article, breadcrumbList } from '~/lib/structured-data';
import { readTimeMinutes } from '~/features/blog/read-time';
import { BLOG_POST_QUERY } from '~/sanity/queries/insights';

/** How many related articles end a post. */
const RELATED_POSTS = 3;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const locale = requestLocale(request);
  const result = await loadQuery(request, BLOG_POST_QUERY, {
    lang: locale,
    slug: params.slug ?? '',
    relatedLimit: RELATED_POSTS,
  });
  if (!result.post) throw await notFound(locale);
  const { related: relatedRaw, ...post } = result.post;
  const related = relatedRaw.map(toPostCard);

  // Structured data and the share image, with absolute URLs.
  const origin = siteUrl();
  const url = (path: string) => absoluteUrl(origin, localizePath(path, locale));
  const image = imageUrlBuilder(imageConfig());
  const shareImage = post.coverImage ? absoluteUrl(origin, image(post.coverImage, 1200, 630)) : null;
  const brandName = result.site?.brandName ?? '';
  const t = await insightsT(locale);
  const blogTitle = result.blogTitle ?? t('blog.allArticles');
  const crumbs = [
    { name: t('breadcrumb.home'), url: url('/') },
    { name: blogTitle, url: url('/blog') },
    ...(post.category ? [{ name: post.category.title, url: url(`/blog/category/${post.category.slug}`) }] : []),
    { name: post.title, url: url(`/blog/${post.slug}`) },
  ];
  const jsonLd = [
    article({
      url: url(`/blog/${post.slug}`),
      headline: post.title,
      description: post.seo.description ?? post.excerpt,
      image: shareImage,
      datePublished: post.publishedAt,
      dateModified: post._updatedAt ?? null,
      author: post.author ?? brandName,
      publisher: {
        name: brandName,
        url: url('/'),
        logo: result.site?.logo ? absoluteUrl(origin, image(result.site.logo, 600)) : null,
      },
      language: locale,
      section: post.category?.title,
      keywords: post.tags.map((tag) => tag.title),
    }),
    breadcrumbList(crumbs),
  ];

  return {
    post: { ...post, body: renderRichText(post.body, locale) },
    readMinutes: readTimeMinutes(post.body),
    related,
    blogTitle,
    shareImage,
    jsonLd,
    englishFallbacks: englishFallbacks(request),
  };
}

export const meta: MetaFunction<typeof loader> = (args) => {
  if (!args.data) return errorMeta(args);
  const { post, shareImage } = args.data;
  return [
    ...pageMeta(args, {
      title: post.seo.title || post.title,
      description: post.seo.description ?? post.excerpt,
      image: shareImage,
      type: 'article',
    }),
    { property: 'article:published_time', content: post.publishedAt },
    ...(post.author ? [{ property: 'article:author', content: post.author }] : []),
    ...(post.category ? [{ property: 'article:section', content: post.category.title }] : []),
    ...post.tags.map((tag) => ({ property: 'article:tag', content: tag.title })),
  ];
};

export const ErrorBoundary = RouteErrorBoundary;

export default function BlogPost() {
  const { post, readMinutes, related, blogTitle, jsonLd } = useLoaderData<typeof loader>();
  const { t, localize, inEnglish } = useInsightsCopy();
  return (
    <>
      <article data-testid="blog-post">
        <ArticleHeader
          section="blog"
          sectionTitle={blogTitle}
          trail={post.category ? [{ label: post.category.title, to: `/blog/category/${post.category.slug}` }] : []}
        >
          {post.category && (
            <p className="mt-8">
              <span className="sr-only">{t('blog.category')}: </span>
              <TermLink
                term="category"
                slug={post.category.slug}
                data-testid="post-category"
                className="inline-flex items-center gap-1.5 rounded text-sm font-semibold uppercase tracking-wider text-gold-700 hover:underline"
              >
                <FolderIcon className="size-4" />
                <span {...inEnglish(post.category.title)}>{post.category.title}</span>
              </TermLink>
            </p>
          )}
          <PageHeading title={post.title} intro={post.excerpt} variant="article" />
          <PostMeta
            publishedAt={post.publishedAt}
            readMinutes={readMinutes}
            author={post.author}
            className="mt-6 text-base"
          />
        </ArticleHeader>

        {post.coverImage && <CoverImage image={post.coverImage} />}

        <div className="mx-auto w-full max-w-[70ch] px-4 py-8 md:py-12">
          <div data-testid="post-body">
            <RichText body={post.body} className="text-[1.0625rem] text-navy-800" />
          </div>

          {post.tags.length > 0 && <TagSection place="post" title={t('blog.tags')} tags={post.tags} />}

          <div className="mt-10">
            <BackLink to={localize('/blog')}>{t('blog.backToAll')}</BackLink>
          </div>
        </div>
      </article>

      {related.length > 0 && (
        <ReadNext title={t('blog.related')} className="bg-sand-50" testId="related-posts">
          <PostGrid posts={related} />
        </ReadNext>
      )}

      {jsonLd.map((data, i) => (
        <JsonLd key={i} data={data} />
      ))}
    </>
  );
}
