import {
  assertSafePost,
  confirmCheckoutReturn,
  CSRF_FIELD,
  data,
  portalT,
  readPostedForm,
  requireClient,
  subscriptionAction,
  subscriptionPage,
} from '~/server-api';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { useRef } from 'react';
import { isPlanKey } from '~/billing/types';
import { requestLocale, RouteErrorBoundary, useLocalizePath, useT } from '~/kit';
import { button, TitledSection, titleStyle } from '~/content-kit';
import { BillingHistory, INVOICE_CURSOR_PARAM } from '~/features/portal/InvoiceTable';
import {
  CancelForm,
  card,
  ChangePlanForm,
  type Csrf,
  IntentButton,
  MessageBanner,
  pageHeader,
  pageTitle,
  portalContainer,
  portalMeta,
  SubscriptionSummary,
  textLink,
  type UiMessage,
  useFormatDate,
} from '~/features/portal/kit';
import { StepDialog } from '~/features/portal/StepDialog';
import { WelcomeMessage } from '~/features/portal/WelcomeDialog';
import type { SubscriptionAction } from '~/portal/service.server';

/**
 * /account/subscription: the current plan and its status, plan change and cancellation (dialogs
 * with JavaScript, ?step= sections without), resume and withdraw, the payment-success message
 * after checkout, and the billing history.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  // Back from Stripe Checkout: the account exists before the sign-in that may follow.
  await confirmCheckoutReturn(request);
  const session = await requireClient(request);
  const url = new URL(request.url);
  const locale = requestLocale(request);
  const [page, t] = await Promise.all([
    subscriptionPage(session, locale, url.searchParams.get(INVOICE_CURSOR_PARAM)),
    portalT(locale),
  ]);
  const csrf: Csrf = { name: CSRF_FIELD, value: session.csrfToken };
  return { ...page, csrf, welcome: url.searchParams.get('welcome') === '1', title: t('meta.subscription') };
}

export const meta: MetaFunction<typeof loader> = (args) => portalMeta(args, args.data?.title);

export const ErrorBoundary = RouteErrorBoundary;

type Intent = SubscriptionAction['intent'];
export type SubscriptionActionData = { ok: boolean; intent: Intent | null; message: UiMessage };

function parseAction(form: FormData): SubscriptionAction | 'no-plan' | null {
  const intent = form.get('intent');
  switch (intent) {
    case 'change': {
      const plan = form.get('plan');
      return isPlanKey(plan) ? { intent, plan } : 'no-plan';
    }
    case 'withdraw':
    case 'cancel':
    case 'resume':
      return { intent };
    default:
      return null;
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const session = await requireClient(request);
  const form = await readPostedForm(request, requestLocale(request));
  await assertSafePost(request, form, session);
  const locale = requestLocale(request);
  const parsed = parseAction(form);
  if (parsed === 'no-plan') {
    return data<SubscriptionActionData>(
      { ok: false, intent: 'change', message: { kind: 'error', key: 'messages.choosePlan' } },
      { status: 400 },
    );
  }
  if (!parsed) {
    return data<SubscriptionActionData>(
      { ok: false, intent: null, message: { kind: 'error', key: 'messages.invalidState' } },
      { status: 400 },
    );
  }
  const result = await subscriptionAction(session, parsed, locale);
  // A refused or failed action changed nothing: 409, and the page keeps what it shows.
  return data<SubscriptionActionData>(
    { ok: result.ok, intent: parsed.intent, message: result.message },
    { status: result.ok ? 200 : 409 },
  );
}

export default function AccountSubscription() {
  const { subscription, currentPlan, scheduledPlan, plans, amount, invoices, csrf, welcome } =
    useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { t } = useT('portal');
  const localize = useLocalizePath();
  const date = useFormatDate();
  const messageRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const manageable = subscription && currentPlan && subscription.status !== 'canceled';
  const note = 'rounded-2xl border p-5 md:p-6';

  return (
    <div data-testid="subscription-page">
      <header className={pageHeader}>
        <div className={portalContainer.wide}>
          <Link to={localize('/account')} className={`${textLink} text-sm`}>
            <span aria-hidden="true" className="inline-block rtl:rotate-180">
              ←
            </span>{' '}
            {t('subscription.backToAccount')}
          </Link>
          <h1 ref={headingRef} tabIndex={-1} className={`${pageTitle} mt-4 outline-none`}>
            {t('subscription.title')}
          </h1>
        </div>
      </header>

      <div className={`${portalContainer.wide} space-y-10 pb-16 md:pb-24`}>
        {welcome && subscription && currentPlan && (
          <WelcomeMessage
            planName={currentPlan.name}
            nextBilling={subscription.currentPeriodEnd}
            focusAfterClose={headingRef}
          />
        )}

        <MessageBanner message={result?.message} focusRef={messageRef} />

        {manageable ? (
          <TitledSection
            title={t('subscription.current')}
            testId="current-plan"
            className={card}
            titleClassName={titleStyle.panel}
          >
            <div className="mt-3">
              <SubscriptionSummary subscription={subscription} planName={currentPlan.name} amount={amount} />
            </div>

            {subscription.status === 'past_due' && (
              <p className={`${note} mt-5 border-red-200 bg-red-50 text-red-800`} data-testid="past-due-note">
                {t('subscription.pastDueText')}
              </p>
            )}

            {subscription.scheduledChange && (
              <div
                className={`${note} mt-5 flex flex-wrap items-center justify-between gap-4 border-gold-500/50 bg-sand-50`}
                data-testid="scheduled-change"
              >
                <p className="font-semibold text-navy-900">
                  {t('subscription.scheduled', {
                    plan: scheduledPlan?.name ?? subscription.scheduledChange.plan,
                    date: date(subscription.scheduledChange.effectiveAt),
                  })}
                </p>
                <IntentButton
                  intent="withdraw"
                  csrf={csrf}
                  label={t('subscription.withdraw')}
                  busyLabel={t('subscription.withdrawing')}
                  className={`${button.outline} min-h-11`}
                />
              </div>
            )}

            {subscription.cancelAtPeriodEnd && (
              <div className={`${note} mt-5 border-amber-300 bg-amber-50`} data-testid="cancelling">
                <p className="text-lg font-bold text-navy-900">
                  {t('subscription.accessContinues', { date: date(subscription.currentPeriodEnd) })}
                </p>
                <p className="mt-1 text-navy-800">{t('subscription.accessContinuesText')}</p>
                <div className="mt-4">
                  <IntentButton
                    intent="resume"
                    csrf={csrf}
                    label={t('subscription.resume')}
                    busyLabel={t('subscription.resuming')}
                    className={button.gold}
                  />
                </div>
              </div>
            )}

            {!subscription.cancelAtPeriodEnd && (
              <div
                className="mt-6 flex flex-wrap gap-3 border-t border-navy-100 pt-6 [&>section]:basis-full"
                data-testid="manage-actions"
              >
                <StepDialog
                  step="change"
                  triggerLabel={t('subscription.changePlan')}
                  triggerClassName={button.primary}
                  resultFocusRef={messageRef}
                >
                  {(ctx) => (
                    <ChangePlanForm
                      ctx={ctx}
                      csrf={csrf}
                      plans={plans}
                      current={currentPlan}
                      scheduled={subscription.scheduledChange?.plan ?? null}
                      effectiveAt={subscription.currentPeriodEnd}
                    />
                  )}
                </StepDialog>
                <StepDialog
                  step="cancel"
                  triggerLabel={t('subscription.cancelSubscription')}
                  triggerClassName={button.outline}
                  resultFocusRef={messageRef}
                >
                  {(ctx) => <CancelForm ctx={ctx} csrf={csrf} periodEnd={subscription.currentPeriodEnd} />}
                </StepDialog>
              </div>
            )}
          </TitledSection>
        ) : (
          <TitledSection
            title={t('subscription.none')}
            testId="no-subscription"
            className="rounded-2xl border border-navy-100 bg-sand-50 p-6 md:p-8"
            titleClassName={titleStyle.panel}
          >
            <p className="mt-2 text-navy-700">{t('subscription.noneText')}</p>
            <Link to={localize('/pricing')} className={`${button.gold} mt-5`} data-testid="see-plans">
              {t('subscription.seePlans')}
            </Link>
          </TitledSection>
        )}

        <BillingHistory invoices={invoices} />
      </div>
    </div>
  );
}
