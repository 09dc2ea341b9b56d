import type { InvoiceStatus, SubscriptionView } from '~/billing/types';
import { Bidi } from '~/components/marketing/Bidi';
import { useT } from '~/lib/locale';
import { useFormatDate } from './shared';

type SummarySubscription = Pick<
  SubscriptionView,
  'status' | 'cancelAtPeriodEnd' | 'currentPeriodEnd' | 'endedAt' | 'card'
>;

const tone = {
  green: 'bg-emerald-50 text-emerald-800 ring-emerald-600/30',
  amber: 'bg-amber-50 text-amber-900 ring-amber-600/40',
  red: 'bg-red-50 text-red-800 ring-red-600/30',
  grey: 'bg-navy-50 text-navy-800 ring-navy-500/30',
} as const;

function Badge({ color, children, testId }: { color: keyof typeof tone; children: React.ReactNode; testId?: string }) {
  return (
    <span
      data-testid={testId}
      className={`inline-flex items-center rounded-full px-3 py-0.5 text-sm font-semibold ring-1 ring-inset ${tone[color]}`}
    >
      {children}
    </span>
  );
}

/** The subscription's status in words: Active, Cancelling (with the end date), Past due, Cancelled. */
export function SubscriptionStatusBadge({ subscription }: { subscription: SummarySubscription }) {
  const { t } = useT('portal');
  const date = useFormatDate();
  if (subscription.status === 'canceled')
    return (
      <Badge color="grey" testId="subscription-status">
        {t('status.canceled')}
      </Badge>
    );
  if (subscription.cancelAtPeriodEnd)
    return (
      <Badge color="amber" testId="subscription-status">
        {t('status.cancelling', { date: date(subscription.currentPeriodEnd) })}
      </Badge>
    );
  if (subscription.status === 'past_due')
    return (
      <Badge color="red" testId="subscription-status">
        {t('status.past_due')}
      </Badge>
    );
  return (
    <Badge color="green" testId="subscription-status">
      {t('status.active')}
    </Badge>
  );
}

const invoiceTone: Record<InvoiceStatus, keyof typeof tone> = {
  paid: 'green',
  open: 'amber',
  void: 'grey',
  uncollectible: 'red',
};

export function InvoiceStatusBadge({ status }: { status: InvoiceStatus }) {
  const { t } = useT('portal');
  return (
    <Badge color={invoiceTone[status]} testId="invoice-status">
      {t(`invoiceStatus.${status}`)}
    </Badge>
  );
}

/**
 * The plan at a glance: name, status, the next billing date (or the end of access when it is
 * cancelling, or the day it ended) and the monthly payment.
 */
export function SubscriptionSummary({
  subscription,
  planName,
  amount,
}: {
  subscription: SummarySubscription;
  planName: string;
  amount: string | null;
}) {
  const { t } = useT('portal');
  const date = useFormatDate();
  const row =
    'flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 border-b border-navy-100 py-3 last:border-b-0';
  const dateLabel =
    subscription.status === 'canceled'
      ? t('summary.endedOn')
      : subscription.cancelAtPeriodEnd
        ? t('summary.accessUntil')
        : t('summary.nextBilling');
  const dateValue =
    subscription.status === 'canceled'
      ? (subscription.endedAt ?? subscription.currentPeriodEnd)
      : subscription.currentPeriodEnd;
  return (
    <dl data-testid="subscription-summary" className="text-navy-900">
      <div className={row}>
        <dt className="text-navy-700">{t('summary.plan')}</dt>
        <dd className="text-lg font-bold" data-testid="summary-plan">
          {planName}
        </dd>
      </div>
      <div className={row}>
        <dt className="text-navy-700">{t('summary.status')}</dt>
        <dd>
          <SubscriptionStatusBadge subscription={subscription} />
        </dd>
      </div>
      {subscription.cancelAtPeriodEnd && subscription.status !== 'canceled' && (
        <div className={row}>
          <dt className="text-navy-700">{t('summary.nextBilling')}</dt>
          <dd className="font-semibold">{t('summary.noFurtherBilling')}</dd>
        </div>
      )}
      <div className={row}>
        <dt className="text-navy-700">{dateLabel}</dt>
        <dd className="font-semibold" data-testid="summary-date">
          {date(dateValue)}
        </dd>
      </div>
      {amount && (
        <div className={row}>
          <dt className="text-navy-700">{t('summary.monthly')}</dt>
          <dd className="font-semibold tabular-nums" data-testid="summary-amount">
            <Bidi>{amount}</Bidi>
          </dd>
        </div>
      )}
      {subscription.card && (
        <div className={row}>
          <dt className="text-navy-700">{t('summary.card')}</dt>
          <dd className="font-semibold">
            {t('summary.cardValue', { brand: subscription.card.brand, last4: subscription.card.last4 })}
          </dd>
        </div>
      )}
    </dl>
  );
}
