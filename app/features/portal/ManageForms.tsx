import { Form, useLocation, useNavigation } from '@remix-run/react';
import { useId } from 'react';
import { CheckIcon } from '~/components/icons';
import { button } from '~/components/marketing/ui';
import type { PlanKey } from '~/billing/types';
import type { PlanOption } from '~/portal/service.server';
import { useT } from '~/lib/locale';
import type { StepContext } from './StepDialog';
import { useFormatDate } from './shared';
import { dangerButton } from './ui';

/** The session's form token, as the loader gives it: the hidden field every signed-in form carries. */
export interface Csrf {
  name: string;
  value: string;
}

export function CsrfInput({ csrf }: { csrf: Csrf }) {
  return <input type="hidden" name={csrf.name} value={csrf.value} />;
}

/** True while a POST with this intent runs or its page data reloads. */
export function usePendingIntent(intent: string) {
  const navigation = useNavigation();
  return (
    navigation.state !== 'idle' && navigation.formMethod === 'POST' && navigation.formData?.get('intent') === intent
  );
}

/**
 * A form that posts to this page's own path (any ?step= or ?welcome= is left behind, so the
 * page after the POST is the plain subscription page with the outcome).
 */
function ActionForm({
  intent,
  csrf,
  children,
  className,
}: {
  intent: string;
  csrf: Csrf;
  children: React.ReactNode;
  className?: string;
}) {
  const location = useLocation();
  return (
    <Form
      method="post"
      action={location.pathname}
      preventScrollReset
      className={className}
      data-testid={`form-${intent}`}
    >
      <CsrfInput csrf={csrf} />
      <input type="hidden" name="intent" value={intent} />
      {children}
    </Form>
  );
}

/**
 * A submit button that shows its processing state (disabled, aria-busy, its busy label). Without `className` it
 * is the page's main action: gold and full width.
 */
export function BusyButton({
  busy,
  label,
  busyLabel,
  className = `${button.gold} w-full`,
  testId,
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
  className?: string;
  testId?: string;
}) {
  return (
    <button
      type="submit"
      disabled={busy}
      aria-busy={busy || undefined}
      data-testid={testId}
      className={`${className} disabled:cursor-wait disabled:opacity-70`}
    >
      {busy && (
        <span
          aria-hidden="true"
          className="size-4 animate-spin rounded-full border-2 border-current border-e-transparent"
        />
      )}
      {busy ? busyLabel : label}
    </button>
  );
}

/**
 * A confirmation step's footer: "keep" closes the dialog, the busy submit confirms. "Keep" comes first in the
 * markup and on screen at every width (above on phones, before on wider screens), so the Tab order is the order
 * seen; the confirmation stays at the end, where the eye (and on a phone the thumb) arrives last. Texts and
 * test ids follow the step's intent: `<intent>.keep`, `<intent>.confirm`, `<intent>-keep`, `<intent>-confirm`.
 */
function ConfirmActions({
  ctx,
  intent,
  busyLabel,
  className,
}: {
  ctx: StepContext;
  intent: 'change' | 'cancel';
  busyLabel: string;
  className: string;
}) {
  const { t } = useT('portal');
  const busy = usePendingIntent(intent);
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:justify-end">
      {ctx.dismiss(t(`${intent}.keep`), button.outline, `${intent}-keep`)}
      <BusyButton
        busy={busy}
        label={t(`${intent}.confirm`)}
        busyLabel={busyLabel}
        className={className}
        testId={`${intent}-confirm`}
      />
    </div>
  );
}

/** Change plan: the other packages as radio buttons, when the change takes effect, and confirm. */
export function ChangePlanForm({
  ctx,
  csrf,
  plans,
  current,
  scheduled,
  effectiveAt,
}: {
  ctx: StepContext;
  csrf: Csrf;
  plans: PlanOption[];
  current: PlanOption;
  scheduled: PlanKey | null;
  effectiveAt: string;
}) {
  const { t } = useT('portal');
  const date = useFormatDate();
  const uid = useId();
  const others = plans.filter((p) => p.key !== current.key);
  const effectiveId = `${uid}-effective`;
  if (others.length === 0) {
    return (
      <div className="space-y-4">
        <p className="text-navy-700">{t('change.noOther')}</p>
        {ctx.dismiss(t('change.keep'), button.outline, 'change-keep')}
      </div>
    );
  }
  return (
    <ActionForm intent="change" csrf={csrf} className="space-y-4">
      <p className="text-navy-700">{t('change.intro')}</p>
      <fieldset aria-describedby={effectiveId}>
        <legend className="sr-only">{t('change.options')}</legend>
        <div className="space-y-3">
          {others.map((plan) => {
            const id = `${uid}-${plan.key}`;
            return (
              <div
                key={plan.key}
                data-testid={`plan-option-${plan.key}`}
                className="relative rounded-xl border border-navy-200 p-4 has-[:checked]:border-2 has-[:checked]:border-gold-500 has-[:checked]:bg-sand-50"
              >
                <div className="flex items-start gap-3">
                  <input
                    id={id}
                    type="radio"
                    name="plan"
                    value={plan.key}
                    required
                    defaultChecked={scheduled === plan.key}
                    aria-describedby={`${id}-features`}
                    className="mt-1 size-5 shrink-0 accent-navy-900"
                  />
                  <label htmlFor={id} className="flex-1 cursor-pointer">
                    <span className="block text-lg font-bold text-navy-900">{plan.name}</span>
                    <span className="block text-navy-700">
                      <bdi className="font-semibold tabular-nums text-navy-900">{plan.price}</bdi>{' '}
                      {t('common.perMonth')}
                    </span>
                    {scheduled === plan.key && (
                      <span className="mt-1 inline-block rounded-full bg-gold-500/20 px-2 text-sm font-semibold text-gold-700">
                        {t('change.scheduled')}
                      </span>
                    )}
                  </label>
                </div>
                {plan.features.length > 0 && (
                  <ul id={`${id}-features`} className="mt-3 space-y-1.5 ps-8 text-sm text-navy-700">
                    {plan.features.slice(0, 4).map((feature) => (
                      <li key={feature} className="flex gap-2">
                        <CheckIcon className="mt-0.5 size-4 shrink-0 text-gold-700" />
                        <span>{feature}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            );
          })}
        </div>
      </fieldset>
      <p id={effectiveId} className="rounded-lg bg-navy-50 p-3 text-navy-800" data-testid="change-effective">
        {t('change.effective', { date: date(effectiveAt), plan: current.name })}
      </p>
      <ConfirmActions ctx={ctx} intent="change" busyLabel={t('change.confirming')} className={button.primary} />
    </ActionForm>
  );
}

/** "Are you sure?": keep the subscription, or cancel it at the end of the period. */
export function CancelForm({ ctx, csrf, periodEnd }: { ctx: StepContext; csrf: Csrf; periodEnd: string }) {
  const { t } = useT('portal');
  const date = useFormatDate();
  return (
    <ActionForm intent="cancel" csrf={csrf} className="space-y-5">
      <p className="leading-7 text-navy-700">{t('cancel.text', { date: date(periodEnd) })}</p>
      <ConfirmActions ctx={ctx} intent="cancel" busyLabel={t('cancel.cancelling')} className={dangerButton} />
    </ActionForm>
  );
}

/** A one-button form: Withdraw change, Resume subscription. */
export function IntentButton({
  intent,
  csrf,
  label,
  busyLabel,
  className,
}: {
  intent: 'withdraw' | 'resume';
  csrf: Csrf;
  label: string;
  busyLabel: string;
  className: string;
}) {
  const busy = usePendingIntent(intent);
  return (
    <ActionForm intent={intent} csrf={csrf}>
      <BusyButton busy={busy} label={label} busyLabel={busyLabel} className={className} testId={`${intent}-button`} />
    </ActionForm>
  );
}
