import { createContext, useContext } from 'react';
import { analytics } from '~/lib/analytics';

// The booking dialog's state, for the controls that open it (BookConsultationButton, the floating
// button). The provider, which also loads the dialog, is BookingProvider.tsx: the page shell's alone.

/**
 * Where the booking dialog is opened from, for analytics:
 * hero -> booking_button_clicked + booking_dialog_opened,
 * floating -> floating_meeting_button_clicked + floating_meeting_dialog_opened.
 * (cta, any other call to action, counts as booking_button_clicked + booking_dialog_opened.)
 */
export type BookingSource = 'hero' | 'floating' | 'cta';

/**
 * The booking view (app/pages/book.tsx): the same frame as the dialog on a page of its own, where
 * every Book a Consultation link leads when JavaScript does not (yet) open the dialog. Here rather
 * than with the frame's URLs (frame-url.ts), which only the dialog and that page need.
 */
export const BOOKING_PATH = '/book';

type BookingContextValue = {
  isOpen: boolean;
  openBooking: (source: BookingSource) => void;
  closeBooking: () => void;
  source: BookingSource | null;
};

export const BookingContext = createContext<BookingContextValue | null>(null);

/** Pushes the click and open events of a source (in the click handler: once per click). */
export function trackBookingOpen(source: BookingSource) {
  if (source === 'floating') {
    analytics.trackEvent('floating_meeting_button_clicked', { source });
    analytics.trackEvent('floating_meeting_dialog_opened', { source });
  } else {
    analytics.trackEvent('booking_button_clicked', { source });
    analytics.trackEvent('booking_dialog_opened', { source });
  }
}

export function useBooking(): BookingContextValue {
  const ctx = useContext(BookingContext);
  if (!ctx) throw new Error('useBooking must be used inside <BookingProvider>');
  return ctx;
}
