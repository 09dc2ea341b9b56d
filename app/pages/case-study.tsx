import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import {
  CmsText,
  HydrateLater,
  JsonLd,
  localizePath,
  pageMeta,
  PinIcon,
  requestLocale,
  RouteErrorBoundary,
  useFallbackLang,
} from '~/kit';
import { BriefcaseIcon, BuildingIcon, PageHeading, QuoteIcon, TrendUpIcon } from '~/content-kit';
import { imageUrlBuilder } from '~/lib/image';
import {
  ArticleHeader,
  CaseStudyCard,
  CaseStudyCta,
  CoverImage,
  errorMeta,
  ReadNext,
  useInsightsCopy,
} from '~/features/insights/kit';
import { englishFallbacks, imageConfig, insightsT, loadQuery, notFound, siteUrl } from '~/server-api';
import { absoluteUrl, breadcrumbList } from '~/lib/structured-data';
import { CASE_STUDY_QUERY } from '~/sanity/queries/insights';

export async function loader({ request, params }: LoaderFunctionArgs) {
  const locale = requestLocale(request);
  const result = await loadQuery(request, CASE_STUDY_QUERY, { lang: locale, slug: params.slug ?? '' });
  const study = result.study;
  if (!study) throw await notFound(locale);
  const t = await insightsT(locale);
  const url = (path: string) => absoluteUrl(siteUrl(), localizePath(path, locale));
  const listTitle = result.listTitle ?? t('caseStudies.backToAll');
  return {
    study,
    listTitle,
    others: result.others,
    englishFallbacks: englishFallbacks(request),
    shareImage: study.coverImage
      ? absoluteUrl(siteUrl(), imageUrlBuilder(imageConfig())(study.coverImage, 1200, 630))
      : null,
    jsonLd: breadcrumbList([
      { name: t('breadcrumb.home'), url: url('/') },
      { name: listTitle, url: url('/case-studies') },
      { name: study.title, url: url(`/case-studies/${study.slug}`) },
    ]),
  };
}

export const meta: MetaFunction<typeof loader> = (args) => {
  if (!args.data) return errorMeta(args);
  const { study, shareImage } = args.data;
  return pageMeta(args, {
    title: study.seo.title || study.title,
    description: study.seo.description ?? study.excerpt,
    image: shareImage,
  });
};

export const ErrorBoundary = RouteErrorBoundary;

function Fact({
  icon,
  label,
  value,
  testId,
}: {
  icon: React.ReactNode;
  label: string;
  value: string | null;
  testId: string;
}) {
  const inEnglish = useFallbackLang();
  if (!value) return null;
  return (
    <div className="relative rounded-2xl border border-sand-200 bg-white py-4 ps-16 pe-4" data-testid={testId}>
      <dt className="text-xs font-semibold tracking-wide text-navy-700">
        <span
          aria-hidden="true"
          className="absolute start-4 top-4 flex size-9 items-center justify-center rounded-full bg-sand-100 text-gold-700"
        >
          {icon}
        </span>
        {label}
      </dt>
      <dd className="mt-1 font-medium text-navy-900" {...inEnglish(value)}>
        {value}
      </dd>
    </div>
  );
}

export default function CaseStudy() {
  const { study, listTitle, others, jsonLd } = useLoaderData<typeof loader>();
  const { t, inEnglish } = useInsightsCopy();
  return (
    <>
      <article data-testid="case-study">
        <ArticleHeader section="caseStudies" sectionTitle={listTitle} trail={[{ label: study.title }]}>
          <CmsText text={study.industry} className="mt-8 text-sm font-semibold tracking-wide text-gold-700" />
          <PageHeading title={study.title} intro={study.excerpt} variant="caseStudy" />
          <h2 className="sr-only">{t('caseStudies.overview')}</h2>
          <dl className="mt-8 grid gap-3 md:grid-cols-3">
            <Fact
              testId="case-client"
              icon={<BriefcaseIcon className="size-5" />}
              label={t('caseStudies.client')}
              value={study.client}
            />
            <Fact
              testId="case-industry"
              icon={<BuildingIcon className="size-5" />}
              label={t('caseStudies.industry')}
              value={study.industry}
            />
            <Fact
              testId="case-location"
              icon={<PinIcon className="size-5" />}
              label={t('caseStudies.location')}
              value={study.location}
            />
          </dl>
        </ArticleHeader>

        {study.coverImage && <CoverImage image={study.coverImage} />}

        {/* Below the header, each part hydrates apart from the page (HydrateLater). */}
        <HydrateLater>
          <div className="mx-auto grid w-full max-w-5xl gap-10 px-4 py-10 md:grid-cols-2 md:px-8 md:py-14">
            {(
              [
                ['challenge', 'bg-gold-500', study.challenge],
                ['solution', 'bg-navy-700', study.solution],
              ] as const
            ).map(([id, barClassName, text]) => (
              <Narrative
                key={id}
                id={id}
                testId={`case-${id}`}
                barClassName={barClassName}
                title={t(`caseStudies.${id}`)}
                text={text}
              />
            ))}
          </div>
        </HydrateLater>

        <HydrateLater>
          <section aria-labelledby="results" className="bg-sand-50" data-testid="case-results">
            <div className="mx-auto w-full max-w-5xl px-4 py-10 md:px-8 md:py-14">
              <h2 id="results" className="text-2xl font-bold text-navy-900">
                {t('caseStudies.results')}
              </h2>
              <ul className="mt-6 grid gap-4 sm:grid-cols-2">
                {study.results.map((result) => (
                  <li key={result._key} className="flex gap-4 rounded-2xl border border-sand-200 bg-white p-5">
                    <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-navy-900 text-gold-300">
                      <TrendUpIcon className="size-5" />
                    </span>
                    <p className="self-center font-semibold leading-snug text-navy-900" {...inEnglish(result.text)}>
                      {result.text}
                    </p>
                  </li>
                ))}
              </ul>
            </div>
          </section>
        </HydrateLater>

        {study.testimonial?.quote && (
          <HydrateLater>
            <section aria-labelledby="testimonial" className="mx-auto w-full max-w-4xl px-4 py-12 md:px-8 md:py-16">
              <h2 id="testimonial" className="sr-only">
                {t('caseStudies.testimonial')}
              </h2>
              <figure
                data-testid="case-testimonial"
                className="relative rounded-3xl bg-navy-900 px-6 py-10 text-white md:px-12"
              >
                <QuoteIcon className="size-10 text-gold-400 rtl:-scale-x-100" />
                <blockquote className="mt-4 text-xl leading-relaxed md:text-2xl md:leading-relaxed">
                  <p {...inEnglish(study.testimonial.quote)}>{study.testimonial.quote}</p>
                </blockquote>
                <figcaption className="mt-6 border-t border-white/20 pt-5">
                  <p className="font-semibold" {...inEnglish(study.testimonial.author)}>
                    {study.testimonial.author}
                  </p>
                  {study.testimonial.position && (
                    <p className="text-navy-100" {...inEnglish(study.testimonial.position)}>
                      {study.testimonial.position}
                    </p>
                  )}
                </figcaption>
              </figure>
            </section>
          </HydrateLater>
        )}
      </article>

      {others.length > 0 && (
        <HydrateLater>
          <ReadNext title={t('caseStudies.more')}>
            <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {others.map((other) => (
                <li key={other._id} className="flex">
                  <CaseStudyCard study={other} headingLevel={3} compact />
                </li>
              ))}
            </ul>
          </ReadNext>
        </HydrateLater>
      )}

      <CaseStudyCta />
      <JsonLd data={jsonLd} />
    </>
  );
}

/** One part of the story (the challenge, the solution): a heading with a coloured bar and its paragraph. */
function Narrative({
  id,
  testId,
  barClassName,
  title,
  text,
}: {
  id: string;
  testId: string;
  barClassName: string;
  title: string;
  text: string | null;
}) {
  const inEnglish = useFallbackLang();
  return (
    <section aria-labelledby={id} data-testid={testId}>
      <h2 id={id} className="flex items-center gap-3 text-2xl font-bold text-navy-900">
        <span aria-hidden="true" className={`h-8 w-1 rounded-full ${barClassName}`} />
        {title}
      </h2>
      <p className="mt-4 text-[1.0625rem] leading-8 text-navy-800" {...inEnglish(text)}>
        {text}
      </p>
    </section>
  );
}
