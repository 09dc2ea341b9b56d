import { Link } from '@remix-run/react';
import { ArrowBackIcon, ArrowForwardIcon, CalendarIcon, ChevronForwardIcon, ClockIcon, UserIcon } from '~/components/icons';
import { SanityImage } from '~/components/SanityImage';
import { useFallbackLang } from '~/lib/content-lang';
import { useLocale, useLocalizePath, useT } from '~/lib/locale';
import { useNonce } from '~/lib/nonce';
import type { CountedTerm } from '~/sanity/queries/insights';
import type { PostCard as PostCardData } from './cards';
import { formatDate } from './format';
import { serializeJsonLd } from './json-ld';
import { pageHref, pageWindow } from './pagination';

export const CONTAINER = 'mx-auto w-full max-w-7xl px-4 md:px-8';

/** Structured data rendered into the page (built on the server, absolute URLs). */
export function JsonLd({ data }: { data: unknown }) {
  return <script type="application/ld+json" nonce={useNonce()} dangerouslySetInnerHTML={{ __html: serializeJsonLd(data) }} />;
}

/** A crumb; a string label is CMS or interface text, an element is rendered as given (it marks its own CMS text). */
export type Crumb = { label: React.ReactNode; to?: string };

/** A visible breadcrumb trail; the last item is the current page. */
export function Breadcrumbs({ items }: { items: Crumb[] }) {
  const { t } = useT('insights');
  const inEnglish = useFallbackLang();
  return (
    <nav aria-label={t('breadcrumb.label')} className="text-sm">
      <ol className="flex flex-wrap items-center gap-x-1.5 gap-y-1 text-navy-700">
        {items.map((item, i) => {
          const lang = typeof item.label === 'string' ? inEnglish(item.label) : undefined;
          return (
            <li key={i} className="flex items-center gap-1.5">
              {i > 0 && <ChevronForwardIcon className="size-3.5 shrink-0 text-navy-500" />}
              {item.to ? (
                <Link to={item.to} prefetch="intent" className="rounded hover:text-navy-900 hover:underline" {...lang}>
                  {item.label}
                </Link>
              ) : (
                <span aria-current="page" className="font-medium text-navy-900" {...lang}>
                  {item.label}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** The sand-coloured band at the top of a listing page. A string title is CMS text (marked when it stands in for a missing translation). */
export function PageIntro({ crumbs, eyebrow, title, intro, children }: { crumbs?: Crumb[]; eyebrow?: React.ReactNode; title: React.ReactNode; intro?: React.ReactNode; children?: React.ReactNode }) {
  const inEnglish = useFallbackLang();
  return (
    <header className="border-b border-sand-200 bg-sand-50">
      <div className={`${CONTAINER} py-10 md:py-16`}>
        {crumbs && <Breadcrumbs items={crumbs} />}
        {eyebrow && <p className="mt-6 text-sm font-semibold uppercase tracking-wider text-gold-700">{eyebrow}</p>}
        <h1 className={`${eyebrow ? 'mt-2' : 'mt-6'} max-w-3xl text-3xl font-bold leading-tight text-navy-900 md:text-5xl md:leading-tight`} {...(typeof title === 'string' ? inEnglish(title) : undefined)}>
          {title}
        </h1>
        {intro && <div className="mt-4 max-w-2xl text-lg leading-relaxed text-navy-700">{intro}</div>}
        {children}
      </div>
    </header>
  );
}

/** Date and reading time (and the author, where given) of a post. */
export function PostMeta({ publishedAt, readMinutes, author, className }: { publishedAt: string; readMinutes: number; author?: string | null; className?: string }) {
  const { t } = useT('insights');
  const locale = useLocale();
  const inEnglish = useFallbackLang();
  return (
    <ul className={`flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-navy-700 ${className ?? ''}`}>
      {author && (
        <li className="flex items-center gap-1.5">
          <UserIcon className="size-4 shrink-0 text-navy-500" />
          <span className="sr-only">{t('blog.writtenBy')} </span>
          <span {...inEnglish(author)}>{author}</span>
        </li>
      )}
      <li className="flex items-center gap-1.5">
        <CalendarIcon className="size-4 shrink-0 text-navy-500" />
        <span className="sr-only">{t('blog.publishedOn')} </span>
        <time dateTime={publishedAt}>{formatDate(publishedAt, locale)}</time>
      </li>
      <li className="flex items-center gap-1.5" data-testid="read-time">
        <ClockIcon className="size-4 shrink-0 text-navy-500" />
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
    <article data-testid="post-card" className="group relative flex flex-col overflow-hidden rounded-2xl border border-sand-200 bg-white shadow-sm transition hover:shadow-md focus-within:shadow-md">
      {post.coverImage && (
        <SanityImage image={post.coverImage} width={640} aspect={16 / 9} sizes={CARD_SIZES} className="aspect-video h-auto w-full bg-sand-100 object-cover" />
      )}
      <div className="flex flex-1 flex-col p-5 md:p-6">
        {post.category && (
          <p className="text-xs font-semibold uppercase tracking-wider text-gold-700" {...inEnglish(post.category.title)}>
            {post.category.title}
          </p>
        )}
        <Heading className="mt-2 text-lg font-bold leading-snug text-navy-900 md:text-xl" {...inEnglish(post.title)}>
          <Link
            to={localize(`/blog/${post.slug}`)}
            prefetch="intent"
            className="rounded after:absolute after:inset-0 after:content-[''] group-hover:underline decoration-gold-500 underline-offset-4"
          >
            {post.title}
          </Link>
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
  const { t } = useT('insights');
  const localize = useLocalizePath();
  const inEnglish = useFallbackLang();
  return (
    <article data-testid="featured-post" className="group relative grid overflow-hidden rounded-3xl bg-navy-900 text-white shadow-lg md:grid-cols-2">
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
          <Link to={localize(`/blog/${post.slug}`)} prefetch="intent" className="rounded after:absolute after:inset-0 after:content-[''] group-hover:underline decoration-gold-400 underline-offset-4">
            {post.title}
          </Link>
        </h2>
        {post.excerpt && (
          <p className="mt-4 leading-relaxed text-navy-100" {...inEnglish(post.excerpt)}>
            {post.excerpt}
          </p>
        )}
        <ul className="mt-6 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-navy-100">
          <FeaturedMeta post={post} />
        </ul>
        <span aria-hidden="true" className="mt-6 inline-flex items-center gap-2 font-semibold text-gold-300">
          {t('blog.readArticle')}
          <ArrowForwardIcon className="size-4" />
        </span>
      </div>
    </article>
  );
}

function FeaturedMeta({ post }: { post: PostCardData }) {
  const { t } = useT('insights');
  const locale = useLocale();
  const inEnglish = useFallbackLang();
  return (
    <>
      {post.author && (
        <li className="flex items-center gap-1.5">
          <UserIcon className="size-4 shrink-0" />
          <span className="sr-only">{t('blog.writtenBy')} </span>
          <span {...inEnglish(post.author)}>{post.author}</span>
        </li>
      )}
      <li className="flex items-center gap-1.5">
        <CalendarIcon className="size-4 shrink-0" />
        <span className="sr-only">{t('blog.publishedOn')} </span>
        <time dateTime={post.publishedAt}>{formatDate(post.publishedAt, locale)}</time>
      </li>
      <li className="flex items-center gap-1.5" data-testid="read-time">
        <ClockIcon className="size-4 shrink-0" />
        {t('blog.readTime', { count: post.readMinutes })}
      </li>
    </>
  );
}

/** Tag chips linking to their tag pages. */
export function TagChips({ tags, showCounts, currentSlug }: { tags: (Pick<CountedTerm, '_id' | 'slug' | 'title'> & { count?: number })[]; showCounts?: boolean; currentSlug?: string }) {
  const { t } = useT('insights');
  const localize = useLocalizePath();
  const inEnglish = useFallbackLang();
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
              aria-label={showCounts && tag.count !== undefined ? t('blog.tagCount', { tag: tag.title, count: tag.count }) : undefined}
              className={`inline-flex min-h-9 items-center gap-1.5 rounded-full border px-3.5 text-sm font-medium transition ${
                current ? 'border-navy-900 bg-navy-900 text-white' : 'border-sand-200 bg-white text-navy-800 hover:border-gold-500 hover:bg-sand-50'
              }`}
            >
              <span aria-hidden="true" className={current ? 'text-gold-300' : 'text-gold-700'}>#</span>
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
  const { t } = useT('insights');
  const localize = useLocalizePath();
  const inEnglish = useFallbackLang();
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
              <span className="shrink-0 rounded-full bg-sand-100 px-2.5 py-0.5 text-xs font-medium text-navy-800">{t('blog.postCount', { count: c.count })}</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

export function SidebarSection({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="rounded-2xl border border-sand-200 bg-white p-6">
      <h2 className="text-base font-bold text-navy-900">{title}</h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** Numbered pages with previous/next links; page 1 is the bare path. */
export function Pagination({ path, page, totalPages }: { path: string; page: number; totalPages: number }) {
  const { t } = useT('insights');
  if (totalPages <= 1) return null;
  const item = 'inline-flex min-h-11 min-w-11 items-center justify-center rounded-full px-3 font-semibold';
  return (
    <nav aria-label={t('pagination.label')} data-testid="pagination" className="mt-12 flex flex-col items-center gap-3">
      <ul className="flex flex-wrap items-center justify-center gap-2">
        <li>
          {page > 1 ? (
            <Link to={pageHref(path, page - 1)} rel="prev" className={`${item} gap-2 border border-sand-200 text-navy-900 hover:bg-sand-50`}>
              <ArrowBackIcon className="size-4" />
              <span>{t('pagination.previous')}</span>
            </Link>
          ) : null}
        </li>
        {pageWindow(page, totalPages).map((p, i) =>
          p === null ? (
            <li key={`gap-${i}`} aria-hidden="true" className="px-1 text-navy-500">
              …
            </li>
          ) : (
            <li key={p}>
              {p === page ? (
                <span aria-current="page" className={`${item} bg-navy-900 text-white`}>
                  <span className="sr-only">{t('pagination.page', { page: p })}</span>
                  <span aria-hidden="true">{p}</span>
                </span>
              ) : (
                <Link to={pageHref(path, p)} aria-label={t('pagination.page', { page: p })} className={`${item} border border-sand-200 text-navy-900 hover:bg-sand-50`}>
                  {p}
                </Link>
              )}
            </li>
          ),
        )}
        <li>
          {page < totalPages ? (
            <Link to={pageHref(path, page + 1)} rel="next" className={`${item} gap-2 border border-sand-200 text-navy-900 hover:bg-sand-50`}>
              <span>{t('pagination.next')}</span>
              <ArrowForwardIcon className="size-4" />
            </Link>
          ) : null}
        </li>
      </ul>
      <p className="text-sm text-navy-700">{t('pagination.status', { page, total: totalPages })}</p>
    </nav>
  );
}

export function BackLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <Link to={to} prefetch="intent" data-testid="back-link" className="inline-flex min-h-11 items-center gap-2 rounded font-semibold text-navy-800 hover:text-navy-900 hover:underline">
      <ArrowBackIcon className="size-4" />
      {children}
    </Link>
  );
}

/** The empty state of a listing (a tag or category without posts). */
export function EmptyState({ testId, title, text, children }: { testId: string; title: string; text: string; children?: React.ReactNode }) {
  return (
    <div data-testid={testId} className="rounded-3xl border border-dashed border-sand-200 bg-sand-50 px-6 py-12 text-center">
      <h2 className="text-xl font-bold text-navy-900">{title}</h2>
      <p className="mx-auto mt-2 max-w-md text-navy-700">{text}</p>
      {children && <div className="mt-6">{children}</div>}
    </div>
  );
}
