import { Link } from '@remix-run/react';
import type { ComponentProps } from 'react';
import { container } from '~/components/marketing/ui';
import { SanityImage } from '~/components/SanityImage';
import { ArrowBackIcon, ChevronForwardIcon } from './page-icons';
import { useFallbackLang } from '~/lib/content-lang';
import { useT } from '~/lib/locale';

/** The top of a listing or detail page of the blog and the case studies: breadcrumbs, title, intro, back link. */

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
export function PageIntro({
  crumbs,
  eyebrow,
  title,
  intro,
  children,
}: {
  crumbs?: Crumb[];
  eyebrow?: React.ReactNode;
  title: React.ReactNode;
  intro?: React.ReactNode;
  children?: React.ReactNode;
}) {
  const inEnglish = useFallbackLang();
  return (
    <header className="border-b border-sand-200 bg-sand-50">
      <div className={`${container} py-10 md:py-16`}>
        {crumbs && <Breadcrumbs items={crumbs} />}
        {eyebrow && <p className="mt-6 text-sm font-semibold uppercase tracking-wider text-gold-700">{eyebrow}</p>}
        <h1
          className={`${eyebrow ? 'mt-2' : 'mt-6'} max-w-3xl text-3xl font-bold leading-tight text-navy-900 md:text-5xl md:leading-tight`}
          {...(typeof title === 'string' ? inEnglish(title) : undefined)}
        >
          {title}
        </h1>
        {intro && <div className="mt-4 max-w-2xl text-lg leading-relaxed text-navy-700">{intro}</div>}
        {children}
      </div>
    </header>
  );
}

/** A link back to the listing a page belongs to. */
export function BackLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <Link
      to={to}
      prefetch="intent"
      data-testid="back-link"
      className="inline-flex min-h-11 items-center gap-2 rounded font-semibold text-navy-800 hover:text-navy-900 hover:underline"
    >
      <ArrowBackIcon className="size-4" />
      {children}
    </Link>
  );
}

/** The wide cover image under a detail page's header (an article, a case study). */
export function CoverImage({ image }: { image: ComponentProps<typeof SanityImage>['image'] }) {
  return (
    <div className="mx-auto w-full max-w-5xl px-4 pt-8 md:px-8 md:pt-12">
      <SanityImage
        image={image}
        width={1024}
        priority
        sizes="(min-width: 1088px) 1024px, 100vw"
        className="h-auto w-full rounded-2xl bg-sand-100 md:rounded-3xl"
      />
    </div>
  );
}
