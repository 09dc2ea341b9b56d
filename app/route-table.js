// The site's routes, declared once and mounted for both languages by remix.config.js:
// English at the path given here, Arabic at /ar + the same path.
// Keep this file plain JavaScript: remix.config.js imports it at build time.
// Route ids are made here and nowhere else: the layouts' ids below, a page's id is `${locale}/${id}`.

/** The id of the page shell (app/layouts/locale.tsx) mounted for each language. */
export const layoutRouteIds = /** @type {const} */ ({ en: 'locale-en', ar: 'locale-ar' });

/**
 * The id of a page of the table (or `not-found`) mounted in one language, e.g. `ar/blog-tag`.
 * @param {'en' | 'ar'} locale
 * @param {string} pageId
 */
export const pageRouteId = (locale, pageId) => `${locale}/${pageId}`;

/**
 * `private: true`: a route of the client portal. Every answer under its path (the page, its
 * single-fetch `.data` twin, a redirect, an error) is personal: `Cache-Control: private, no-store`,
 * `Vary: Cookie`, `noindex` (app/lib/cache-policy.server.ts), and the page cache never keeps it.
 * `noindex: true`: a public page that asks search engines not to index it (its meta and
 * X-Robots-Tag say so). The sitemap lists only pages of the table that are neither (and are
 * pages, not redirects): app/features/seo/site-urls.server.ts.
 * `landingKey`: the key of the CMS landing page (landingPage.key) whose title and intro head this
 * page; `landingPagePaths` below derives the key -> path table the Studio and the SEO report use.
 * @type {{ id: string, path?: string, index?: boolean, file: string, private?: boolean, noindex?: boolean, landingKey?: string }[]}
 */
export const routeTable = [
  { id: 'home', index: true, file: 'pages/home.tsx' },
  { id: 'about', path: 'about', file: 'pages/about.tsx' },
  { id: 'services', path: 'services', file: 'pages/services.tsx', landingKey: 'services' },
  { id: 'pricing', path: 'pricing', file: 'pages/pricing.tsx', landingKey: 'pricing' },
  { id: 'faq', path: 'faq', file: 'pages/faq.tsx', landingKey: 'faq' },
  { id: 'case-studies', path: 'case-studies', file: 'pages/case-studies.tsx', landingKey: 'caseStudies' },
  { id: 'case-study', path: 'case-studies/:slug', file: 'pages/case-study.tsx' },
  { id: 'blog', path: 'blog', file: 'pages/blog.tsx', landingKey: 'blog' },
  { id: 'blog-category', path: 'blog/category/:categorySlug', file: 'pages/blog-category.tsx' },
  { id: 'blog-tag', path: 'blog/tag/:tagSlug', file: 'pages/blog-tag.tsx' },
  { id: 'blog-post', path: 'blog/:slug', file: 'pages/blog-post.tsx' },
  { id: 'privacy-policy', path: 'privacy-policy', file: 'pages/legal.tsx' },
  { id: 'terms-of-service', path: 'terms-of-service', file: 'pages/legal.tsx' },
  { id: 'cookies-policy', path: 'cookies-policy', file: 'pages/legal.tsx' },
  { id: 'book', path: 'book', file: 'pages/book.tsx' },
  {
    id: 'booking-confirmation',
    path: 'booking-confirmation/:bookingId?',
    file: 'pages/booking-confirmation.tsx',
    noindex: true,
    landingKey: 'bookingConfirmation',
  },
  { id: 'seo-diagnostics', path: 'seo-diagnostics', file: 'pages/seo-diagnostics.tsx', noindex: true },
  { id: 'account', path: 'account', file: 'pages/account.tsx', private: true },
  { id: 'account-verify', path: 'account/verify', file: 'pages/account-verify.tsx', private: true },
  { id: 'account-subscription', path: 'account/subscription', file: 'pages/account-subscription.tsx', private: true },
  {
    id: 'account-billing-details',
    path: 'account/billing-details',
    file: 'pages/account-billing-details.tsx',
    private: true,
  },
  { id: 'account-invoice', path: 'account/invoices/:invoiceId', file: 'pages/account-invoice.tsx', private: true },
  {
    id: 'account-invoice-pdf',
    path: 'account/invoices/:invoiceId/pdf',
    file: 'resources/invoice-pdf.ts',
    private: true,
  },
  {
    id: 'account-invoice-xml',
    path: 'account/invoices/:invoiceId/xml',
    file: 'resources/invoice-xml.ts',
    private: true,
  },
  {
    id: 'account-credit-note',
    path: 'account/credit-notes/:creditNoteId',
    file: 'pages/account-credit-note.tsx',
    private: true,
  },
  {
    id: 'account-credit-note-pdf',
    path: 'account/credit-notes/:creditNoteId/pdf',
    file: 'resources/credit-note-pdf.ts',
    private: true,
  },
  {
    id: 'account-credit-note-xml',
    path: 'account/credit-notes/:creditNoteId/xml',
    file: 'resources/credit-note-xml.ts',
    private: true,
  },
  // The client's own data as a JSON file (issue 42): a download, not a page.
  { id: 'account-personal-data', path: 'account/personal-data', file: 'resources/personal-data.ts', private: true },
  { id: 'checkout', path: 'checkout/:checkoutId', file: 'pages/checkout.tsx', private: true },
  // The newsletter's emailed links (double opt-in, one-click unsubscribe): personal, never cached or indexed.
  { id: 'newsletter-confirm', path: 'newsletter/confirm', file: 'pages/newsletter-confirm.tsx', private: true },
  {
    id: 'newsletter-unsubscribe',
    path: 'newsletter/unsubscribe',
    file: 'pages/newsletter-unsubscribe.tsx',
    private: true,
  },
  // The local Content Lake's editors sign in here (ADR 0025); the Studio itself is served by server.mjs at /studio.
  { id: 'studio-sign-in', path: 'studio/sign-in', file: 'pages/studio-sign-in.tsx', private: true },
  { id: 'contact', path: 'contact', file: 'resources/redirects.ts' },
  { id: 'bookingconfirmation', path: 'bookingconfirmation', file: 'resources/redirects.ts' },
  { id: 'booking_confirmation', path: 'booking_confirmation', file: 'resources/redirects.ts' },
];

/**
 * landingPage.key -> the English path of the page it heads (no parameters: the optional
 * `:bookingId?` of the booking confirmation is left off), e.g. `caseStudies` -> `/case-studies`.
 * The one source for the Studio's preview subtitles and Presentation locations and for the
 * missing-Arabic report.
 * @type {Readonly<Record<string, string>>}
 */
// Built in a function marked pure, so that a bundle that does not use it (the browser's shell, which
// imports only `layoutRouteIds`) leaves it and the route table out: esbuild keeps a top-level call.
export const landingPagePaths = /* @__PURE__ */ (() =>
  Object.freeze(
    Object.fromEntries(
      routeTable
        .filter((route) => route.landingKey)
        .map((route) => [route.landingKey, `/${(route.path ?? '').replace(/\/:[^/]*\?$/, '')}`]),
    ),
  ))();

/** Routes that answer outside the page shell (no language prefix). */
export const resourceRoutes = [
  { id: 'image', path: 'images/:projectId/:dataset/:file', file: 'resources/image.ts' },
  { id: 'sitemap', path: 'sitemap.xml', file: 'resources/sitemap.ts' },
  { id: 'robots', path: 'robots.txt', file: 'resources/robots.ts' },
  { id: 'key-file', path: 'locales/:lng/all.json', file: 'resources/key-file.ts' },
  { id: 'api-newsletter', path: 'api/newsletter', file: 'resources/newsletter.ts' },
  { id: 'api-consent', path: 'api/consent', file: 'resources/consent.ts' },
  { id: 'api-form-token', path: 'api/form-token', file: 'resources/form-token.ts' },
  { id: 'api-preview', path: 'api/preview', file: 'resources/preview.ts' },
  { id: 'api-preview-exit', path: 'api/preview/exit', file: 'resources/preview-exit.ts' },
  { id: 'api-preview-perspective', path: 'api/preview/perspective', file: 'resources/preview-perspective.ts' },
  { id: 'api-preview-mode-enable', path: 'api/preview-mode/enable', file: 'resources/preview-mode-enable.ts' },
  { id: 'api-revalidate', path: 'api/revalidate', file: 'resources/revalidate.ts' },
  { id: 'api-stripe-webhook', path: 'api/stripe/webhook', file: 'resources/stripe-webhook.ts' },
  { id: 'api-portal-jobs', path: 'api/portal/jobs', file: 'resources/portal-jobs.ts' },
  { id: 'api-portal-test', path: 'api/portal/test/:hook', file: 'resources/portal-test-hooks.ts' },
];
