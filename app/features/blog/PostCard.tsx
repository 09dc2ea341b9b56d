import { ArrowForwardIcon, CalendarIcon, ClockIcon, UserIcon } from '~/components/icons';
import { SanityImage } from '~/components/SanityImage';
import { useFallbackLang } from '~/lib/content-lang';
import { useLocale, useLocalizePath, useT } from '~/lib/locale';
import type { PostCard as PostCardData } from './cards';
import { formatDate } from './format';
import { useInsightsCopy } from '~/features/insights/use-insights-copy';
import { CardLink } from '~/features/insights/CardLink';

/** Article cards: the post's date/reading-time line, the card, the grid of cards and the wide featured card. */

/** Date and reading time (and the author, where given) of a post. */
export function PostMeta({
  publishedAt,
  readMinutes,
  author,
  className,
  onDark,
}: {
  publishedAt: string;
  readMinutes: number;
  author?: string | null;
  className?: string;
  /** Light text for a dark background (the featured card). */
  onDark?: boolean;
}) {
  const { t } = useT('insights');
  const locale = useLocale();
  const inEnglish = useFallbackLang();
  const icon = `size-4 shrink-0 ${onDark ? '' : 'text-navy-500'}`;
  return (
    <ul
      className={`flex flex-wrap items-center gap-x-4 gap-y-1 text-sm ${onDark ? 'text-navy-100' : 'text-navy-700'} ${className ?? ''}`}
    >
      {author && (
        <li className="flex items-center gap-1.5">
          <UserIcon className={icon} />
          <span className="sr-only">{t('blog.writtenBy')} </span>
          <span {...inEnglish(author)}>{author}</span>
        </li>
      )}
      <li className="flex items-center gap-1.5">
        <CalendarIcon className={icon} />
        <span className="sr-only">{t('blog.publishedOn')} </span>
        <time dateTime={publishedAt}>{formatDate(publishedAt, locale)}</time>
      </li>
      <li className="flex items-center gap-1.5" data-testid="read-time">
        <ClockIcon className={icon} />
        {t('blog.readTime', { count: readMinutes })}
      </li>
    </ul>
  );
}

const CARD_SIZES = '(min-width: 1280px) 400px, (min-width: 1024px) 30vw, (min-width: 640px) 50vw, 100vw';

/** An article card: the whole card is one link (the title's), so it is one tab stop. */
export function PostCard({ post, headingLevel = 3 }: { post: PostCardData; headingLevel?: 2 | 3 }) {
  const localize = useLocalizePath();
  const inEnglish = useFallbackLang();
  const Heading = `h${headingLevel}` as const;
  return (
    <article
      data-testid="post-card"
      className="group relative flex flex-col overflow-hidden rounded-2xl border border-sand-200 bg-white shadow-sm transition hover:shadow-md focus-within:shadow-md"
    >
      {post.coverImage && (
        <SanityImage
          image={post.coverImage}
          width={640}
          aspect={16 / 9}
          sizes={CARD_SIZES}
          className="aspect-video h-auto w-full bg-sand-100 object-cover"
        />
      )}
      <div className="flex flex-1 flex-col p-5 md:p-6">
        {post.category && (
          <p
            className="text-xs font-semibold uppercase tracking-wider text-gold-700"
            {...inEnglish(post.category.title)}
          >
            {post.category.title}
          </p>
        )}
        <Heading className="mt-2 text-lg font-bold leading-snug text-navy-900 md:text-xl" {...inEnglish(post.title)}>
          <CardLink to={localize(`/blog/${post.slug}`)}>{post.title}</CardLink>
        </Heading>
        {post.excerpt && (
          <p className="mt-3 line-clamp-3 text-navy-700" {...inEnglish(post.excerpt)}>
            {post.excerpt}
          </p>
        )}
        <PostMeta publishedAt={post.publishedAt} readMinutes={post.readMinutes} className="mt-auto pt-5" />
      </div>
    </article>
  );
}

export function PostGrid({ posts, columns = 3 }: { posts: PostCardData[]; columns?: 2 | 3 }) {
  return (
    <ul className={`grid gap-6 sm:grid-cols-2 ${columns === 3 ? 'lg:grid-cols-3' : ''}`}>
      {posts.map((post) => (
        <li key={post._id} className="flex">
          <PostCard post={post} />
        </li>
      ))}
    </ul>
  );
}

/** The featured article: a wide card with the cover beside the text on larger screens. */
export function FeaturedPost({ post }: { post: PostCardData }) {
  const { t, localize, inEnglish } = useInsightsCopy();
  return (
    <article
      data-testid="featured-post"
      className="group relative grid overflow-hidden rounded-3xl bg-navy-900 text-white shadow-lg md:grid-cols-2"
    >
      {post.coverImage && (
        <SanityImage
          image={post.coverImage}
          width={720}
          aspect={16 / 10}
          priority
          sizes="(min-width: 1280px) 608px, (min-width: 768px) 50vw, 100vw"
          className="aspect-[16/10] h-full w-full object-cover"
        />
      )}
      <div className="flex flex-col justify-center p-6 md:p-10">
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <span className="rounded-full bg-gold-400 px-3 py-1 font-semibold text-navy-950">{t('blog.featured')}</span>
          {post.category && (
            <span className="font-semibold uppercase tracking-wider text-gold-300" {...inEnglish(post.category.title)}>
              {post.category.title}
            </span>
          )}
        </p>
        <h2 className="mt-4 text-2xl font-bold leading-snug md:text-3xl" {...inEnglish(post.title)}>
          <CardLink to={localize(`/blog/${post.slug}`)} onDark>
            {post.title}
          </CardLink>
        </h2>
        {post.excerpt && (
          <p className="mt-4 leading-relaxed text-navy-100" {...inEnglish(post.excerpt)}>
            {post.excerpt}
          </p>
        )}
        <PostMeta
          publishedAt={post.publishedAt}
          readMinutes={post.readMinutes}
          author={post.author}
          className="mt-6"
          onDark
        />
        <span aria-hidden="true" className="mt-6 inline-flex items-center gap-2 font-semibold text-gold-300">
          {t('blog.readArticle')}
          <ArrowForwardIcon className="size-4" />
        </span>
      </div>
    </article>
  );
}
