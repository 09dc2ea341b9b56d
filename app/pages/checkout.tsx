import {
  assertSafePost,
  checkoutPage,
  completeCheckout,
  data,
  notFound,
  portalT,
  readPostedForm,
  redirect,
} from '~/server-api';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect, useId, useRef } from 'react';
import { CheckIcon, isolateCodes, requestLocale, RouteErrorBoundary, useLocalizePath, useT } from '~/kit';
import { button, ErrorAlert, FieldErrorLinks, TitledSection, titleStyle } from '~/content-kit';
import type { BillingDetailsField } from '~/billing/tax/details';
import {
  BILLING_DETAILS_FIELDS,
  BillingDetailsFields,
  BusyButton,
  card,
  describedBy,
  FieldError,
  hint,
  input,
  label,
  portalMeta,
  PortalPage,
} from '~/features/portal/kit';
import type { CheckoutField } from '~/portal/service.server';

/**
 * /checkout/:checkoutId: the embedded billing engine's own checkout page (test cards only). The
 * card number and security code are never sent back into the form after a failed attempt.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const locale = requestLocale(request);
  const page = await checkoutPage(request, params.checkoutId ?? '', locale);
  if (!page) throw await notFound(locale);
  const t = await portalT(locale);
  return { ...page, title: t('meta.checkout', { plan: page.plan.name }) };
}

export const meta: MetaFunction<typeof loader> = (args) => portalMeta(args, args.data?.title);

export const ErrorBoundary = RouteErrorBoundary;

/** The fields kept after a failed attempt (never the card number or the security code). */
type KeptValues = { email: string; name: string; company: string; expiry: string } & Partial<
  Record<BillingDetailsField, string>
>;
export type CheckoutActionData = {
  fieldErrors: Partial<Record<CheckoutField, string>>;
  formError: string | null;
  values: KeptValues;
};

export async function action({ request, params }: ActionFunctionArgs) {
  const locale = requestLocale(request);
  const form = await readPostedForm(request, locale);
  await assertSafePost(request, form, null);
  const result = await completeCheckout(request, params.checkoutId ?? '', form, locale);
  if (result.ok) return redirect(result.redirectTo, { headers: result.headers });
  // Sent back as typed, never cut (the form body's size is bounded when it is read).
  const keep = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  const values: KeptValues = {
    email: keep('email'),
    name: keep('name'),
    company: keep('company'),
    expiry: keep('expiry'),
    ...Object.fromEntries(BILLING_DETAILS_FIELDS.map((f) => [f, keep(f)])),
  };
  const status =
    result.formError === 'checkout.errors.declined'
      ? 402
      : result.formError === 'checkout.errors.rateLimited'
        ? 429
        : 400;
  return data<CheckoutActionData>({ fieldErrors: result.fieldErrors, formError: result.formError, values }, { status });
}

type CardField = Exclude<CheckoutField, BillingDetailsField>;
const FIELD_ORDER: CheckoutField[] = [
  'email',
  'name',
  'company',
  ...BILLING_DETAILS_FIELDS,
  'cardNumber',
  'expiry',
  'cvc',
];

/** No `maxLength`: it would cut a paste (see app/features/portal/shared.tsx); the server checks lengths. */
interface FieldSpec {
  autoComplete: string;
  type?: string;
  inputMode?: 'numeric' | 'email' | 'text';
  placeholder?: string;
  optional?: boolean;
  hintKey?: string;
  /** The card number and security code: never filled in again after a failed attempt. */
  secret?: boolean;
  /** Typed left to right in both languages (addresses, card data). */
  ltr?: boolean;
}

/** The card number and the security code: digits, left to right, never sent back into the form. */
const cardSecret = { inputMode: 'numeric', secret: true, ltr: true } as const;

/** How each field is typed and filled in: its autocomplete token, keyboard, length and hints. */
const FIELDS: Record<CardField, FieldSpec> = {
  email: { type: 'email', inputMode: 'email', autoComplete: 'email', ltr: true },
  name: { autoComplete: 'name' },
  company: { autoComplete: 'organization', optional: true },
  cardNumber: { ...cardSecret, autoComplete: 'cc-number', placeholder: '4242 4242 4242 4242' },
  expiry: { autoComplete: 'cc-exp', placeholder: 'MM/YY', ltr: true },
  cvc: { ...cardSecret, autoComplete: 'cc-csc', hintKey: 'checkout.cvcHint' },
};

export default function Checkout() {
  const page = useLoaderData<typeof loader>();
  const { t } = useT('portal');
  return (
    <PortalPage testId="checkout-page" title={t('checkout.title', { plan: page.plan.name })}>
      {page.status === 'open' ? (
        <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <OrderSummary plan={page.plan} amount={page.amount} />
          <CheckoutForm
            email={page.email}
            signedIn={page.signedIn}
            amount={page.amount}
            cancelUrl={page.cancelUrl}
            countries={page.countries}
          />
        </div>
      ) : (
        <Outcome status={page.status} />
      )}
    </PortalPage>
  );
}

/** A checkout that is over (paid, or expired): what happened and the one way on. */
function Outcome({ status }: { status: 'complete' | 'expired' }) {
  const { t } = useT('portal');
  const localize = useLocalizePath();
  const { title, text, link } =
    status === 'complete'
      ? {
          title: t('checkout.completeTitle'),
          text: t('checkout.completeText'),
          link: { to: '/account/subscription', label: t('checkout.completeLink') },
        }
      : {
          title: t('checkout.expiredTitle'),
          text: t('checkout.expiredText'),
          link: { to: '/pricing', label: t('checkout.expiredLink') },
        };
  return (
    <TitledSection
      testId={`checkout-${status}`}
      title={title}
      className={`${card} max-w-2xl`}
      titleClassName={titleStyle.panel}
    >
      <p className="mt-2 text-navy-700">{text}</p>
      <Link to={localize(link.to)} className={`${button.primary} mt-5`}>
        {link.label}
      </Link>
    </TitledSection>
  );
}

function OrderSummary({
  plan,
  amount,
}: {
  plan: { name: string; price: string; features: string[]; timeCommitment: string | null };
  amount: string;
}) {
  const { t } = useT('portal');
  return (
    <TitledSection
      title={t('checkout.summary')}
      className="rounded-2xl bg-navy-900 p-6 text-white shadow-sm md:p-8"
      titleClassName="text-sm font-semibold uppercase tracking-wider text-gold-300"
      testId="checkout-summary"
    >
      <p className="mt-3 text-2xl font-bold">{plan.name}</p>
      {plan.timeCommitment && <p className="mt-1 text-navy-100">{plan.timeCommitment}</p>}
      <p className="mt-5 flex flex-wrap items-baseline gap-x-2">
        <bdi className="text-3xl font-bold tabular-nums" data-testid="checkout-amount">
          {amount}
        </bdi>
        <span className="text-navy-100">{t('common.perMonth')}</span>
      </p>
      {plan.features.length > 0 && (
        <ul className="mt-6 space-y-2 border-t border-white/15 pt-6">
          {plan.features.map((feature) => (
            <li key={feature} className="flex gap-2.5 leading-6">
              <CheckIcon className="mt-0.5 size-5 shrink-0 text-gold-300" />
              <span>{feature}</span>
            </li>
          ))}
        </ul>
      )}
      <p className="mt-6 text-sm text-navy-100">{t('checkout.billedMonthly')}</p>
    </TitledSection>
  );
}

function CheckoutForm({
  email,
  signedIn,
  amount,
  cancelUrl,
  countries,
}: {
  email: string | null;
  signedIn: boolean;
  amount: string;
  cancelUrl: string;
  countries: { code: string; name: string }[];
}) {
  const { t } = useT('portal');
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const uid = useId();
  const summaryRef = useRef<HTMLDivElement>(null);
  const secretRefs = useRef<Partial<Record<CardField, HTMLInputElement | null>>>({});
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const errors = result?.fieldErrors ?? {};
  const listed = FIELD_ORDER.filter((f) => errors[f] && errors[f] !== result?.formError);
  const idOf = (f: CheckoutField) => `${uid}-${f}`;

  // After a failed attempt (JavaScript on): the card number and code are emptied, focus goes to the summary.
  useEffect(() => {
    if (!result) return;
    for (const el of Object.values(secretRefs.current)) if (el) el.value = '';
    summaryRef.current?.focus();
  }, [result]);

  /** A field of the FIELDS table; `defaultValue` is what the visitor typed before (never for a secret field). */
  const field = (name: CardField, defaultValue?: string) => {
    const props = FIELDS[name];
    const id = idOf(name);
    const errorKey = errors[name];
    const hintId = props.hintKey ? `${id}-hint` : null;
    return (
      <div>
        <label htmlFor={id} className={label}>
          {t(`checkout.${name}`)}
          {props.optional && <span className="ms-1 font-normal text-navy-700">({t('common.optional')})</span>}
        </label>
        {props.hintKey && (
          <p id={hintId!} className={`${hint} mt-0.5`}>
            {t(props.hintKey)}
          </p>
        )}
        <input
          ref={props.secret ? (el) => void (secretRefs.current[name] = el) : undefined}
          id={id}
          name={name}
          type={props.type ?? 'text'}
          inputMode={props.inputMode}
          autoComplete={props.autoComplete}
          placeholder={props.placeholder}
          required={!props.optional}
          defaultValue={props.secret ? '' : defaultValue}
          dir={props.ltr ? 'ltr' : undefined}
          aria-invalid={errorKey ? true : undefined}
          aria-describedby={describedBy(hintId, errorKey && `${id}-error`)}
          className={`${input} mt-1 ${props.ltr ? 'rtl:text-right' : ''}`}
        />
        {errorKey && <FieldError id={`${id}-error`}>{t(errorKey)}</FieldError>}
      </div>
    );
  };

  const kept = result?.values;
  const legend = 'text-lg font-bold text-navy-900';
  return (
    <section aria-labelledby={`${uid}-title`} className={card} data-testid="checkout-form">
      <h2 id={`${uid}-title`} className="sr-only">
        {t('checkout.formTitle')}
      </h2>
      <p className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950" data-testid="checkout-test-mode">
        {t('checkout.testMode')}
      </p>
      <Form method="post" noValidate className="mt-6 space-y-6" aria-labelledby={`${uid}-title`}>
        {result && (result.formError || listed.length > 0) && (
          <ErrorAlert ref={summaryRef} testId="checkout-error">
            {result.formError ? (
              <p className="font-semibold">{t(result.formError)}</p>
            ) : (
              <p className="font-semibold">{t('common.errorTitle')}</p>
            )}
            <FieldErrorLinks fields={listed} idOf={idOf} message={(f) => isolateCodes(t(errors[f]!))} />
          </ErrorAlert>
        )}
        <fieldset className="space-y-4">
          <legend className={legend}>{t('checkout.details')}</legend>
          {field('email', kept?.email ?? email ?? '')}
          {field('name', kept?.name ?? '')}
          {field('company', kept?.company ?? '')}
        </fieldset>
        <fieldset className="space-y-4" data-testid="checkout-billing-details">
          <legend className={legend}>{t('checkout.billingDetails')}</legend>
          <p className={hint}>{t('checkout.billingDetailsHint')}</p>
          <BillingDetailsFields countries={countries} values={kept ?? {}} errors={errors} idOf={idOf} />
        </fieldset>
        <fieldset className="space-y-4">
          <legend className={legend}>{t('checkout.payment')}</legend>
          {field('cardNumber')}
          <div className="grid gap-4 sm:grid-cols-2">
            {field('expiry', kept?.expiry ?? '')}
            {field('cvc')}
          </div>
        </fieldset>
        <p className={hint}>{t('checkout.secure')}</p>
        {!signedIn && <p className={hint}>{t('checkout.confirmHint')}</p>}
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <BusyButton
            busy={busy}
            label={t('checkout.pay', { price: amount })}
            busyLabel={t('checkout.paying')}
            className={`${button.gold} w-full sm:w-auto`}
            testId="checkout-pay"
          />
          <Link
            to={cancelUrl}
            className="inline-flex min-h-11 items-center justify-center font-semibold text-navy-900 underline decoration-gold-500 decoration-2 underline-offset-4"
          >
            {t('checkout.cancel')}
          </Link>
        </div>
      </Form>
    </section>
  );
}
