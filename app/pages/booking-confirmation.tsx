import { englishFallbacks, loadQuery } from '~/server-api';
import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import {
  CheckIcon,
  intlLocale,
  latinTextLang,
  type Locale,
  pageMeta,
  PillLink,
  requestLocale,
  RouteErrorBoundary,
  useLocale,
  useLocalizePath,
  useT,
} from '~/kit';
import { ArrowForwardIcon, PageHeading, TitledSection } from '~/content-kit';
import { hasSummary, parseBookingParams, type BookingDetails } from '~/features/booking-confirmation/params';
import { BOOKING_CONFIRMATION_QUERY } from '~/sanity/queries/site';

/**
 * /booking-confirmation, /booking-confirmation/ and /booking-confirmation/{id}: where the
 * scheduling service sends the visitor after booking. Shows Confirmed, a summary of what
 * the redirect parameters carried (validated; anything doubtful is left out) and the next
 * steps. Not indexed, never cached: the URL can hold the visitor's name and email.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const locale = requestLocale(request);
  const details = parseBookingParams(url.searchParams, params.bookingId);
  const page = await loadQuery(request, BOOKING_CONFIRMATION_QUERY, { lang: locale });
  return { page, details, summary: hasSummary(details), englishFallbacks: englishFallbacks(request) };
}

export const headers: HeadersFunction = () => ({
  'Cache-Control': 'private, no-store',
  'X-Robots-Tag': 'noindex, nofollow',
  'Referrer-Policy': 'no-referrer',
});

export const meta: MetaFunction<typeof loader> = (args) => {
  const base = args.location.pathname.startsWith('/ar') ? '/ar/booking-confirmation' : '/booking-confirmation';
  return pageMeta(
    { matches: args.matches, location: { ...args.location, pathname: base, search: '', hash: '' } },
    {
      title: args.data?.page?.seo.title ?? args.data?.page?.title,
      description: args.data?.page?.seo.description,
      noindex: true,
    },
  );
};

export const ErrorBoundary = RouteErrorBoundary;

const TIME_ZONE = 'Asia/Dubai';

function formatWhen(details: BookingDetails, locale: Locale): string | null {
  if (!details.startTime) return null;
  const format = new Intl.DateTimeFormat(intlLocale[locale], {
    dateStyle: 'full',
    timeStyle: 'short',
    timeZone: TIME_ZONE,
  });
  const start = new Date(details.startTime);
  return details.endTime ? format.formatRange(start, new Date(details.endTime)) : format.format(start);
}

function SummaryRow({ label, children, testId }: { label: string; children: React.ReactNode; testId: string }) {
  return (
    <div className="grid gap-1 border-b border-sand-200 py-3 last:border-b-0 sm:grid-cols-[12rem_1fr] sm:gap-4">
      <dt className="text-sm font-semibold text-navy-700">{label}</dt>
      <dd className="break-words text-navy-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** A person's name from the booking (Latin or Arabic script), when the scheduler sent one. */
function NameRow({ label, testId, name }: { label: string; testId: string; name?: string | null }) {
  const locale = useLocale();
  if (!name) return null;
  return (
    <SummaryRow label={label} testId={testId}>
      <bdi {...latinTextLang(locale, name)}>{name}</bdi>
    </SummaryRow>
  );
}

export default function BookingConfirmation() {
  const { page, details, summary } = useLoaderData<typeof loader>();
  const { t } = useT('site');
  const locale = useLocale();
  const localize = useLocalizePath();
  const when = formatWhen(details, locale);
  const steps = [t('booking.step1'), t('booking.step2'), t('booking.step3'), t('booking.step4')];
  return (
    <div className="bg-gradient-to-b from-sand-50 to-white">
      <div className="mx-auto max-w-3xl px-4 pt-12 pb-16 md:px-8 md:pt-16">
        <p
          className="inline-flex items-center gap-2 rounded-full bg-emerald-50 px-4 py-2 text-sm font-semibold text-emerald-800 ring-1 ring-emerald-200"
          data-testid="booking-status"
        >
          <span className="grid size-6 place-items-center rounded-full bg-emerald-700 text-white">
            <CheckIcon className="size-4" />
          </span>
          <span>
            <span className="sr-only">{t('booking.statusLabel')}: </span>
            {t('booking.confirmed')}
          </span>
        </p>
        {page && <PageHeading title={page.title} intro={page.intro} variant="plain" className="mt-6" />}

        {details.debug && (
          <div
            role="note"
            className="mt-8 rounded-2xl border border-gold-500 bg-sand-100 px-5 py-4 text-navy-900"
            data-testid="booking-test-notice"
          >
            <p className="font-semibold">{t('booking.testNotice')}</p>
            {details.source && (
              <p className="mt-1 text-sm text-navy-700">
                {t('booking.testSourceLabel')}: <bdi dir="ltr">{details.source}</bdi>
              </p>
            )}
          </div>
        )}

        <TitledSection
          title={t('booking.summaryTitle')}
          className="mt-10 rounded-2xl border border-sand-200 bg-white p-5 shadow-sm md:p-8"
        >
          <dl className="mt-4" data-testid="booking-summary">
            <SummaryRow label={t('booking.statusLabel')} testId="booking-summary-status">
              <span className="font-semibold text-emerald-800">{t('booking.confirmed')}</span>
            </SummaryRow>
            <SummaryRow label={t('booking.consultation')} testId="booking-summary-event">
              {details.eventTypeName ? (
                <bdi {...latinTextLang(locale, details.eventTypeName)}>{details.eventTypeName}</bdi>
              ) : (
                t('booking.defaultConsultation')
              )}
            </SummaryRow>
            {when && (
              <SummaryRow label={t('booking.when')} testId="booking-summary-when">
                <time dateTime={details.startTime}>{when}</time>{' '}
                <span className="text-sm text-navy-700">({t('booking.timeZoneNote')})</span>
              </SummaryRow>
            )}
            <NameRow label={t('booking.name')} testId="booking-summary-name" name={details.inviteeName} />
            {details.inviteeEmail && (
              <SummaryRow label={t('booking.email')} testId="booking-summary-email">
                <bdi dir="ltr">{details.inviteeEmail}</bdi>
              </SummaryRow>
            )}
            <NameRow label={t('booking.advisor')} testId="booking-summary-advisor" name={details.assignedTo} />
            {details.bookingId && (
              <SummaryRow label={t('booking.reference')} testId="booking-summary-reference">
                <bdi dir="ltr" className="font-mono text-sm">
                  {details.bookingId}
                </bdi>
              </SummaryRow>
            )}
          </dl>
          {!summary && <p className="mt-4 text-navy-700">{t('booking.noDetails')}</p>}
        </TitledSection>

        <TitledSection title={t('booking.nextStepsTitle')} className="mt-10">
          <ol className="mt-4 space-y-3">
            {steps.map((step, i) => (
              <li key={i} className="flex gap-4 rounded-2xl bg-sand-50 p-4">
                <span
                  aria-hidden="true"
                  className="grid size-8 shrink-0 place-items-center rounded-full bg-navy-900 text-sm font-bold text-white"
                >
                  {new Intl.NumberFormat(intlLocale[locale]).format(i + 1)}
                </span>
                <span className="self-center leading-7 text-navy-800">{step}</span>
              </li>
            ))}
          </ol>
        </TitledSection>

        <div className="mt-10 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
          <PillLink to={localize('/')} className="justify-center gap-2">
            {t('booking.backHome')}
            <ArrowForwardIcon className="size-4" />
          </PillLink>
          {(
            [
              ['/services', 'booking.exploreServices'],
              ['/faq', 'booking.readFaq'],
            ] as const
          ).map(([path, key]) => (
            <PillLink key={path} to={localize(path)} variant="secondary" className="justify-center bg-white">
              {t(key)}
            </PillLink>
          ))}
        </div>
      </div>
    </div>
  );
}
