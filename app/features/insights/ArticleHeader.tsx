import { Breadcrumbs, type Crumb } from '~/components/PageIntro';

/** The sand band that opens an article or a case study: breadcrumbs, then the page's own heading block. */
export function ArticleHeader({
  width,
  crumbs,
  children,
}: {
  /** The band's text width: articles read narrower than case studies with their facts grid. */
  width: 'max-w-4xl' | 'max-w-5xl';
  crumbs: Crumb[];
  children: React.ReactNode;
}) {
  return (
    <header className="border-b border-sand-200 bg-sand-50">
      <div className={`mx-auto w-full ${width} px-4 pt-8 pb-10 md:px-8 md:pt-12 md:pb-14`}>
        <Breadcrumbs items={crumbs} />
        {children}
      </div>
    </header>
  );
}
