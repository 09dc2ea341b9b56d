import { useLocation } from '@remix-run/react';
import { useT } from '~/lib/locale';

/** Shown on every page of a draft preview session, with a way out that ends it. */
export function PreviewBanner() {
  const { t } = useT();
  const location = useLocation();
  return (
    <div role="region" aria-label={t('preview.label')} data-testid="preview-banner" className="bg-gold-300 text-navy-950">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-2 text-sm md:px-8">
        <p className="font-medium">{t('preview.banner')}</p>
        <form method="post" action="/api/preview/exit">
          <input type="hidden" name="redirect" value={location.pathname + location.search} />
          <button type="submit" className="min-h-9 rounded-full bg-navy-900 px-4 font-semibold text-white hover:bg-navy-800">
            {t('preview.exit')}
          </button>
        </form>
      </div>
    </div>
  );
}
