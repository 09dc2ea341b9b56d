import { CmsText } from '~/components/CmsText';
import { CalendarIcon, ClockIcon, UserIcon } from '~/components/icons';
import { useFallbackLang } from '~/lib/content-lang';
import { useLocale, useLocalizePath, useT } from '~/lib/locale';
import type { PostCard as PostCardData } from './cards';
import { formatDate } from './format';
import { useInsightsCopy } from '~/features/insights/use-insights-copy';
import { CardCue, CardTitle, InsightCard } from '~/features/insights/Card';

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

/** An article card: the whole card is one link (the title's), so it is one tab stop. */
export function PostCard({ post, headingLevel = 3 }: { post: PostCardData; headingLevel?: 2 | 3 }) {
  const localize = useLocalizePath();
  return (
    <InsightCard testId="post-card" cover={post.coverImage} layout="postCard">
      <div className="flex flex-1 flex-col p-5 md:p-6">
        <CmsText text={post.category?.title} className="text-xs font-semibold uppercase tracking-wider text-gold-700" />
        <CardTitle
          as={`h${headingLevel}`}
          to={localize(`/blog/${post.slug}`)}
          title={post.title}
          className="mt-2 text-lg font-bold leading-snug text-navy-900 md:text-xl"
        />
        <CmsText text={post.excerpt} className="mt-3 line-clamp-3 text-navy-700" />
        <PostMeta publishedAt={post.publishedAt} readMinutes={post.readMinutes} className="mt-auto pt-5" />
      </div>
    </InsightCard>
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
  const { t, localize } = useInsightsCopy();
  return (
    <InsightCard testId="featured-post" frame="featured" cover={post.coverImage} layout="featuredPost" priority>
      <div className="flex flex-col justify-center p-6 md:p-10">
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <span className="rounded-full bg-gold-400 px-3 py-1 font-semibold text-navy-950">{t('blog.featured')}</span>
          <CmsText
            as="span"
            text={post.category?.title}
            className="font-semibold uppercase tracking-wider text-gold-300"
          />
        </p>
        <CardTitle
          as="h2"
          to={localize(`/blog/${post.slug}`)}
          title={post.title}
          className="mt-4 text-2xl font-bold leading-snug md:text-3xl"
          onDark
        />
        <CmsText text={post.excerpt} className="mt-4 leading-relaxed text-navy-100" />
        <PostMeta
          publishedAt={post.publishedAt}
          readMinutes={post.readMinutes}
          author={post.author}
          className="mt-6"
          onDark
        />
        <CardCue label={t('blog.readArticle')} className="mt-6" onDark />
      </div>
    </InsightCard>
  );
}
