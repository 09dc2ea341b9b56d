import { PinIcon } from '~/components/icons';
import { ArrowForwardIcon, BriefcaseIcon } from '~/components/page-icons';
import { CmsText } from '~/components/CmsText';
import { BookConsultationButton } from '~/features/booking/BookConsultationButton';
import { useT } from '~/lib/locale';
import type { CaseStudyCard as CaseStudyCardData } from '~/sanity/queries/insights';
import { useInsightsCopy } from '~/features/insights/use-insights-copy';
import { CardCue, CardTitle, InsightCard } from '~/features/insights/Card';

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
  return (
    <InsightCard
      testId="case-study-card"
      cover={study.coverImage}
      layout={compact ? 'caseStudyCardCompact' : 'caseStudyCard'}
      priority={priority}
    >
      <div className="flex flex-1 flex-col p-5 md:p-7">
        <CmsText text={study.industry} className="text-sm font-semibold text-gold-700" />
        <CardTitle
          as={`h${headingLevel}`}
          to={localize(`/case-studies/${study.slug}`)}
          title={study.title}
          className={`mt-2 font-bold leading-snug text-navy-900 ${compact ? 'text-lg' : 'text-xl md:text-2xl'}`}
        />
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
        {!compact && <CmsText text={study.excerpt} className="mt-4 text-navy-700" />}
        <CardCue label={t('caseStudies.read')} className="mt-auto pt-5" />
      </div>
    </InsightCard>
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
