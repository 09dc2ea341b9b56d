import { Link } from '@remix-run/react';
import { ArrowForwardIcon, ServiceIcon } from '~/components/page-icons';
import { useFallbackLang } from '~/lib/content-lang';
import { useLocalizePath, useT } from '~/lib/locale';
import type { ServiceCard } from '~/sanity/queries/marketing';
import { colorOf } from './ui';

const compactCard =
  'flex min-h-12 w-full items-center gap-3 rounded-xl border border-navy-100 bg-white p-3 font-semibold leading-snug text-navy-900 shadow-sm transition hover:border-navy-200 hover:shadow-md';
const fullCard =
  'group relative flex w-full flex-col overflow-hidden rounded-2xl border border-navy-100 bg-white p-6 shadow-sm transition hover:-translate-y-0.5 hover:border-navy-200 hover:shadow-md';

/**
 * The six service cards (with `compact`, a jump list of icon and title), each linking to
 * /services#{anchor}. Elsewhere that navigates to the services page; on /services it only
 * changes the hash, and the page's hash-scrolling rule scrolls to the section in place.
 */
export function ServiceCards({ services, compact = false }: { services: ServiceCard[]; compact?: boolean }) {
  const { t } = useT('marketing');
  const localize = useLocalizePath();
  const inEnglish = useFallbackLang();
  return (
    <ul
      className={
        compact
          ? 'grid grid-cols-1 gap-3 min-[22.5rem]:grid-cols-2 sm:grid-cols-3 lg:grid-cols-6'
          : 'grid gap-5 sm:grid-cols-2 lg:grid-cols-3'
      }
    >
      {services.map((service) => {
        const color = colorOf(service.color);
        return (
          <li key={service._id} className="flex min-w-0">
            <Link
              to={localize(`/services#${service.anchor}`)}
              preventScrollReset
              data-testid={`service-card-${service.anchor}`}
              className={compact ? compactCard : fullCard}
            >
              {compact ? (
                // The services page's own jump list: icon and title only; the sections below hold the rest.
                <>
                  <span className={`inline-flex size-10 shrink-0 items-center justify-center rounded-lg ${color.tile}`}>
                    <ServiceIcon name={service.icon} className="size-5" />
                  </span>
                  <span className="min-w-0 text-[0.95rem] break-words" {...inEnglish(service.title)}>
                    {service.title}
                  </span>
                </>
              ) : (
                <>
                  <span aria-hidden="true" className={`absolute inset-x-0 top-0 h-1 ${color.bar}`} />
                  <span
                    className={`inline-flex size-12 items-center justify-center rounded-xl ${color.tile}`}
                    data-color={service.color}
                  >
                    <ServiceIcon name={service.icon} className="size-6" />
                  </span>
                  <h3 className="mt-5 text-xl font-semibold text-navy-900" {...inEnglish(service.title)}>
                    {service.title}
                  </h3>
                  <span className="mt-2 flex-1 leading-7 text-navy-700" {...inEnglish(service.summary)}>
                    {service.summary}
                  </span>
                  <span
                    className="mt-5 inline-flex items-center gap-1.5 text-sm font-semibold text-navy-900 group-hover:text-navy-700"
                    aria-hidden="true"
                  >
                    {t('home.learnMore')}
                    <ArrowForwardIcon className="size-4 transition-transform group-hover:translate-x-0.5 rtl:group-hover:-translate-x-0.5" />
                  </span>
                </>
              )}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
