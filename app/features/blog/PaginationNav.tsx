import { Link } from '@remix-run/react';
import { ArrowBackIcon, ArrowForwardIcon } from '~/components/page-icons';
import { useT } from '~/lib/locale';
import { pageHref, pageWindow } from './pagination';

/** Numbered pages with previous/next links; page 1 is the bare path. */
export function Pagination({ path, page, totalPages }: { path: string; page: number; totalPages: number }) {
  const { t } = useT('insights');
  if (totalPages <= 1) return null;
  const item = 'inline-flex min-h-11 min-w-11 items-center justify-center rounded-full px-3 font-semibold';
  return (
    <nav aria-label={t('pagination.label')} data-testid="pagination" className="mt-12 flex flex-col items-center gap-3">
      <ul className="flex flex-wrap items-center justify-center gap-2">
        <li>
          {page > 1 ? (
            <Link
              to={pageHref(path, page - 1)}
              rel="prev"
              className={`${item} gap-2 border border-sand-200 text-navy-900 hover:bg-sand-50`}
            >
              <ArrowBackIcon className="size-4" />
              <span>{t('pagination.previous')}</span>
            </Link>
          ) : null}
        </li>
        {pageWindow(page, totalPages).map((p, i) =>
          p === null ? (
            <li key={`gap-${i}`} aria-hidden="true" className="px-1 text-navy-500">
              …
            </li>
          ) : (
            <li key={p}>
              {p === page ? (
                <span aria-current="page" className={`${item} bg-navy-900 text-white`}>
                  <span className="sr-only">{t('pagination.page', { page: p })}</span>
                  <span aria-hidden="true">{p}</span>
                </span>
              ) : (
                <Link
                  to={pageHref(path, p)}
                  aria-label={t('pagination.page', { page: p })}
                  className={`${item} border border-sand-200 text-navy-900 hover:bg-sand-50`}
                >
                  {p}
                </Link>
              )}
            </li>
          ),
        )}
        <li>
          {page < totalPages ? (
            <Link
              to={pageHref(path, page + 1)}
              rel="next"
              className={`${item} gap-2 border border-sand-200 text-navy-900 hover:bg-sand-50`}
            >
              <span>{t('pagination.next')}</span>
              <ArrowForwardIcon className="size-4" />
            </Link>
          ) : null}
        </li>
      </ul>
      <p className="text-sm text-navy-700">{t('pagination.status', { page, total: totalPages })}</p>
    </nav>
  );
}
