import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { CmsText, HydrateLater, landingMeta, requestLocale, RouteErrorBoundary, useT } from '~/kit';
import {
  BuildingIcon,
  CheckList,
  colorOf,
  container,
  CtaBand,
  GridCard,
  lead,
  PageBand,
  PageHeading,
  sectionTitle,
  ServiceCards,
  ServiceIcon,
} from '~/content-kit';
import { useServiceHashScroll } from '~/lib/use-service-hash-scroll';
import { englishFallbacks, loadQuery } from '~/server-api';
import { SERVICES_QUERY } from '~/sanity/queries/marketing';

export async function loader({ request }: LoaderFunctionArgs) {
  const locale = requestLocale(request);
  const content = await loadQuery(request, SERVICES_QUERY, { lang: locale });
  return { ...content, englishFallbacks: englishFallbacks(request) };
}

export const meta: MetaFunction<typeof loader> = (args) => landingMeta(args, args.data?.page);

export const ErrorBoundary = RouteErrorBoundary;

// Sections land below the sticky header: the same offsets as the hash-scrolling rule
// (120px under 768px, 160px from 768px), so the router's own jump to the hash agrees with it.
// The page's scroll-padding (the header's height, 96px / 160px: tailwind.css) counts towards them.
const sectionScrollMargin = 'scroll-mt-[24px] md:scroll-mt-0';

export default function Services() {
  const { page, cards, services, setupOptions } = useLoaderData<typeof loader>();
  const { t } = useT('marketing');
  useServiceHashScroll();
  return (
    <div data-testid="services-page">
      <header className="bg-gradient-to-b from-sand-50 to-white pt-12 pb-12 md:pt-20 md:pb-16">
        <div className={container}>
          <PageHeading
            title={page.title}
            intro={page.intro}
            variant="marketing"
            className="max-w-3xl"
            introClassName="max-w-3xl"
          />
          <nav aria-label={t('services.overviewLabel')} className="mt-10">
            <ServiceCards services={cards} compact />
          </nav>
        </div>
      </header>

      {/* Each service's section hydrates apart from the page (HydrateLater). */}
      {services.map((service, index) => {
        const color = colorOf(service.color);
        const titleId = `${service.anchor}-title`;
        return (
          <HydrateLater key={service._id}>
            <section
              id={service.anchor}
              data-id={service.anchor}
              aria-labelledby={titleId}
              className={`${sectionScrollMargin} py-14 md:py-20 ${index % 2 === 0 ? 'bg-white' : 'bg-sand-50'}`}
              data-testid="service-section"
            >
              <div className={`${container} grid gap-8 lg:grid-cols-[1.1fr_1fr] lg:gap-16`}>
                <div>
                  <span className={`inline-flex size-14 items-center justify-center rounded-2xl ${color.tile}`}>
                    <ServiceIcon name={service.icon} className="size-7" />
                  </span>
                  <CmsText as="h2" text={service.title} id={titleId} className={`mt-5 ${sectionTitle}`} />
                  <CmsText text={service.description} className={`mt-5 ${lead}`} />
                </div>
                {service.features.length > 0 && (
                  <div className="rounded-2xl border border-navy-100 bg-white p-6 shadow-sm md:p-8">
                    <h3 className="text-lg font-semibold text-navy-900">{t('services.whatsIncluded')}</h3>
                    <CheckList
                      items={service.features}
                      className="mt-4 space-y-3"
                      itemClassName="flex gap-3 leading-7 text-navy-700"
                      badgeClassName={`mt-1 inline-flex size-5 shrink-0 items-center justify-center rounded-full ${color.tile}`}
                      iconClassName="size-3.5"
                    />
                  </div>
                )}
              </div>
            </section>
          </HydrateLater>
        );
      })}

      {setupOptions.length > 0 && (
        <HydrateLater>
          <PageBand
            title={t('services.setupTitle')}
            className="bg-navy-900 py-16 text-white md:py-24"
            titleClassName="max-w-3xl text-3xl font-bold tracking-tight md:text-4xl"
            testId="setup-options"
          >
            <p className="mt-4 max-w-3xl text-lg leading-8 text-navy-100">{t('services.setupIntro')}</p>
            <ul className="mt-10 grid gap-5 md:grid-cols-2">
              {setupOptions.map((option) => (
                <GridCard
                  key={option._id}
                  look="setupOption"
                  title={option.title}
                  text={option.description}
                  testId={`setup-${option.key}`}
                >
                  <span className="inline-flex size-11 items-center justify-center rounded-xl bg-gold-500/15 text-gold-300">
                    <BuildingIcon className="size-6" />
                  </span>
                </GridCard>
              ))}
            </ul>
          </PageBand>
        </HydrateLater>
      )}

      <CtaBand page="services" className="bg-sand-50" />
    </div>
  );
}
