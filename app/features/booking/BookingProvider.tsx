import { createContext, useCallback, useContext, useMemo, useState } from 'react';

/**
 * Where the booking dialog is opened from, for analytics:
 * hero -> booking_button_clicked + booking_dialog_opened,
 * floating -> floating_meeting_button_clicked + floating_meeting_dialog_opened.
 */
export type BookingSource = 'hero' | 'floating' | 'cta';

type BookingContextValue = { isOpen: boolean; openBooking: (source: BookingSource) => void; closeBooking: () => void; source: BookingSource | null };

const BookingContext = createContext<BookingContextValue | null>(null);

// IN PROGRESS (issue 4): the provider keeps the dialog's state; the dialog itself
// (BookingDialog) is mounted here by the conversion work.
export function BookingProvider({ children }: { children: React.ReactNode }) {
  const [source, setSource] = useState<BookingSource | null>(null);
  const openBooking = useCallback((s: BookingSource) => setSource(s), []);
  const closeBooking = useCallback(() => setSource(null), []);
  const value = useMemo(() => ({ isOpen: source !== null, openBooking, closeBooking, source }), [source, openBooking, closeBooking]);
  return <BookingContext.Provider value={value}>{children}</BookingContext.Provider>;
}

export function useBooking(): BookingContextValue {
  const ctx = useContext(BookingContext);
  if (!ctx) throw new Error('useBooking must be used inside <BookingProvider>');
  return ctx;
}
