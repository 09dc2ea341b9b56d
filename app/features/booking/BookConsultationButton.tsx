import { useLocalizePath } from '~/lib/locale';
import { BOOKING_PATH, useBooking, type BookingSource } from './booking-context';
import { isPlainClick } from './plain-click';

/**
 * Book a Consultation (hero, calls to action, pricing, case studies): a link to the booking view
 * (/book, /ar/book), styled as a button through className. It works before the page's scripts
 * have run and without them; once they have, a plain click opens the booking dialog instead
 * (with its analytics events), while a middle, Ctrl/Cmd or Shift click still opens the view in a
 * new tab or window.
 */
export function BookConsultationButton({
  source,
  className,
  children,
}: {
  source: BookingSource;
  className?: string;
  children: React.ReactNode;
}) {
  const { openBooking } = useBooking();
  const localize = useLocalizePath();
  return (
    <a
      href={localize(BOOKING_PATH)}
      className={className}
      data-testid={`book-${source}`}
      onClick={(event) => {
        if (!isPlainClick(event)) return;
        event.preventDefault();
        openBooking(source);
      }}
    >
      {children}
    </a>
  );
}
