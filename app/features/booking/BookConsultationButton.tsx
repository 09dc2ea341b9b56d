import { useBooking, type BookingSource } from './BookingProvider';

/** A button that opens the booking dialog; style it through className. */
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
  return (
    <button type="button" className={className} data-testid={`book-${source}`} onClick={() => openBooking(source)}>
      {children}
    </button>
  );
}
