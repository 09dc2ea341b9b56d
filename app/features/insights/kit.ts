// What the insights pages (blog, its category and tag listings, posts, case studies) share, for
// them to import from here: one chunk, which only those pages download (app/kit.ts says why).
export { BackLink, Breadcrumbs, CoverImage, type Crumb, PageIntro } from '../../components/PageIntro';
export { EmptyState, SidebarSection, TermIntro, TermPosts } from '../blog/ListingParts';
export { errorMeta, termListingMeta, withPagination } from '../blog/meta';
export { FeaturedPost, PostCard, PostGrid, PostMeta } from '../blog/PostCard';
export { CategoryLinks, TagChips, TagSection, TermLink } from '../blog/TermLinks';
export { CaseStudyCard, CaseStudyCta } from '../case-studies/components';
export { ArticleHeader, IndexIntro, ReadNext, useCrumbsFromHome } from './PageHeaders';
export { useInsightsCopy } from './use-insights-copy';
