import type { MetaFunction } from '@remix-run/node';
import { isRouteErrorResponse, useRouteError } from '@remix-run/react';
import { layoutFromMatches } from '~/lib/meta';
import { PillLink, pillLinkClass } from '~/components/PillLink';
import { useLocalizePath, useT } from '~/lib/locale';

/** The localized not-found screen. */
export function NotFound() {
  const { t } = useT();
  const localize = useLocalizePath();
  return (
    <section
      data-testid="not-found"
      className="mx-auto flex max-w-2xl flex-col items-center gap-5 px-4 py-24 text-center"
    >
      <p className="text-6xl font-bold text-gold-600" aria-hidden="true">
        404
      </p>
      <h1 className="text-3xl font-bold text-navy-900 md:text-4xl">{t('notFound.title')}</h1>
      <p className="text-lg text-navy-700">{t('notFound.text')}</p>
      <PillLink to={localize('/')}>{t('notFound.backHome')}</PillLink>
    </section>
  );
}

/**
 * Error boundary for pages: 404 shows the not-found screen; 503 says the content service
 * is unavailable; anything else a short apology. Never a stack trace.
 */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const { t } = useT();
  const localize = useLocalizePath();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  const unavailable = isRouteErrorResponse(error) && error.status === 503;
  return (
    <section
      data-testid="error-page"
      className="mx-auto flex max-w-2xl flex-col items-center gap-5 px-4 py-24 text-center"
    >
      <h1 className="text-3xl font-bold text-navy-900">
        {unavailable ? t('error.unavailableTitle') : t('error.title')}
      </h1>
      <p className="text-lg text-navy-700">{unavailable ? t('error.unavailableText') : t('error.text')}</p>
      <div className="flex flex-wrap justify-center gap-3">
        <a href="" className={pillLinkClass.secondary}>
          {t('error.retry')}
        </a>
        <PillLink to={localize('/')}>{t('error.backHome')}</PillLink>
      </div>
    </section>
  );
}

/** The 404 page (app/pages/not-found.tsx): any path no page claims. */
export function NotFoundPage() {
  return <NotFound />;
}

/** The 404 page's title (with the brand) and `noindex`. */
export const notFoundMeta: MetaFunction = ({ matches }) => {
  const layout = layoutFromMatches(matches);
  const brand = layout?.shell.settings.brandName;
  const title = layout?.locale === 'ar' ? 'الصفحة غير موجودة' : 'Page not found';
  return [{ title: brand ? `${title} | ${brand}` : title }, { name: 'robots', content: 'noindex' }];
};
