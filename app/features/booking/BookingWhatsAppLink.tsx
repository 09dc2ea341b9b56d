import { whatsappUrl } from '~/features/chat/whatsapp-url';
import { analytics } from '~/lib/analytics';
import { useT } from '~/lib/locale';

/**
 * 'WhatsApp Us' of the booking dialog and the booking view: a link to the booking chat (its own
 * fixed number and message) in a new tab, so it works before and without JavaScript and no popup
 * blocker stands in its way. With JavaScript a click also pushes whatsapp_booking_clicked and runs
 * `onChosen` (the dialog closes); the browser opens the tab itself. Nothing when no number is set.
 */
export function BookingWhatsAppLink({
  number,
  message,
  source,
  onChosen,
  className,
}: {
  number: string | null;
  message: string | null;
  /** Where it was chosen, for analytics: the dialog or the booking view. */
  source: 'booking_dialog' | 'booking_page';
  onChosen?: () => void;
  className: string;
}) {
  const { t } = useT('chat');
  if (!number) return null;
  return (
    <a
      href={whatsappUrl(number, message ?? '')}
      target="_blank"
      rel="noopener noreferrer"
      data-testid="booking-whatsapp"
      onClick={() => {
        analytics.trackEvent('whatsapp_booking_clicked', { source });
        onChosen?.();
      }}
      className={className}
    >
      {t('booking.whatsapp')}
      <span className="sr-only"> {t('newTab')}</span>
    </a>
  );
}
