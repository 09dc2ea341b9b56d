/**
 * Which public page shows which untranslated field: every localized field (localeString,
 * localeText, localeBlockContent) whose English has content and whose Arabic is empty,
 * grouped by the page the document appears on. The field walk is the Studio's own
 * (schemas/translation-state.ts), so the site and the Studio agree on what is missing.
 */
import { landingPagePaths } from '~/route-table.js';
import { findMissingArabic } from '../../../schemas/translation-state';

export type ContentDocument = { _id: string; _type: string; [field: string]: unknown };
export type MissingField = { documentId: string; documentType: string; field: string };

const slugOf = (doc: ContentDocument): string | null => {
  const slug = doc.slug as unknown;
  if (typeof slug === 'string') return slug;
  if (slug && typeof slug === 'object' && typeof (slug as { current?: unknown }).current === 'string')
    return (slug as { current: string }).current;
  return null;
};

/**
 * The page (path without language prefix) a document's text is shown on, or null for
 * site-wide content (settings, offices: header and footer on every page).
 */
export function pagePathOf(doc: ContentDocument): string | null {
  const slug = slugOf(doc);
  switch (doc._type) {
    case 'homePage':
    case 'testimonial':
    case 'statistic':
    case 'indicator':
      return '/';
    case 'aboutPage':
      return '/about';
    case 'landingPage':
      // The page a landing page heads: `landingKey` in app/route-table.js.
      return landingPagePaths[String(doc.key)] ?? null;
    case 'service':
    case 'companySetupOption':
      return '/services';
    case 'packagePlan':
      return '/pricing';
    case 'faqCategory':
    case 'faqItem':
      return '/faq';
    case 'legalPage':
      return slug ? `/${slug}` : null;
    case 'caseStudy':
      return slug ? `/case-studies/${slug}` : null;
    case 'blogPost':
      return slug ? `/blog/${slug}` : null;
    case 'blogCategory':
      return slug ? `/blog/category/${slug}` : null;
    case 'blogTag':
      return slug ? `/blog/tag/${slug}` : null;
    default:
      return null;
  }
}

export type MissingArabicReport = {
  /** Path -> the untranslated fields of the documents shown on it. */
  byPath: Map<string, MissingField[]>;
  /** Site-wide documents, and documents of pages that are not in the given list. */
  other: MissingField[];
};

/** Groups every document's missing Arabic fields by page; `publicPaths` decides what counts as a page. */
export function missingArabicByPage(
  documents: readonly ContentDocument[],
  publicPaths: Iterable<string>,
): MissingArabicReport {
  const paths = new Set(publicPaths);
  const byPath = new Map<string, MissingField[]>();
  const other: MissingField[] = [];
  for (const doc of documents) {
    const missing = findMissingArabic(doc);
    if (!missing.length) continue;
    const fields = missing.map((m) => ({ documentId: doc._id, documentType: doc._type, field: m.path }));
    const path = pagePathOf(doc);
    if (path && paths.has(path)) byPath.set(path, [...(byPath.get(path) ?? []), ...fields]);
    else other.push(...fields);
  }
  return { byPath, other };
}
