import { useCallback, useMemo, useRef, useState } from 'react';
import { deferred, useMountedOnDemand } from '~/lib/deferred';
import type { BookingDialogConfig } from './BookingDialog';
import { BookingContext, trackBookingOpen, type BookingSource } from './booking-context';

// The dialog's code (and Radix's dialog) is fetched when the browser is idle after load, or at the
// first opening if that comes sooner; until a first opening nothing of it is mounted.
const BookingDialog = deferred('booking', () => import('./BookingDialog').then((m) => m.BookingDialog));

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
