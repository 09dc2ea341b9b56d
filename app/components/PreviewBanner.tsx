import { useLocation } from '@remix-run/react';
import { useT } from '~/kit';
import type { Perspective } from '~/sanity/types';

/**
 * Shown on every page of a preview session, with a way out that ends it. It says which
 * content the page shows: drafts, or (chosen with the Studio's perspective switch) the
 * published content.
 */
export function PreviewBanner({ perspective }: { perspective: Perspective }) {
  const { t } = useT();
  const location = useLocation();
  const published = perspective === 'published';
  return (
    <div
      role="region"
      aria-label={t(published ? 'preview.labelPublished' : 'preview.label')}
      data-testid="preview-banner"
      data-perspective={perspective}
      className="bg-gold-300 text-navy-950"
    >
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-2 text-sm md:px-8">
        <p className="font-medium">{t(published ? 'preview.bannerPublished' : 'preview.banner')}</p>
        <form method="post" action="/api/preview/exit">
          <input type="hidden" name="redirect" value={location.pathname + location.search} />
          <button
            type="submit"
            className="min-h-9 rounded-full bg-navy-900 px-4 font-semibold text-white hover:bg-navy-800"
          >
            {t('preview.exit')}
          </button>
        </form>
      </div>
    </div>
  );
}
