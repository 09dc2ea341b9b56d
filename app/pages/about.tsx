import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { CmsText, landingMeta, requestLocale, RouteErrorBoundary, useT } from '~/kit';
import { CheckList, CompassIcon, container, CtaBand, GridCard, PageBand, PageHeading, SparkIcon } from '~/content-kit';
import { SanityImage } from '~/components/SanityImage';
import { RichText } from '~/components/RichText';
import { englishFallbacks, loadQuery, renderRichText } from '~/server-api';
import { ABOUT_QUERY } from '~/sanity/queries/marketing';

export async function loader({ request }: LoaderFunctionArgs) {
  const locale = requestLocale(request);
  const content = await loadQuery(request, ABOUT_QUERY, { lang: locale });
  return { ...content, body: renderRichText(content.body, locale), englishFallbacks: englishFallbacks(request) };
}

export const meta: MetaFunction<typeof loader> = (args) => landingMeta(args, args.data);

export const ErrorBoundary = RouteErrorBoundary;

export default function About() {
  const about = useLoaderData<typeof loader>();
  const { t } = useT('marketing');
  return (
    <div data-testid="about-page">
      <header className="bg-gradient-to-b from-sand-50 to-white pt-12 pb-12 md:pt-20 md:pb-16">
        <div className={`${container} grid gap-10 lg:grid-cols-2 lg:items-center lg:gap-16`}>
          <div>
            <PageHeading title={about.title} intro={about.intro} variant="marketing" />
            {about.claims.length > 0 && (
              <CheckList
                items={about.claims}
                label={t('about.claimsLabel')}
                className="mt-8 grid gap-3 sm:grid-cols-3"
                itemClassName="flex items-start gap-2 rounded-xl border border-sand-200 bg-white p-4 font-semibold leading-snug text-navy-900 shadow-sm"
                iconClassName="mt-0.5 size-5 shrink-0 text-gold-700"
              />
            )}
          </div>
          {about.image && <SanityImage image={about.image} layout="aboutHero" priority />}
        </div>
      </header>

      {about.body.html && (
        <div className={`${container} py-8 md:py-12`}>
          <RichText body={about.body} className="mx-auto max-w-3xl text-lg text-navy-800" />
        </div>
      )}

      {(about.mission || about.vision) && (
        <div className="py-12 md:py-16" data-testid="about-mission-vision">
          <div className={`${container} grid gap-6 md:grid-cols-2`}>
            {(
              [
                {
                  text: about.mission,
                  Icon: CompassIcon,
                  title: t('about.missionTitle'),
                  box: 'bg-navy-900 p-8 text-white',
                  icon: 'text-gold-400',
                  heading: '',
                  body: 'text-navy-100',
                },
                {
                  text: about.vision,
                  Icon: SparkIcon,
                  title: t('about.visionTitle'),
                  box: 'border border-sand-200 bg-sand-50 p-8',
                  icon: 'text-gold-700',
                  heading: ' text-navy-900',
                  body: 'text-navy-700',
                },
              ] as const
            ).map(
              ({ text, Icon, title, box, icon, heading, body }) =>
                text && (
                  <div key={title} className={`rounded-3xl ${box} md:p-10`}>
                    <Icon className={`size-8 ${icon}`} />
                    <h2 className={`mt-4 text-2xl font-bold${heading}`}>{title}</h2>
                    <CmsText text={text} className={`mt-3 text-lg leading-8 ${body}`} />
                  </div>
                ),
            )}
          </div>
        </div>
      )}

      {about.values.length > 0 && (
        <PageBand title={t('about.valuesTitle')} className="bg-sand-50 py-16 md:py-20" testId="about-values">
          <ul className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            {about.values.map((value, i) => (
              <GridCard key={value._key} look="value" title={value.title} text={value.text}>
                <span aria-hidden="true" className="text-sm font-bold text-gold-700 tabular-nums">
                  {String(i + 1).padStart(2, '0')}
                </span>
              </GridCard>
            ))}
          </ul>
        </PageBand>
      )}

      <CtaBand page="about" />
    </div>
  );
}
