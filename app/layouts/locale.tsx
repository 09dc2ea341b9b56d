import {
  chosenLocale,
  data,
  englishFallbacks,
  env,
  loadQuery,
  logoImages,
  overlaysUrl,
  previewPerspective,
  redirect,
  showTestBookingLink,
} from '~/server-api';
import type { HeadersFunction, LoaderFunctionArgs } from '@remix-run/node';
import { Outlet, useLoaderData, useLocation, type ClientLoaderFunctionArgs } from '@remix-run/react';
import { useEffect } from 'react';
import {
  analytics,
  deferred,
  loadLanguage,
  HydrateLater,
  requestLocale,
  RouteErrorBoundary,
  type ShellData,
  useT,
} from '~/kit';
import { isbot } from 'isbot';
import { Footer } from '~/components/Footer';
import { Header } from '~/components/Header';
import { NavigationProgress } from '~/components/NavigationProgress';
import { BookingProvider } from '~/features/booking/BookingProvider';
import { createFormToken } from '~/features/forms/spam-check';
import { VisualEditing } from '~/components/VisualEditing';
import { OrganizationJsonLd } from '~/components/OrganizationJsonLd';
import { SHELL_QUERY } from '~/sanity/queries/shell';

// The floating buttons (with the chat's limiter and check) and the toasts' region are rendered by
// the server with the page; their code and Radix's arrive while the page hydrates.
const FloatingButtons = deferred('floating', () =>
  import('~/features/chat/FloatingButtons').then((m) => m.FloatingButtons),
);
// Only an editor's preview session shows the banner: visitors never download its code.
const PreviewBanner = deferred('preview', () => import('~/components/PreviewBanner').then((m) => m.PreviewBanner));
const Toaster = deferred('toaster', () => import('~/features/toast/Toaster').then((m) => m.Toaster));
// The cookie banner too (issue 43): its server markup works before its code arrives and without
// JavaScript (a plain form, and CSS that hides it once a choice is stored); its code hydrates it.
const ConsentBanner = deferred('consent', () =>
  import('~/features/consent/ConsentBanner').then((m) => m.ConsentBanner),
);

/**
 * The page shell for one language (mounted twice by remix.config.js: at / for English and
 * /ar for Arabic). Loads the header and footer content in that language.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const locale = requestLocale(request);
  const headers = new Headers();
  if (url.pathname === '/') {
    // A visitor who chose Arabic before and comes back to the home page gets the Arabic one.
    headers.set('Vary', 'Cookie');
    if ((await chosenLocale(request)) === 'ar' && !isbot(request.headers.get('User-Agent') ?? '')) {
      throw redirect(`/ar${url.search}`, { headers });
    }
  }
  let shell;
  try {
    shell = await loadQuery(request, SHELL_QUERY, { lang: locale });
  } catch (error) {
    console.error(`[content] shell query failed: ${String(error)}`);
    throw data(null, { status: 503, headers: { 'Retry-After': '60' } });
  }
  const { siteUrl, isProduction } = env();
  // Nothing per visitor here: pages are cached and shared (ADR 0010). The forms' page token is the
  // time this page was rendered, shared by everyone it is served to (ADR 0021).
  const conversion = {
    showTestBookingLink: showTestBookingLink(isProduction, shell.settings.showTestBookingLink),
  };
  const preview = await previewPerspective(request);
  return data<ShellData>(
    {
      locale,
      shell,
      logo: logoImages(shell.settings.logo),
      siteUrl,
      preview,
      overlays: preview ? overlaysUrl() : null,
      conversion,
      englishFallbacks: englishFallbacks(request),
      formToken: await createFormToken(Date.now(), env().sessionSecret, 'page'),
    },
    { headers },
  );
}

export const headers: HeadersFunction = ({ loaderHeaders, errorHeaders }) => {
  const out = new Headers();
  const source = errorHeaders ?? loaderHeaders;
  for (const name of ['Vary', 'Retry-After']) {
    const value = source.get(name);
    if (value) out.set(name, value);
  }
  return out;
};

/** Before a page in another language renders, make sure its interface strings are loaded. */
export async function clientLoader({ serverLoader, request }: ClientLoaderFunctionArgs) {
  const locale = requestLocale(request);
  const [serverData] = await Promise.all([serverLoader<typeof loader>(), loadLanguage(locale)]);
  return serverData;
}

function SkipLink() {
  const { t } = useT();
  return (
    <a
      href="#main"
      className="sr-only focus:not-sr-only focus:fixed focus:start-4 focus:top-4 focus:z-[60] focus:rounded-lg focus:bg-navy-900 focus:px-4 focus:py-3 focus:text-white"
    >
      {t('skipToContent')}
    </a>
  );
}

/** page_view on every route change (once per location key), and the start-up events. */
function useAnalytics(locale: string) {
  const location = useLocation();
  useEffect(() => analytics.scheduleStartupEvents(), []);
  useEffect(() => {
    analytics.pageView({
      path: location.pathname + location.search,
      title: document.title,
      locale,
      key: location.key,
      location: window.location.href,
    });
  }, [location.key, location.pathname, location.search, locale]);
}

export default function LocaleLayout() {
  const { shell, logo, preview, siteUrl, locale, conversion } = useLoaderData<typeof loader>();
  useAnalytics(locale);
  const { settings } = shell;
  const bookingConfig = {
    schedulingUrl: settings.schedulingUrl,
    bookingWhatsappNumber: settings.bookingWhatsappNumber,
    bookingWhatsappMessage: settings.bookingWhatsappMessage,
    siteUrl,
    showTestLink: conversion.showTestBookingLink,
  };
  return (
    <BookingProvider config={bookingConfig}>
      <SkipLink />
      {/* First in the page, in the flow: it covers nothing and is read before the header. */}
      <ConsentBanner />
      {preview && <PreviewBanner perspective={preview} />}
      <VisualEditing />
      <Header settings={shell.settings} logo={logo?.header ?? null} />
      <NavigationProgress />
      <main id="main" tabIndex={-1} className="outline-none">
        <Outlet />
      </main>
      <OrganizationJsonLd />
      {/* On phones the footer ends in room for the floating buttons (Footer.tsx), so they never
          cover its last lines. */}
      <HydrateLater>
        <Footer shell={shell} logo={logo?.footer ?? null} />
      </HydrateLater>
      <FloatingButtons whatsappNumber={settings.whatsappNumber} whatsappMessage={settings.whatsappMessage} />
      <Toaster />
    </BookingProvider>
  );
}

export function ErrorBoundary() {
  return (
    <main id="main">
      <RouteErrorBoundary />
    </main>
  );
}
