import { CmsText } from '~/components/CmsText';
import { PageBand } from '~/components/marketing/PageBand';
import { Breadcrumbs, PageIntro, type Crumb } from '~/components/PageIntro';
import { useInsightsCopy } from './use-insights-copy';

/** The tops of the insights pages (the blog's and the case studies'), with their breadcrumbs from Home, and their ends. */

/** Breadcrumbs from Home: `crumbsFrom({ label: blogTitle, to: '/blog' }, { label: post.title })`, paths localized. */
export function useCrumbsFromHome() {
  const { t, localize } = useInsightsCopy();
  return (...trail: Crumb[]): Crumb[] =>
    [{ label: t('breadcrumb.home'), to: '/' }, ...trail].map((crumb) =>
      crumb.to === undefined ? crumb : { ...crumb, to: localize(crumb.to) },
    );
}

/** The section an article page belongs to: its listing's path, and the width of the header's text. */
const SECTIONS = {
  /** Articles read narrower than case studies, whose header holds a grid of facts. */
  blog: { path: '/blog', width: 'max-w-4xl' },
  caseStudies: { path: '/case-studies', width: 'max-w-5xl' },
};

/**
 * The sand band that opens an article or a case study: breadcrumbs (Home › the section's listing
 * › `trail`), then the page's own heading block.
 */
export function ArticleHeader({
  section,
  sectionTitle,
  trail = [],
  children,
}: {
  section: keyof typeof SECTIONS;
  /** The listing's title, the second crumb. */
  sectionTitle: string;
  trail?: Crumb[];
  children: React.ReactNode;
}) {
  const crumbsFrom = useCrumbsFromHome();
  const { path, width } = SECTIONS[section];
  return (
    <header className="border-b border-sand-200 bg-sand-50">
      <div className={`mx-auto w-full ${width} px-4 pt-8 pb-10 md:px-8 md:pt-12 md:pb-14`}>
        <Breadcrumbs items={crumbsFrom({ label: sectionTitle, to: path }, ...trail)} />
        {children}
      </div>
    </header>
  );
}

/** The top of a section's index (all articles, all case studies): Home › title, the title and the CMS intro. */
export function IndexIntro({ title, intro }: { title: string; intro: string | null }) {
  const crumbsFrom = useCrumbsFromHome();
  return <PageIntro crumbs={crumbsFrom({ label: title })} title={title} intro={intro && <CmsText text={intro} />} />;
}

/** The band that ends an article or a case study with more to read: its title, then a grid of cards. */
export function ReadNext({
  title,
  className,
  testId,
  children,
}: {
  title: string;
  /** A background besides the band's top border. */
  className?: string;
  testId?: string;
  children: React.ReactNode;
}) {
  return (
    <PageBand
      title={title}
      className={['border-t border-sand-200 py-12 md:py-16', className].filter(Boolean).join(' ')}
      titleClassName="mb-6 text-2xl font-bold text-navy-900"
      testId={testId}
    >
      {children}
    </PageBand>
  );
}
