import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useId, type ReactNode } from 'react';
import {
  CalendarIcon,
  CmsText,
  HydrateLater,
  pageMeta,
  requestLocale,
  RouteErrorBoundary,
  useFallbackLang,
  useLocalizePath,
  useShell,
  useT,
} from '~/kit';
import {
  ArrowForwardIcon,
  Bidi,
  BookConsultationButton,
  button,
  CheckList,
  container,
  eyebrow,
  GridCard,
  lead,
  PageBand,
  QuoteIcon,
  sectionTitle,
  ServiceCards,
} from '~/content-kit';
import { SanityImage } from '~/components/SanityImage';
import { IndicatorsTable } from '~/components/marketing/IndicatorsTable';
import { splitHighlight } from '~/lib/highlight';
import { englishFallbacks, loadQuery } from '~/server-api';
import { HOME_QUERY, type HomeData } from '~/sanity/queries/marketing';

export async function loader({ request }: LoaderFunctionArgs) {
  const locale = requestLocale(request);
  const content = await loadQuery(request, HOME_QUERY, { lang: locale });
  return { ...content, englishFallbacks: englishFallbacks(request) };
}

export const meta: MetaFunction<typeof loader> = (args) =>
  pageMeta(args, { title: args.data?.page.seo.title ?? undefined, description: args.data?.page.seo.description });

export const ErrorBoundary = RouteErrorBoundary;

export default function Home() {
  const data = useLoaderData<typeof loader>();
  const { shell } = useShell();
  const { page } = data;
  const inEnglish = useFallbackLang();
  return (
    // Top padding: 60px on phones, 160px from the 768px breakpoint.
    <div className="bg-gradient-to-b from-sand-50 via-sand-50/60 to-white pt-[60px] md:pt-[160px]" data-testid="home">
      <h1 className="sr-only" {...inEnglish(page.seo.title ?? shell.settings.brandName)}>
        {page.seo.title ?? shell.settings.brandName}
      </h1>
      <Hero page={page} />
      {/* Below the hero, each section hydrates apart from the page (HydrateLater). */}
      <HydrateLater>
        <ServicesOverview data={data} />
      </HydrateLater>
      <HydrateLater>
        <Testimonials title={page.testimonialsTitle} testimonials={data.testimonials} />
      </HydrateLater>
      <HydrateLater>
        <Statistics title={page.statisticsTitle} statistics={data.statistics} />
      </HydrateLater>
      <HydrateLater>
        <IndicatorsTable title={page.indicatorsTitle} indicators={data.indicators} />
      </HydrateLater>
    </div>
  );
}

function Hero({ page }: { page: HomeData['page'] }) {
  const { t } = useT('marketing');
  const localize = useLocalizePath();
  const { hero } = page;
  const parts = splitHighlight(hero.headline, hero.highlight);
  const reasonsId = useId();
  const inEnglish = useFallbackLang();
  const claims = page.claims.filter((c) => c.text !== page.businessesLaunched);
  return (
    <section
      aria-labelledby="hero-title"
      className={`${container} grid gap-12 pb-16 md:pb-24 lg:grid-cols-[1.05fr_1fr] lg:items-center lg:gap-16`}
    >
      <div>
        <CmsText text={hero.trustedLine} className={eyebrow} data-testid="hero-trusted" />
        <h2
          id="hero-title"
          className="mt-4 text-4xl font-bold leading-[1.15] tracking-tight rtl:leading-[1.35] text-navy-900 md:text-5xl lg:text-[3.5rem]"
          {...inEnglish(hero.headline)}
        >
          {parts ? (
            <>
              {parts[0]}
              <span className="text-gold-700" data-testid="hero-highlight">
                {parts[1]}
              </span>
              {parts[2]}
            </>
          ) : (
            hero.headline
          )}
        </h2>
        <CmsText text={hero.subtitle} className={`mt-6 max-w-2xl ${lead}`} />
        {/* max-md:pe-14: on phones the floating buttons (48px, 16px from the end edge) sit beside
            the hero's lower part on first load; the calls to action and claims stop short of them. */}
        <div className="mt-8 flex flex-col gap-3 max-md:pe-14 sm:flex-row sm:flex-wrap">
          <BookConsultationButton source="hero" className={button.gold}>
            <CalendarIcon className="size-5" />
            {t('bookConsultation')}
          </BookConsultationButton>
          <Link to={localize('/services')} className={button.outline} data-testid="hero-services">
            {t('home.ourServices')}
            <ArrowForwardIcon className="size-5" />
          </Link>
        </div>
        {claims.length > 0 && (
          <CheckList
            items={claims}
            label={t('home.claimsLabel')}
            className="mt-10 flex flex-wrap gap-x-8 gap-y-3 border-t border-sand-200 pt-6 max-md:pe-14"
            itemClassName="flex items-center gap-2 font-semibold text-navy-800"
            iconClassName="size-5 shrink-0 text-gold-700"
          />
        )}
      </div>

      <div className="relative">
        {hero.image && (
          <div className="relative overflow-hidden rounded-3xl shadow-xl ring-1 ring-navy-900/5">
            <SanityImage image={hero.image} layout="homeHero" priority />
            <CmsText
              text={page.businessesLaunched}
              className="absolute start-4 top-4 max-w-[14rem] rounded-2xl border-s-4 border-gold-500 bg-white px-4 py-3 text-base font-bold leading-snug text-navy-900 shadow-lg md:start-6 md:top-6"
              data-testid="businesses-launched"
            />
          </div>
        )}
        {hero.reasons.length > 0 && (
          <div
            aria-labelledby={reasonsId}
            role="group"
            className="relative z-10 mx-3 -mt-10 rounded-2xl border border-sand-200 bg-white p-6 shadow-lg md:mx-8 md:-mt-16"
          >
            <CmsText as="h3" text={hero.reasonsTitle} id={reasonsId} className="text-lg font-semibold text-navy-900" />
            <CheckList
              items={hero.reasons}
              className="mt-4 grid gap-3 sm:grid-cols-2"
              itemClassName="flex gap-2.5 text-[0.95rem] leading-6 text-navy-700"
              badgeClassName="mt-0.5 inline-flex size-5 shrink-0 items-center justify-center rounded-full bg-sand-100 text-gold-700"
              iconClassName="size-3.5"
            />
          </div>
        )}
      </div>
    </section>
  );
}

/** A section's closing link to the page with more, centred under it. */
function MoreLink({
  to,
  className,
  testId,
  children,
}: {
  to: string;
  className: string;
  testId: string;
  children: ReactNode;
}) {
  const localize = useLocalizePath();
  return (
    <div className="mt-10 flex justify-center">
      <Link to={localize(to)} className={className} data-testid={testId}>
        {children}
        <ArrowForwardIcon className="size-5" />
      </Link>
    </div>
  );
}

function ServicesOverview({ data }: { data: HomeData }) {
  const { t } = useT('marketing');
  const { servicesIntro, strategyCta } = data.page;
  const ctaId = useId();
  return (
    <section aria-labelledby="services-title" className="bg-white py-16 md:py-24" data-testid="services-overview">
      <div className={container}>
        <div className="mx-auto max-w-3xl text-center">
          <CmsText as="h2" text={servicesIntro.title} id="services-title" className={sectionTitle} />
          <CmsText text={servicesIntro.subtitle} className={`mt-4 ${lead}`} />
        </div>
        <div className="mt-12">
          <ServiceCards services={data.services} />
        </div>
        <MoreLink to="/services" className={button.primary} testId="explore-services">
          {t('home.exploreServices')}
        </MoreLink>

        <div
          aria-labelledby={ctaId}
          role="region"
          className="mt-16 grid gap-10 overflow-hidden rounded-3xl bg-navy-900 p-8 text-white md:p-12 lg:grid-cols-2 lg:items-center"
          data-testid="strategy-cta"
        >
          <div>
            <CmsText
              as="h2"
              text={strategyCta.title}
              id={ctaId}
              className="text-3xl font-bold tracking-tight md:text-4xl"
            />
            <CmsText text={strategyCta.text} className="mt-4 text-lg leading-8 text-navy-100" />
            <div className="mt-8 flex flex-col items-start gap-3">
              <BookConsultationButton source="cta" className={button.gold}>
                <CalendarIcon className="size-5" />
                {t('home.ctaButton')}
              </BookConsultationButton>
              <p className="text-sm text-navy-100">{t('home.ctaNote')}</p>
            </div>
          </div>
          <CheckList
            items={strategyCta.options}
            className="grid gap-3 rounded-2xl bg-white/5 p-6 ring-1 ring-white/10 md:p-8"
            itemClassName="flex gap-3 leading-7 text-white"
            iconClassName="mt-1 size-5 shrink-0 text-gold-400"
          />
        </div>
      </div>
    </section>
  );
}

function Testimonials({ title, testimonials }: { title: string; testimonials: HomeData['testimonials'] }) {
  const { t } = useT('marketing');
  return (
    <PageBand
      title={title}
      className="bg-sand-50 py-16 md:py-24"
      titleClassName={`text-center ${sectionTitle}`}
      testId="testimonials"
    >
      <ul className="mt-12 grid gap-6 lg:grid-cols-3">
        {testimonials.map((item) => (
          <li key={item._id} className="flex" data-testid={`testimonial-${item.key}`}>
            <figure className="flex w-full flex-col rounded-2xl border border-sand-200 bg-white p-6 shadow-sm md:p-8">
              <QuoteIcon className="size-8 text-gold-500" />
              <CmsText as="blockquote" text={item.quote} className="mt-4 flex-1 leading-7 text-navy-800">
                <p>{item.quote}</p>
              </CmsText>
              {item.result && (
                <p className="mt-6 rounded-xl bg-sand-100 px-4 py-3 text-sm text-navy-900">
                  <span className="font-semibold text-gold-700">{t('home.resultLabel')}: </span>
                  <CmsText as="span" text={item.result} />
                </p>
              )}
              <figcaption className="mt-6 flex items-center gap-4 border-t border-sand-200 pt-5">
                {item.image && (
                  <SanityImage
                    image={item.image}
                    width={56}
                    aspect={1}
                    className="size-14 shrink-0 rounded-full object-cover"
                  />
                )}
                <span className="min-w-0">
                  <CmsText as="span" text={item.author} className="block font-semibold text-navy-900" />
                  <CmsText as="span" text={item.position} className="block text-sm text-navy-700" />
                  <CmsText as="span" text={item.company} className="block text-sm font-medium text-navy-700">
                    {(company) => <Bidi>{company}</Bidi>}
                  </CmsText>
                </span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
      <MoreLink to="/case-studies" className={button.outline} testId="case-studies-link">
        {t('home.readCaseStudies')}
      </MoreLink>
    </PageBand>
  );
}

function Statistics({ title, statistics }: { title: string; statistics: HomeData['statistics'] }) {
  return (
    <PageBand title={title} className="bg-white pt-16 md:pt-24" testId="statistics">
      <ul className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
        {statistics.map((stat) => (
          <GridCard key={stat._id} look="statistic" title={stat.label} text={stat.description} testId="statistic">
            <span aria-hidden="true" className="absolute inset-y-0 start-0 w-1 bg-gold-500" />
            <p className="text-4xl font-bold tracking-tight text-navy-900 tabular-nums">
              <Bidi>{stat.value}</Bidi>
            </p>
          </GridCard>
        ))}
      </ul>
    </PageBand>
  );
}
