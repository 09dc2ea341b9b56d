import { createContext, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { analytics } from '~/lib/analytics';
import { deferred, useMountedOnDemand } from '~/lib/deferred';
import type { BookingDialogConfig } from './BookingDialog';

// The dialog's code (and Radix's dialog) is fetched when the browser is idle after load, or at the
// first opening if that comes sooner; until a first opening nothing of it is mounted.
const BookingDialog = deferred('booking', () => import('./BookingDialog').then((m) => m.BookingDialog));

/**
 * Where the booking dialog is opened from, for analytics:
 * hero -> booking_button_clicked + booking_dialog_opened,
 * floating -> floating_meeting_button_clicked + floating_meeting_dialog_opened.
 * (cta, any other call to action, counts as booking_button_clicked + booking_dialog_opened.)
 */
export type BookingSource = 'hero' | 'floating' | 'cta';

type BookingContextValue = {
  isOpen: boolean;
  openBooking: (source: BookingSource) => void;
  closeBooking: () => void;
  source: BookingSource | null;
};

const BookingContext = createContext<BookingContextValue | null>(null);

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

/** Keeps the booking dialog's state and mounts the dialog (config from the page shell's loader). */
export function BookingProvider({ children, config }: { children: React.ReactNode; config?: BookingDialogConfig }) {
  const [source, setSource] = useState<BookingSource | null>(null);
  // The control that opened the dialog gets focus back when it closes.
  const openerRef = useRef<HTMLElement | null>(null);
  const openBooking = useCallback((s: BookingSource) => {
    trackBookingOpen(s);
    openerRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setSource(s);
  }, []);
  const closeBooking = useCallback(() => setSource(null), []);
  const mounted = useMountedOnDemand(source !== null, BookingDialog);
  const value = useMemo(
    () => ({ isOpen: source !== null, openBooking, closeBooking, source }),
    [source, openBooking, closeBooking],
  );
  return (
    <BookingContext.Provider value={value}>
      {children}
      {config && mounted && (
        <BookingDialog config={config} open={source !== null} onClose={closeBooking} returnFocusRef={openerRef} />
      )}
    </BookingContext.Provider>
  );
}

export function useBooking(): BookingContextValue {
  const ctx = useContext(BookingContext);
  if (!ctx) throw new Error('useBooking must be used inside <BookingProvider>');
  return ctx;
}
