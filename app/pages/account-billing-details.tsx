import {
  assertSafePost,
  billingDetailsPage,
  CSRF_FIELD,
  data,
  portalT,
  readPostedForm,
  requireClient,
  saveBillingDetails,
} from '~/server-api';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect, useId, useRef } from 'react';
import type { BillingDetailsField } from '~/billing/tax/details';
import { isolateCodes, requestLocale, RouteErrorBoundary, useLocalizePath, useT } from '~/kit';
import { button, ErrorAlert, FieldErrorLinks } from '~/content-kit';
import {
  BILLING_DETAILS_FIELDS,
  BillingDetailsFields,
  BusyButton,
  card,
  type Csrf,
  CsrfInput,
  hint,
  MessageBanner,
  portalMeta,
  PortalPage,
  textLink,
  type UiMessage,
} from '~/features/portal/kit';

/**
 * /account/billing-details: the client's billing details for their future tax invoices (legal
 * name, address, country, tax registration number). Works without JavaScript: a plain form
 * posted to this route's action; a refused field keeps what was typed and says what is wrong.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const session = await requireClient(request);
  const locale = requestLocale(request);
  const [page, t] = await Promise.all([billingDetailsPage(session, locale), portalT(locale)]);
  const csrf: Csrf = { name: CSRF_FIELD, value: session.csrfToken };
  return { ...page, csrf, title: t('meta.billingDetails') };
}

export const meta: MetaFunction<typeof loader> = (args) => portalMeta(args, args.data?.title);

export const ErrorBoundary = RouteErrorBoundary;

export type BillingDetailsActionData =
  | { ok: true; message: UiMessage }
  | {
      ok: false;
      message: UiMessage;
      fieldErrors: Partial<Record<BillingDetailsField, string>>;
      values: Record<BillingDetailsField, string>;
    };

export async function action({ request }: ActionFunctionArgs) {
  const session = await requireClient(request);
  const form = await readPostedForm(request, requestLocale(request));
  await assertSafePost(request, form, session);
  const result = await saveBillingDetails(session, form);
  return data<BillingDetailsActionData>(result, {
    status: result.ok ? 200 : Object.keys(result.fieldErrors).length ? 400 : 503,
  });
}

export default function AccountBillingDetails() {
  const { details, countries, suggestedName, csrf } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { t } = useT('portal');
  const localize = useLocalizePath();
  const navigation = useNavigation();
  const uid = useId();
  const summaryRef = useRef<HTMLDivElement>(null);
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const failed = result && !result.ok ? result : null;
  const errors = failed?.fieldErrors ?? {};
  const listed = BILLING_DETAILS_FIELDS.filter((f) => errors[f]);
  const idOf = (f: BillingDetailsField) => `${uid}-${f}`;

  useEffect(() => {
    if (failed) summaryRef.current?.focus();
  }, [failed]);

  // After a refusal: what was typed. Otherwise: what is on file (the saved values after a save).
  const values: Partial<Record<BillingDetailsField, string>> = failed
    ? failed.values
    : {
        legalName: details?.legalName ?? suggestedName,
        address: details?.address ?? '',
        city: details?.city ?? '',
        postalCode: details?.postalCode ?? '',
        country: details?.country ?? '',
        registrationNumber: details?.registrationNumber ?? '',
      };

  return (
    <PortalPage testId="billing-details-page" title={t('billingDetails.title')} intro={t('billingDetails.intro')}>
      <p className="mb-6">
        <Link to={localize('/account')} className={`${textLink} text-sm`}>
          <span aria-hidden="true" className="inline-block rtl:rotate-180">
            ←
          </span>{' '}
          {t('subscription.backToAccount')}
        </Link>
      </p>
      <div className="max-w-2xl space-y-6">
        {result?.ok && <MessageBanner message={result.message} />}
        {!details && !result?.ok && (
          <p
            className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950"
            data-testid="billing-details-missing"
          >
            {t('billingDetails.missing')}
          </p>
        )}
        <section className={card} aria-labelledby={`${uid}-title`}>
          <h2 id={`${uid}-title`} className="text-lg font-bold text-navy-900">
            {t('billingDetails.formTitle')}
          </h2>
          <p className={`${hint} mt-1`}>{t('billingDetails.futureOnly')}</p>
          <Form method="post" noValidate className="mt-6 space-y-5" data-testid="billing-details-form">
            {failed && (
              <ErrorAlert ref={summaryRef} testId="billing-details-error">
                <p className="font-semibold">{t(failed.message.key)}</p>
                <FieldErrorLinks fields={listed} idOf={idOf} message={(f) => isolateCodes(t(errors[f]!))} />
              </ErrorAlert>
            )}
            <CsrfInput csrf={csrf} />
            <BillingDetailsFields countries={countries} values={values} errors={errors} idOf={idOf} />
            <div className="flex flex-wrap items-center gap-4">
              <BusyButton
                busy={busy}
                label={t('billingDetails.save')}
                busyLabel={t('account.saving')}
                className={`${button.primary} min-h-11`}
                testId="billing-details-save"
              />
            </div>
          </Form>
        </section>
      </div>
    </PortalPage>
  );
}
