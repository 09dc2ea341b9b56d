import { fixedT } from '~/server-api';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { pageMeta, requestLocale, RouteErrorBoundary, useShell, useT } from '~/kit';
import { PageHeading } from '~/content-kit';
// The booking dialog's frame and WhatsApp link: shared with the dialog's deferred code only (one
// chunk for the two), so they are not in every page's first scripts.
import { BookingWhatsAppLink } from '~/features/booking/BookingWhatsAppLink';
import { SchedulingFrame } from '~/features/booking/SchedulingFrame';

/**
 * /book and /ar/book: the booking view (docs/requirements.md#chat-and-booking). What the booking
 * dialog holds, on a page of its own: the scheduling frame (the same address, so the same
 * confirmation redirect), the help line and 'WhatsApp Us'. Every Book a Consultation control is a
 * link here, so booking works before the page's scripts have run and without them; with them, a
 * plain click opens the dialog instead. A public page like the others: the same for every visitor,
 * cached and in the sitemap.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  // Interface text (chat.json), read here because meta has no translator.
  const t = fixedT(requestLocale(request), 'chat');
  return { title: t('booking.pageTitle'), description: t('booking.pageDescription') };
}

export const meta: MetaFunction<typeof loader> = (args) =>
  pageMeta(args, { title: args.data?.title, description: args.data?.description });

export const ErrorBoundary = RouteErrorBoundary;

export default function Book() {
  const { shell, siteUrl } = useShell();
  const { settings } = shell;
  const { t } = useT('chat');
  return (
    <div className="bg-gradient-to-b from-sand-50 to-white" data-testid="booking-page">
      <div className="mx-auto max-w-6xl px-4 pt-10 pb-16 md:px-8 md:pt-16">
        <PageHeading title={t('booking.title')} variant="plain" />
        <p className="mt-4 inline-flex rounded-full bg-white px-4 py-1.5 text-sm font-semibold text-navy-800 ring-1 ring-sand-200">
          {t('booking.duration')}
        </p>
        <p className="mt-4 max-w-2xl text-lg leading-8 text-navy-700">{t('booking.pageIntro')}</p>

        <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start">
          <section
            aria-labelledby="booking-calendar-title"
            className="overflow-hidden rounded-2xl border border-sand-200 bg-white shadow-sm"
          >
            <h2 id="booking-calendar-title" className="sr-only">
              {t('booking.frameTitle')}
            </h2>
            {settings.schedulingUrl ? (
              <SchedulingFrame
                schedulingUrl={settings.schedulingUrl}
                siteUrl={siteUrl}
                // Tall enough for the scheduler's phone layout (day list, then times) without a
                // second scroll bar on most screens; the page scrolls around it.
                className="block h-[700px] w-full border-0"
                loading="eager"
              />
            ) : (
              <p className="p-6 text-navy-800">{t('booking.unavailable')}</p>
            )}
          </section>

          <section
            aria-labelledby="booking-help-title"
            className="rounded-2xl bg-navy-900 p-6 text-white lg:sticky lg:top-6"
            data-testid="booking-help"
          >
            <h2 id="booking-help-title" className="text-xl font-bold">
              {t('booking.helpTitle')}
            </h2>
            <p className="mt-3 leading-7 text-navy-100">{t('booking.help')}</p>
            <BookingWhatsAppLink
              number={settings.bookingWhatsappNumber}
              message={settings.bookingWhatsappMessage}
              source="booking_page"
              className="mt-5 inline-flex min-h-12 items-center gap-2 rounded-full bg-emerald-700 px-6 font-semibold text-white ring-1 ring-white/25 hover:bg-emerald-800"
            />
          </section>
        </div>
      </div>
    </div>
  );
}
