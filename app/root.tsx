import type { LinksFunction, LoaderFunctionArgs } from '@remix-run/node';
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteError } from '@remix-run/react';
import { useContext } from 'react';
import {
  dir,
  HeadScriptsContext,
  type Locale,
  requestLocale,
  type RootData,
  useLocale,
  useRootData,
  useT,
} from '~/kit';
import { RouteAnnouncer } from './components/RouteAnnouncer';
import { ScriptPreloads } from './components/ScriptPreloads';
import { env, i18nVersion, imageConfig } from '~/server-api';
import arabicFont from './fonts/noto-kufi-arabic-subset.woff2';
import latinFont from './fonts/inter-latin-subset.woff2';
import stylesheet from './tailwind.css';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export async function loader({ request }: LoaderFunctionArgs): Promise<RootData> {
  const locale = requestLocale(request);
  const { gtmId, consentMode } = env();
  return {
    i18n: { locale, version: i18nVersion },
    gtmId: gtmId ?? null,
    consentMode,
    image: imageConfig(),
  };
}

// Nothing in the root's data changes while the app runs.
export const shouldRevalidate = () => false;

export function Layout({ children }: { children: React.ReactNode }) {
  const locale: Locale = useLocale();
  const root = useRootData();
  // The inline scripts' text, on the server only (HeadScriptsContext says why the browser needs none).
  const buildHeadScripts = useContext(HeadScriptsContext);
  const scripts = buildHeadScripts?.(root);
  return (
    <html lang={locale} dir={dir(locale)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f2a44" />
        {root && <meta name="i18n-version" content={root.i18n.version} />}
        <Meta />
        {/* The page's fonts start downloading with the stylesheet rather than after the first
            layout finds them, which would mean one more layout of the page (the same files
            tailwind.css declares, so the browser reuses the responses). Arabic pages set their
            Latin text and digits in Inter too; on English pages the Arabic face only shows in
            the language menu once it is opened (or the link shown without JavaScript), so it is
            left to the stylesheet. */}
        {(locale === 'ar' ? [arabicFont, latinFont] : [latinFont]).map((font) => (
          <link key={font} rel="preload" as="font" type="font/woff2" href={font} crossOrigin="anonymous" />
        ))}
        <Links />
        <ScriptPreloads locale={locale} i18nVersion={root?.i18n.version} />
        {/* One inline script, allowed by its hash and the same for every visitor: it sets Google
            Consent Mode's defaults (all denied), applies the choice kept in the consent cookie and
            inserts gtm.js only as that allows ('strict-dynamic' then allows it). A <script src> in
            the markup would be refused: under 'strict-dynamic' it needs a nonce or an integrity
            hash (ADR 0023). It runs before the body is painted, so a returning visitor never sees
            the banner (ADR 0030). The tag manager loads only when GTM_ID is configured. */}
        {root && <script dangerouslySetInnerHTML={{ __html: scripts?.consent ?? '' }} suppressHydrationWarning />}
        {/* Answers a tap on the header's menus before React does (app/lib/early-taps.ts). */}
        <script dangerouslySetInnerHTML={{ __html: scripts?.earlyTaps ?? '' }} suppressHydrationWarning />
      </head>
      <body className="min-h-screen">
        {/* No <noscript> tag manager frame: a page shared by every visitor cannot know a choice
            without scripts, and nothing may load before consent (ADR 0030). */}
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

// The announcer lives here rather than in the locale layout: switching language mounts the other
// language's layout, and the announcer must survive that to tell it from a first load.
export default function App() {
  return (
    <>
      <Outlet />
      <RouteAnnouncer />
    </>
  );
}

/** Last resort, when even the page shell failed: localized, and never a stack trace. */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useT();
  const locale = useLocale();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-4 p-8 text-center">
      <title>{notFound ? t('notFound.title') : t('error.title')}</title>
      <h1 className="text-3xl font-bold">{notFound ? t('notFound.title') : t('error.title')}</h1>
      <p className="text-navy-700">{notFound ? t('notFound.text') : t('error.text')}</p>
      <a className="rounded-full bg-navy-900 px-6 py-3 font-semibold text-white" href={locale === 'ar' ? '/ar' : '/'}>
        {t('error.backHome')}
      </a>
    </main>
  );
}
