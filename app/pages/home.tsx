import type { MetaFunction } from '@remix-run/node';
import { Link } from '@remix-run/react';
import { RouteErrorBoundary } from '~/components/RouteError';
import { useShell } from '~/layouts/locale';
import { useLocalizePath, useT } from '~/lib/locale';
import { pageMeta } from '~/lib/meta';

// The full home page (hero, services, testimonials, statistics, indicators) is built in
// the pages issue; until then the home page shows the brand and its promise from the CMS.
export const meta: MetaFunction = (args) => pageMeta(args);

export const ErrorBoundary = RouteErrorBoundary;

export default function Home() {
  const { shell } = useShell();
  const { t } = useT();
  const localize = useLocalizePath();
  return (
    <div className="bg-gradient-to-b from-sand-50 to-white pt-[60px] pb-24 md:pt-[160px]">
      <h1 className="sr-only">{shell.settings.brandName}</h1>
      <section className="mx-auto max-w-4xl px-4 text-center md:px-8">
        <p className="text-2xl font-semibold leading-snug text-navy-900 md:text-4xl">{shell.settings.tagline}</p>
        <Link
          to={localize('/services')}
          className="mt-10 inline-flex min-h-12 items-center rounded-full bg-navy-900 px-7 font-semibold text-white hover:bg-navy-800"
        >
          {t('home.ourServices')}
        </Link>
      </section>
    </div>
  );
}
