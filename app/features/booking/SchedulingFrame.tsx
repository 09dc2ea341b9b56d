import { useMemo } from 'react';
import { useLocale, useT } from '~/lib/locale';
import { bookingFrameUrl } from './frame-url';

/**
 * The scheduling service's frame, shared by the booking dialog and the booking view so that both
 * send the same address (docs/requirements.md#chat-and-booking). Nothing is rendered when the
 * site settings carry no usable scheduling URL.
 */
export function SchedulingFrame({
  schedulingUrl,
  siteUrl,
  className,
  loading,
}: {
  schedulingUrl: string | null;
  siteUrl: string;
  className: string;
  /** Lazy in the dialog (rendered before it is seen); eager where it is the page's main content. */
  loading: 'lazy' | 'eager';
}) {
  const { t } = useT('chat');
  const locale = useLocale();
  const src = useMemo(() => bookingFrameUrl({ schedulingUrl, siteUrl, locale }), [schedulingUrl, siteUrl, locale]);
  if (!src) return null;
  return (
    <iframe
      src={src}
      title={t('booking.frameTitle')}
      data-testid="booking-frame"
      className={className}
      loading={loading}
      referrerPolicy="strict-origin-when-cross-origin"
    />
  );
}
