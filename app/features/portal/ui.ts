/** Class names shared by the client portal's pages (same palette and shapes as the marketing pages). */

/** The page column: wide for the account pages, narrow for the sign-in pages. */
export const portalContainer = {
  wide: 'mx-auto w-full max-w-5xl px-4 md:px-8',
  narrow: 'mx-auto w-full max-w-xl px-4 md:px-8',
};
export const card = 'rounded-2xl border border-navy-100 bg-white p-5 shadow-sm md:p-7';
export const label = 'block font-medium text-navy-900';
export const hint = 'text-sm text-navy-700';
export const input =
  'block min-h-12 w-full rounded-lg border border-navy-300 bg-white px-3 py-2 text-navy-900 placeholder:text-navy-400 focus:border-navy-500 aria-[invalid=true]:border-red-700 aria-[invalid=true]:border-2';
export const pageTitle = 'text-3xl font-bold tracking-tight text-navy-900 md:text-4xl rtl:leading-[1.4]';
export const textLink =
  'font-semibold text-navy-900 underline decoration-gold-500 decoration-2 underline-offset-4 hover:text-navy-700';
export const pageHeader = 'bg-gradient-to-b from-sand-50 to-white pt-10 pb-8 md:pt-16 md:pb-10';
/** A destructive confirmation (cancel the subscription): same shape as the site's buttons, in red. */
export const dangerButton =
  'inline-flex min-h-12 items-center justify-center gap-2 rounded-full bg-red-700 px-6 text-base font-semibold text-white transition-colors hover:bg-red-800 focus-visible:outline-offset-2';
