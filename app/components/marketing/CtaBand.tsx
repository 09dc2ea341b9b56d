import { Link } from '@remix-run/react';
import { ArrowForwardIcon, CalendarIcon } from '~/components/icons';
import { BookConsultationButton } from '~/features/booking/BookConsultationButton';
import { useLocalizePath, useT } from '~/lib/locale';
import { button, container, lead } from './ui';
import { CmsText } from '~/components/CmsText';

type Props = { id: string; title: string; text: string; link: { href: string; label: string }; className?: string };

/** The closing band of a page: a heading, a line, 'Book a consultation' and one more way on. */
export function CtaBand({ id, title, text, link, className = '' }: Props) {
  const { t } = useT('marketing');
  const localize = useLocalizePath();
  return (
    <section aria-labelledby={id} className={`py-16 md:py-20 ${className}`}>
      <div className={`${container} flex flex-col items-start gap-6 md:flex-row md:items-center md:justify-between`}>
        <div className="max-w-2xl">
          <CmsText as="h2" text={title} id={id} className="text-2xl font-bold text-navy-900 md:text-3xl" />
          <CmsText text={text} className={`mt-3 ${lead}`} />
        </div>
        <div className="flex flex-col gap-3 sm:flex-row">
          <BookConsultationButton source="cta" className={button.gold}>
            <CalendarIcon className="size-5" />
            {t('bookConsultation')}
          </BookConsultationButton>
          <Link to={localize(link.href)} className={button.outline}>
            <CmsText as="span" text={link.label} />
            <ArrowForwardIcon className="size-5" />
          </Link>
        </div>
      </div>
    </section>
  );
}
