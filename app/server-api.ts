// What the route modules' loaders and actions use from `.server` modules and @remix-run/node:
// route modules (app/pages, app/layouts, app/root.tsx) import it from here, not from those
// modules (eslint.config.js enforces it). In the browser build Remix replaces each of those
// modules with an empty CommonJS module, which esbuild keeps wherever it is imported (it cannot
// tell that it has no side effects) and puts in a chunk of its own: a request for nothing. This
// module has no side effects (package.json `sideEffects: false`): once the browser build has
// dropped the loaders and actions, nothing uses it, and it goes with everything behind it.
// Code that runs in the browser must not import it (it would get undefined, as from a `.server` module).
export { data, redirect } from '@remix-run/node';
export { buildDiagnostics } from './features/seo/diagnostics.server';
export { publicPages } from './features/seo/site-urls.server';
export { action as faqQuestionAction } from './features/forms/faq-question.server';
export { formText } from './features/forms/request.server';
export {
  confirmPagePost,
  confirmPageState,
  linkFields,
  unsubscribePagePost,
  unsubscribePageState,
} from './features/newsletter/pages.server';
export { listingRequest, listingSlice, listingTitle, termListing } from './features/blog/listing.server';
export { portalT } from './features/portal/t.server';
export { pendingEditorSignIn, requestEditorCode, studioReturn, verifyEditorCode } from './lake/editors.server';
export { fixedT, i18nVersion } from './i18next.server';
export { insightsT, siteUrl } from './lib/content-page.server';
export { env } from './lib/env.server';
export { imageConfig } from './lib/image-config.server';
export { logoImages } from './lib/logo.server';
export { renderRichText } from './lib/rich-text.server';
export { renderLegalPage } from './features/legal/legal-page.server';
export { chosenLocale } from './lib/locale-cookie.server';
export { notFound } from './lib/not-found.server';
export { isPreview, overlaysUrl, previewPerspective } from './lib/preview.server';
export {
  accountOverview,
  assertSafePost,
  billingDetailsPage,
  checkoutPage,
  completeCheckout,
  confirmCheckoutReturn,
  creditNotePage,
  CSRF_FIELD,
  getClient,
  invoicePage,
  pendingSignInEmail,
  readPostedForm,
  requestSignIn,
  requireClient,
  saveBillingDetails,
  signedOutHeaders,
  signOut,
  startCheckout,
  subscriptionAction,
  subscriptionPage,
  TooManyCheckouts,
  updatePreferences,
  verifySignIn,
} from './portal/service.server';
export { englishFallbacks, loadQuery } from './sanity/load.server';
export { showTestBookingLink } from './features/booking/test-link.server';
