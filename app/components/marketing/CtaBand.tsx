import { Link } from '@remix-run/react';
import { CalendarIcon } from '~/components/icons';
import { ArrowForwardIcon } from '~/components/page-icons';
import { BookConsultationButton } from '~/features/booking/BookConsultationButton';
import { useLocalizePath, useT } from '~/lib/locale';
import { button, container, lead } from './ui';
import { CmsText } from '~/components/CmsText';

/**
 * The closing band of each marketing page that has one: its heading and line, and the page its
 * second link leads to with that link's label (keys of the marketing texts).
 */
const BANDS = {
  about: { title: 'about.ctaTitle', text: 'about.ctaText', to: '/services', label: 'about.exploreServices' },
  services: { title: 'services.ctaTitle', text: 'services.ctaText', to: '/pricing', label: 'services.comparePackages' },
  pricing: { title: 'pricing.helpTitle', text: 'pricing.helpText', to: '/faq', label: 'pricing.faqLink' },
};

type Props = {
  /** Whose band: its texts and link come from BANDS; its heading's id is `<page>-cta-title`. */
  page: keyof typeof BANDS;
  /** The band's background, where it is not the page's white. */
  className?: string;
};

/** The closing band of a page: a heading, a line, 'Book a consultation' and one more way on. */
export function CtaBand({ page, className = '' }: Props) {
  const { t } = useT('marketing');
  const localize = useLocalizePath();
  const band = BANDS[page];
  const id = `${page}-cta-title`;
  return (
    <section aria-labelledby={id} className={`py-16 md:py-20 ${className}`}>
      <div className={`${container} flex flex-col items-start gap-6 md:flex-row md:items-center md:justify-between`}>
        <div className="max-w-2xl">
          <CmsText as="h2" text={t(band.title)} id={id} className="text-2xl font-bold text-navy-900 md:text-3xl" />
          <CmsText text={t(band.text)} className={`mt-3 ${lead}`} />
        </div>
        <div className="flex flex-col gap-3 sm:flex-row">
          <BookConsultationButton source="cta" className={button.gold}>
            <CalendarIcon className="size-5" />
            {t('bookConsultation')}
          </BookConsultationButton>
          <Link to={localize(band.to)} className={button.outline}>
            <CmsText as="span" text={t(band.label)} />
            <ArrowForwardIcon className="size-5" />
          </Link>
        </div>
      </div>
    </section>
  );
}
