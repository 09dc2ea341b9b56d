/**
 * Fixed lists shared by the schemas, the Studio and the app. Every value here is part of
 * the content-model contract (docs/content-model.md): change it there and in the dataset too.
 */

/** Languages of the site. English is the default and the fallback. */
export const LANGUAGES = [
  { id: 'en', title: 'English' },
  { id: 'ar', title: 'العربية' },
] as const;

export type LanguageId = (typeof LANGUAGES)[number]['id'];

/** Object types holding one value per language ({en, ar}). */
export const LOCALE_TYPE_NAMES = ['localeString', 'localeText', 'localeBlockContent'] as const;

export type LocaleTypeName = (typeof LOCALE_TYPE_NAMES)[number];

export const SINGLETON_TYPES = ['siteSettings', 'homePage', 'aboutPage'] as const;

/** A titled option for `options.list`. */
export interface ListOption<T extends string = string> {
  title: string;
  value: T;
}

const list = <T extends string>(entries: ReadonlyArray<readonly [T, string]>): ListOption<T>[] =>
  entries.map(([value, title]) => ({ value, title }));

export const OFFICE_KEYS = list([
  ['dubai', 'Dubai'],
  ['singapore', 'Singapore'],
] as const);

export const LANDING_PAGE_KEYS = list([
  ['services', 'Services (/services)'],
  ['pricing', 'Pricing (/pricing)'],
  ['faq', 'FAQ (/faq)'],
  ['blog', 'Blog (/blog)'],
  ['caseStudies', 'Case studies (/case-studies)'],
  ['bookingConfirmation', 'Booking confirmation (/booking-confirmation)'],
] as const);

export const LEGAL_PAGE_SLUGS = list([
  ['privacy-policy', 'Privacy policy (/privacy-policy)'],
  ['terms-of-service', 'Terms of service (/terms-of-service)'],
  ['cookies-policy', 'Cookies policy (/cookies-policy)'],
] as const);

export const SERVICE_KEYS = list([
  ['marketEntry', 'Market entry'],
  ['businessSetup', 'Business setup'],
  ['launchStrategy', 'Launch strategy'],
  ['operations', 'Operations'],
  ['recruitment', 'Recruitment'],
  ['performance', 'Performance management'],
] as const);

/** The /services#anchor of each service, by service key. */
export const SERVICE_ANCHOR_BY_KEY = {
  marketEntry: 'market-entry',
  businessSetup: 'business-setup',
  launchStrategy: 'launch-strategy',
  operations: 'operations',
  recruitment: 'recruitment',
  performance: 'performance',
} as const satisfies Record<(typeof SERVICE_KEYS)[number]['value'], string>;

export const SERVICE_ANCHORS = list(
  Object.values(SERVICE_ANCHOR_BY_KEY).map((anchor) => [anchor, `#${anchor}`] as const),
);

export const SERVICE_ICONS = list([
  ['compass', 'Compass'],
  ['building', 'Building'],
  ['rocket', 'Rocket'],
  ['cog', 'Cog'],
  ['users', 'People'],
  ['chart', 'Chart'],
] as const);

export const SERVICE_COLORS = list([
  ['gold', 'Gold'],
  ['teal', 'Teal'],
  ['navy', 'Navy'],
  ['emerald', 'Emerald'],
  ['rose', 'Rose'],
  ['indigo', 'Indigo'],
] as const);

export const COMPANY_SETUP_KEYS = list([
  ['freeZone', 'Free zone establishment'],
  ['mainland', 'Mainland company'],
  ['branchOffice', 'Branch office'],
  ['llc', 'LLC setup'],
] as const);

export const PACKAGE_KEYS = list([
  ['starter', 'Starter'],
  ['business', 'Business'],
  ['enterprise', 'Enterprise'],
] as const);

export const CASE_STUDY_KEYS = list([
  ['techStartup', 'Tech startup'],
  ['manufacturing', 'Manufacturing'],
  ['retailExpansion', 'Retail expansion'],
  ['fintechLaunch', 'Fintech launch'],
] as const);

export const TESTIMONIAL_KEYS = list([
  ['techStartup', 'Tech startup'],
  ['manufacturing', 'Manufacturing'],
  ['retail', 'Retail'],
] as const);

export const FAQ_CATEGORY_KEYS = list([
  ['taxesFinance', 'Taxes & finance'],
  ['operations', 'Operations'],
  ['services', 'Services'],
  ['pricing', 'Pricing'],
] as const);

/** Trend of an indicator row. The site colours rising/improving/expanding/accelerating green, stable blue, the rest amber. */
export const TRENDS = list([
  ['rising', 'Rising'],
  ['improving', 'Improving'],
  ['expanding', 'Expanding'],
  ['accelerating', 'Accelerating'],
  ['stable', 'Stable'],
  ['moderate', 'Moderate'],
  ['declining', 'Declining'],
] as const);

/** The blog categories and tags the site launches with (editors may add more). */
export const BLOG_CATEGORY_SLUGS = [
  'business',
  'strategy',
  'finance',
  'legal',
  'technology',
  'market_insights',
] as const;
export const BLOG_TAG_SLUGS = [
  'uae',
  'dubai',
  'abu_dhabi',
  'business_setup',
  'free_zone',
  'taxation',
  'investment',
  'entrepreneurship',
  'technology',
  'finance',
  'regulations',
] as const;
