/**
 * What the Studio's side menu holds, in plain data (rendered by structure.ts, checked by
 * schemas/studio-config.test.ts so no document type is forgotten).
 */
export interface DeskItem {
  type: string;
  title: string;
  /** Opens the one document with id === type directly. */
  singleton?: boolean;
}

export interface DeskGroup {
  id: string;
  title: string;
  items: DeskItem[];
}

export const DESK_GROUPS: DeskGroup[] = [
  {
    id: 'site',
    title: 'Site & pages',
    items: [
      { type: 'siteSettings', title: 'Site settings', singleton: true },
      { type: 'homePage', title: 'Home page', singleton: true },
      { type: 'aboutPage', title: 'About page', singleton: true },
      { type: 'landingPage', title: 'Landing pages' },
      { type: 'legalPage', title: 'Legal pages' },
      { type: 'office', title: 'Offices' },
    ],
  },
  {
    id: 'services',
    title: 'Services & packages',
    items: [
      { type: 'service', title: 'Services' },
      { type: 'companySetupOption', title: 'Company setup options' },
      { type: 'packagePlan', title: 'Packages' },
    ],
  },
  {
    id: 'insights',
    title: 'Insights',
    items: [
      { type: 'blogPost', title: 'Blog posts' },
      { type: 'blogCategory', title: 'Categories' },
      { type: 'blogTag', title: 'Tags' },
    ],
  },
  { id: 'caseStudies', title: 'Case studies', items: [{ type: 'caseStudy', title: 'Case studies' }] },
  {
    id: 'faq',
    title: 'FAQ',
    items: [
      { type: 'faqCategory', title: 'Categories' },
      { type: 'faqItem', title: 'Questions' },
    ],
  },
  {
    id: 'homeBlocks',
    title: 'Home blocks',
    items: [
      { type: 'testimonial', title: 'Testimonials' },
      { type: 'statistic', title: 'Statistics' },
      { type: 'indicator', title: 'Indicators' },
    ],
  },
];

/** Default list order for each type. */
export const LIST_ORDERING: Record<string, { field: string; direction: 'asc' | 'desc' }[]> = {
  blogPost: [{ field: 'publishedAt', direction: 'desc' }],
  legalPage: [{ field: 'slug.current', direction: 'asc' }],
  landingPage: [{ field: 'key', direction: 'asc' }],
  blogCategory: [{ field: 'title.en', direction: 'asc' }],
  blogTag: [{ field: 'title.en', direction: 'asc' }],
};
