import { data, redirect, type HeadersFunction, type LoaderFunctionArgs } from '@remix-run/node';
import { Outlet, useLoaderData, useRouteLoaderData, type ClientLoaderFunctionArgs } from '@remix-run/react';
import i18next from 'i18next';
import { isbot } from 'isbot';
import { Footer } from '~/components/Footer';
import { Header } from '~/components/Header';
import { NavigationProgress } from '~/components/NavigationProgress';
import { RouteErrorBoundary } from '~/components/RouteError';
import { BookingProvider } from '~/features/booking/BookingProvider';
import { LOCALE_COOKIE, localeFromPath, namespaces } from '~/i18n';
import { env } from '~/lib/env.server';
import { useT } from '~/lib/locale';
import { loadQuery } from '~/sanity/load.server';
import { SHELL_QUERY } from '~/sanity/queries/shell';

/**
 * The page shell for one language (mounted twice by remix.config.js: at / for English and
 * /ar for Arabic). Loads the header and footer content in that language.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const locale = localeFromPath(url.pathname);
  const headers = new Headers();
  if (url.pathname === '/') {
    // A visitor who chose Arabic before and comes back to the home page gets the Arabic one.
    headers.set('Vary', 'Cookie');
    const cookie = request.headers.get('Cookie') ?? '';
    const chosen = new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=(en|ar)(?:;|$)`).exec(cookie)?.[1];
    if (chosen === 'ar' && !isbot(request.headers.get('User-Agent') ?? '')) {
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
  return data({ locale, shell, siteUrl: env().siteUrl }, { headers });
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
  const locale = localeFromPath(new URL(request.url).pathname);
  const [serverData] = await Promise.all([
    serverLoader<typeof loader>(),
    i18next.isInitialized ? i18next.loadLanguages(locale).then(() => i18next.loadNamespaces([...namespaces])) : undefined,
  ]);
  return serverData;
}

export type LocaleLayoutData = Awaited<ReturnType<typeof loader>>['data'];

/** Shell data for any page below the layout. */
export function useShell() {
  const en = useRouteLoaderData<typeof loader>('locale-en');
  const ar = useRouteLoaderData<typeof loader>('locale-ar');
  return (ar ?? en)!;
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

export default function LocaleLayout() {
  const { shell } = useLoaderData<typeof loader>();
  return (
    <BookingProvider>
      <SkipLink />
      <Header settings={shell.settings} />
      <NavigationProgress />
      <main id="main" tabIndex={-1} className="outline-none">
        <Outlet />
      </main>
      <Footer shell={shell} />
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
