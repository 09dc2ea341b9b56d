import type { LoaderFunctionArgs } from '@remix-run/node';
import { locales, type Locale } from '~/i18n';
import { browserKeyFile, i18nVersion } from '~/i18next.server';

const YEAR = 60 * 60 * 24 * 365;

/**
 * GET /locales/{lng}/all.json?v={version}: every interface string the browser needs in one
 * language, one request per page (app/lib/i18n-backend.ts reads it; app/components/ScriptPreloads
 * asks for it from the head). Asked for with the current version, it never changes, so browsers
 * and CDNs may keep it for good; any other version (a page rendered before a deploy) gets the
 * current strings, kept for a minute only, so an old URL never pins the new strings.
 */
export function loader({ params, request }: LoaderFunctionArgs) {
  const locale = params.lng as Locale;
  if (!locales.includes(locale)) {
    return new Response('Not Found\n', {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=60' },
    });
  }
  const current = new URL(request.url).searchParams.get('v') === i18nVersion;
  return new Response(browserKeyFile(locale), {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': current ? `public, max-age=${YEAR}, immutable` : 'public, max-age=60',
      'X-Robots-Tag': 'noindex',
    },
  });
}
