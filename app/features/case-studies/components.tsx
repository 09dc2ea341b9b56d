import { ArrowForwardIcon, BriefcaseIcon, PinIcon } from '~/components/icons';
import { SanityImage } from '~/components/SanityImage';
import { BookConsultationButton } from '~/features/booking/BookConsultationButton';
import { useT } from '~/lib/locale';
import type { CaseStudyCard as CaseStudyCardData } from '~/sanity/queries/insights';
import { useInsightsCopy } from '~/features/insights/use-insights-copy';
import { CardLink } from '~/features/insights/CardLink';

const SIZES = '(min-width: 1280px) 600px, (min-width: 768px) 50vw, 100vw';

/** A case study card; the title's link covers the card (one tab stop). */
export function CaseStudyCard({
  study,
  headingLevel = 2,
  compact,
  priority,
}: {
  study: CaseStudyCardData;
  headingLevel?: 2 | 3;
  compact?: boolean;
  priority?: boolean;
}) {
  const { t, localize, inEnglish } = useInsightsCopy();
  const Heading = `h${headingLevel}` as const;
  return (
    <article
      data-testid="case-study-card"
      className="group relative flex flex-col overflow-hidden rounded-2xl border border-sand-200 bg-white shadow-sm transition hover:shadow-md focus-within:shadow-md"
    >
      {study.coverImage && (
        <SanityImage
          image={study.coverImage}
          priority={priority}
          width={compact ? 480 : 720}
          aspect={16 / 9}
          sizes={compact ? '(min-width: 1024px) 400px, (min-width: 640px) 50vw, 100vw' : SIZES}
          className="aspect-video h-auto w-full bg-sand-100 object-cover"
        />
      )}
      <div className="flex flex-1 flex-col p-5 md:p-7">
        {study.industry && (
          <p className="text-sm font-semibold text-gold-700" {...inEnglish(study.industry)}>
            {study.industry}
          </p>
        )}
        <Heading
          className={`mt-2 font-bold leading-snug text-navy-900 ${compact ? 'text-lg' : 'text-xl md:text-2xl'}`}
          {...inEnglish(study.title)}
        >
          <CardLink to={localize(`/case-studies/${study.slug}`)}>{study.title}</CardLink>
        </Heading>
        {!compact && (
          <ul className="mt-3 flex flex-col gap-1.5 text-sm text-navy-700">
            {(
              [
                ['client', BriefcaseIcon, study.client],
                ['location', PinIcon, study.location],
              ] as const
            ).map(
              ([field, Icon, value]) =>
                value && (
                  <li key={field} className="flex gap-2">
                    <Icon className="mt-0.5 size-4 shrink-0 text-navy-500" />
                    <span>
                      <span className="sr-only">{t(`caseStudies.${field}`)}: </span>
                      <span {...inEnglish(value)}>{value}</span>
                    </span>
                  </li>
                ),
            )}
          </ul>
        )}
        {study.excerpt && !compact && (
          <p className="mt-4 text-navy-700" {...inEnglish(study.excerpt)}>
            {study.excerpt}
          </p>
        )}
        <span aria-hidden="true" className="mt-auto inline-flex items-center gap-2 pt-5 font-semibold text-navy-900">
          {t('caseStudies.read')}
          <ArrowForwardIcon className="size-4 text-gold-700" />
        </span>
      </div>
    </article>
  );
}

/** The closing call to action: opens the consultation booking dialog. */
export function CaseStudyCta() {
  const { t } = useT('insights');
  return (
    <section aria-labelledby="case-cta" className="mx-auto w-full max-w-7xl px-4 pb-12 md:px-8 md:pb-16">
      <div className="flex flex-col items-start gap-6 rounded-3xl border border-sand-200 bg-sand-100 px-6 py-8 md:flex-row md:items-center md:justify-between md:px-10 md:py-10">
        <div className="max-w-2xl">
          <h2 id="case-cta" className="text-2xl font-bold text-navy-900 md:text-3xl">
            {t('caseStudies.ctaTitle')}
          </h2>
          <p className="mt-3 text-lg text-navy-800">{t('caseStudies.ctaText')}</p>
        </div>
        <BookConsultationButton
          source="cta"
          className="inline-flex min-h-12 shrink-0 items-center gap-2 rounded-full bg-navy-900 px-7 font-semibold text-white hover:bg-navy-800"
        >
          {t('caseStudies.ctaButton')}
          <ArrowForwardIcon className="size-4" />
        </BookConsultationButton>
      </div>
    </section>
  );
}
