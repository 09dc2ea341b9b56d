import { redirect, type LoaderFunctionArgs } from '@remix-run/node';
import { localeFromPath, localizePath, stripLocale } from '~/i18n';

/**
 * Old and alternative addresses, permanently redirected in the visitor's language (the
 * query string is kept): /contact -> /, /bookingconfirmation and /booking_confirmation ->
 * /booking-confirmation; the same under /ar.
 */
const TARGETS: Record<string, string> = {
  '/contact': '/',
  '/bookingconfirmation': '/booking-confirmation',
  '/booking_confirmation': '/booking-confirmation',
};

export function redirectTarget(url: URL): string | null {
  const bare = stripLocale(url.pathname)
    .replace(/(.)\/+$/, '$1')
    .toLowerCase();
  const target = TARGETS[bare];
  return target ? localizePath(target, localeFromPath(url.pathname)) + url.search : null;
}

export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const target = redirectTarget(url);
  if (!target) throw new Response('Not Found', { status: 404 });
  return redirect(target, 301);
}
