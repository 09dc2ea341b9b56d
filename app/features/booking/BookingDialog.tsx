import * as Dialog from '@radix-ui/react-dialog';
import { Link } from '@remix-run/react';
import { useMemo } from 'react';
import { CenteredDialog, DialogCloseButton } from '~/components/CenteredDialog';
import { analytics, useLocale, useT } from '~/kit';
import { BookingWhatsAppLink } from './BookingWhatsAppLink';
import { testBookingPath } from './frame-url';
import { SchedulingFrame } from './SchedulingFrame';

export interface BookingDialogConfig {
  schedulingUrl: string | null;
  bookingWhatsappNumber: string | null;
  bookingWhatsappMessage: string | null;
  siteUrl: string;
  /** Outside production, or when site settings turn it on (decided by the loader). */
  showTestLink: boolean;
}

/** The 'Schedule a Consultation' dialog (docs/requirements.md#chat-and-booking): the scheduling frame, WhatsApp and the test link. */
export function BookingDialog({
  config,
  open,
  onClose,
  returnFocusRef,
}: {
  config: BookingDialogConfig;
  open: boolean;
  onClose: () => void;
  returnFocusRef?: React.RefObject<HTMLElement | null>;
}) {
  const { t } = useT('chat');
  const locale = useLocale();
  // Computed when the dialog opens, so each opening gets fresh test ids.
  const testPath = useMemo(() => (open ? testBookingPath(locale, Date.now()) : ''), [open, locale]);

  return (
    <CenteredDialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      // Without a Radix Trigger, focus goes back to whatever opened the dialog.
      returnFocusRef={returnFocusRef}
      data-testid="booking-dialog"
      className="flex max-h-[calc(100dvh-1rem)] w-[calc(100vw-1rem)] max-w-[600px] flex-col overflow-hidden"
    >
      <div className="flex items-start justify-between gap-4 border-b border-navy-100 px-5 py-4">
        <div>
          <Dialog.Title className="text-xl font-bold text-navy-900">{t('booking.title')}</Dialog.Title>
          <Dialog.Description className="mt-1 text-navy-700">{t('booking.duration')}</Dialog.Description>
        </div>
        <DialogCloseButton label={t('booking.close')} />
      </div>
      {/* On short screens the frame scrolls inside the dialog: reachable by keyboard too. */}
      <div className="min-h-0 flex-1 overflow-y-auto" tabIndex={0} role="region" aria-label={t('booking.frameTitle')}>
        <SchedulingFrame
          schedulingUrl={config.schedulingUrl}
          siteUrl={config.siteUrl}
          className="block h-[600px] w-full border-0"
          loading="lazy"
        />
      </div>
      <div className="space-y-3 border-t border-navy-100 px-5 py-4">
        <p className="text-sm text-navy-700">{t('booking.help')}</p>
        <div className="flex flex-wrap gap-2">
          <BookingWhatsAppLink
            number={config.bookingWhatsappNumber}
            message={config.bookingWhatsappMessage}
            source="booking_dialog"
            onChosen={onClose}
            className="inline-flex min-h-11 items-center gap-2 rounded-full bg-emerald-700 px-5 font-semibold text-white hover:bg-emerald-800"
          />
          {config.showTestLink && (
            <Link
              to={testPath}
              onClick={() => {
                analytics.trackEvent('direct_test_booking_clicked', { source: 'booking_dialog' });
                onClose();
              }}
              className="inline-flex min-h-11 items-center rounded-full border border-navy-200 px-5 font-semibold text-navy-900 hover:bg-navy-50"
            >
              {t('booking.testLink')}
            </Link>
          )}
        </div>
      </div>
    </CenteredDialog>
  );
}
