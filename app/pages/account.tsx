import {
  accountOverview,
  assertSafePost,
  CSRF_FIELD,
  data,
  getClient,
  portalT,
  readPostedForm,
  redirect,
  requestSignIn,
  signedOutHeaders,
  signOut,
  updatePreferences,
} from '~/server-api';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect, useId, useRef } from 'react';
import { locales, localizePath, requestLocale, RouteErrorBoundary, useLocalizePath, useT } from '~/kit';
import { button, ErrorAlert, TitledSection } from '~/content-kit';
import {
  BusyButton,
  card,
  type Csrf,
  CsrfInput,
  EmailField,
  hint,
  label,
  MessageBanner,
  PageHeader,
  portalContainer,
  portalMeta,
  PortalPage,
  SubscriptionSummary,
  textLink,
  type UiMessage,
  usePendingIntent,
} from '~/features/portal/kit';

/**
 * /account: signed out, the client sign-in (one email field; the code arrives by email and is
 * entered on /account/verify). Signed in, the overview: details, the language of their emails,
 * the plan at a glance, links to manage it and to the billing history, and sign out.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const locale = requestLocale(request);
  const [session, t] = await Promise.all([getClient(request), portalT(locale)]);
  if (!session) {
    return data(
      { signedIn: false as const, title: t('meta.signIn'), next: url.searchParams.get('next') ?? '' },
      // A dead session's cookie and the signed-in hint go, so the header says Client Login again.
      { headers: await signedOutHeaders(request) },
    );
  }
  const overview = await accountOverview(session, locale);
  const { name, company, email, locale: emailLocale } = overview.account;
  const csrf: Csrf = { name: CSRF_FIELD, value: session.csrfToken };
  return {
    signedIn: true as const,
    title: t('meta.account'),
    csrf,
    account: { name, company, email, locale: emailLocale },
    subscription: overview.subscription,
    planName: overview.plan?.name ?? overview.subscription?.plan ?? null,
    amount: overview.amount,
    askDetails: overview.askDetails,
  };
}

export const meta: MetaFunction<typeof loader> = (args) => portalMeta(args, args.data?.title);

export const ErrorBoundary = RouteErrorBoundary;

export type AccountActionData =
  | {
      intent: 'request-code';
      error: 'signIn.errors.invalidEmail' | 'signIn.errors.rateLimited';
      field: 'email' | null;
      email: string;
    }
  | { intent: 'preferences'; message: UiMessage };

export async function action({ request }: ActionFunctionArgs) {
  const locale = requestLocale(request);
  const form = await readPostedForm(request, locale);
  const intent = form.get('intent');

  if (intent === 'request-code') {
    // Signed-out form: no session token to check, only that the post comes from this site.
    await assertSafePost(request, form, null);
    const result = await requestSignIn(request, form, locale);
    if (result.status === 'sent') {
      const next = form.get('next');
      const query = typeof next === 'string' && next ? `?next=${encodeURIComponent(next)}` : '';
      return redirect(`${localizePath('/account/verify', locale)}${query}`, { headers: result.headers });
    }
    const email = String(form.get('email') ?? '').slice(0, 254);
    return result.status === 'invalid-email'
      ? data<AccountActionData>({ intent, error: 'signIn.errors.invalidEmail', field: 'email', email }, { status: 400 })
      : data<AccountActionData>({ intent, error: 'signIn.errors.rateLimited', field: null, email }, { status: 429 });
  }

  const session = await getClient(request);
  await assertSafePost(request, form, session);
  if (!session)
    return redirect(localizePath('/account', locale), { headers: { 'Cache-Control': 'private, no-store' } });

  if (intent === 'sign-out' || intent === 'sign-out-everywhere') {
    const headers = await signOut(request, { everywhere: intent === 'sign-out-everywhere' });
    return redirect(localizePath('/account', locale), { headers });
  }
  if (intent === 'preferences') {
    const result = await updatePreferences(session, form);
    return data<AccountActionData>({ intent, message: result.message }, { status: result.ok ? 200 : 400 });
  }
  return data<AccountActionData>(
    { intent: 'preferences', message: { kind: 'error', key: 'messages.invalidState' } },
    { status: 400 },
  );
}

export default function Account() {
  const loaderData = useLoaderData<typeof loader>();
  return loaderData.signedIn ? <Overview data={loaderData} /> : <SignIn next={loaderData.next} />;
}

function SignIn({ next }: { next: string }) {
  const { t } = useT('portal');
  const localize = useLocalizePath();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const uid = useId();
  const emailRef = useRef<HTMLInputElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const failed = result && result.intent === 'request-code' ? result : null;
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'request-code';
  const emailId = `${uid}-email`;

  useEffect(() => {
    if (!failed) return;
    if (failed.field === 'email') emailRef.current?.focus();
    else alertRef.current?.focus();
  }, [failed]);

  return (
    <PortalPage testId="signin-page" title={t('signIn.title')} intro={t('signIn.intro')} width="narrow">
      <div className={card}>
        <Form method="post" noValidate className="space-y-5" aria-label={t('signIn.title')}>
          {failed && !failed.field && (
            <ErrorAlert ref={alertRef} testId="signin-error" className="font-medium">
              {t(failed.error)}
            </ErrorAlert>
          )}
          <input type="hidden" name="intent" value="request-code" />
          {next && <input type="hidden" name="next" value={next} />}
          <EmailField
            ref={emailRef}
            id={emailId}
            label={t('signIn.email')}
            defaultValue={failed?.email ?? ''}
            error={failed?.field === 'email' ? t(failed.error) : null}
          />
          <BusyButton busy={busy} label={t('signIn.submit')} busyLabel={t('signIn.sending')} testId="signin-submit" />
        </Form>
      </div>
      <p className="mt-6 text-center text-navy-700">
        {t('signIn.newClient')}{' '}
        <Link to={localize('/pricing')} className={textLink}>
          {t('signIn.seePackages')}
        </Link>
      </p>
    </PortalPage>
  );
}

type OverviewData = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { signedIn: true }>;

function Overview({ data: { csrf, account, subscription, planName, amount, askDetails } }: { data: OverviewData }) {
  const { t } = useT('portal');
  const localize = useLocalizePath();
  const result = useActionData<typeof action>();
  const message = result && result.intent === 'preferences' ? result.message : null;
  const saving = usePendingIntent('preferences');
  const uid = useId();
  const dl = 'flex flex-wrap justify-between gap-x-4 gap-y-1 border-b border-navy-100 py-3 last:border-b-0';
  return (
    <div data-testid="account-page">
      <PageHeader title={t('account.title')}>
        <p className="mt-3 text-lg text-navy-700">{t('account.welcome', { name: account.name })}</p>
      </PageHeader>
      <div className={`${portalContainer.wide} space-y-6 pb-16 md:pb-24`}>
        <MessageBanner message={message} />
        {askDetails && (
          // Asked, never required: invoices are issued with what is known until the client answers.
          <div
            className="flex flex-wrap items-center justify-between gap-4 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950"
            data-testid="billing-details-prompt"
          >
            <p className="max-w-2xl">{t('billingDetails.prompt')}</p>
            <Link to={localize('/account/billing-details')} className={`${button.primary} min-h-11`}>
              {t('billingDetails.promptLink')}
            </Link>
          </div>
        )}
        <div className="grid gap-6 md:grid-cols-2">
          <TitledSection title={t('account.plan')} className={card} testId="account-plan">
            {subscription && planName ? (
              <div className="mt-3">
                <SubscriptionSummary subscription={subscription} planName={planName} amount={amount} />
              </div>
            ) : (
              <div className="mt-3" data-testid="no-subscription">
                <p className="font-semibold text-navy-900">{t('subscription.none')}</p>
                <Link to={localize('/pricing')} className={`${button.gold} mt-4`}>
                  {t('subscription.seePlans')}
                </Link>
              </div>
            )}
            <ul className="mt-5 flex flex-wrap gap-3">
              {subscription && (
                <li>
                  <Link to={localize('/account/subscription')} className={button.primary} data-testid="manage-link">
                    {t('account.manage')}
                  </Link>
                </li>
              )}
              <li>
                <Link
                  to={`${localize('/account/subscription')}#billing-history`}
                  className={button.outline}
                  data-testid="billing-link"
                >
                  {t('account.billingHistory')}
                </Link>
              </li>
            </ul>
          </TitledSection>

          <TitledSection title={t('account.details')} className={card} testId="account-details">
            <dl className="mt-3">
              <div className={dl}>
                <dt className="text-navy-700">{t('account.name')}</dt>
                <dd className="font-semibold">{account.name}</dd>
              </div>
              <div className={dl}>
                <dt className="text-navy-700">{t('account.company')}</dt>
                <dd className="font-semibold">{account.company || t('account.noCompany')}</dd>
              </div>
              <div className={dl}>
                <dt className="text-navy-700">{t('account.email')}</dt>
                <dd className="font-semibold break-all" dir="ltr">
                  {account.email}
                </dd>
              </div>
            </dl>
            <p className="mt-4">
              <Link to={localize('/account/billing-details')} className={textLink} data-testid="billing-details-link">
                {t('billingDetails.manage')}
              </Link>
            </p>
            <Form method="post" preventScrollReset className="mt-5" data-testid="preferences-form">
              <CsrfInput csrf={csrf} />
              <input type="hidden" name="intent" value="preferences" />
              <fieldset aria-describedby={`${uid}-lang-hint`}>
                <legend className={label}>{t('account.emailLanguage')}</legend>
                <p id={`${uid}-lang-hint`} className={`${hint} mt-1`}>
                  {t('account.emailLanguageHint')}
                </p>
                <div className="mt-3 flex flex-wrap gap-3">
                  {locales.map((l) => (
                    <label
                      key={l}
                      className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-navy-200 px-4 has-[:checked]:border-2 has-[:checked]:border-gold-500 has-[:checked]:bg-sand-50"
                    >
                      <input
                        type="radio"
                        name="locale"
                        value={l}
                        defaultChecked={account.locale === l}
                        className="size-4 accent-navy-900"
                      />
                      <span lang={l}>{t(`languages.${l}`)}</span>
                    </label>
                  ))}
                </div>
              </fieldset>
              <BusyButton
                busy={saving}
                label={t('account.save')}
                busyLabel={t('account.saving')}
                className={`${button.outline} mt-4 min-h-11`}
                testId="preferences-save"
              />
            </Form>
          </TitledSection>
        </div>

        <TitledSection title={t('account.dataTitle')} className={card} testId="account-data">
          <p id={`${uid}-data`} className="mt-2 text-navy-800">
            {t('account.dataText')}
          </p>
          {/* A plain link (no client-side navigation): the answer is a file, with or without JavaScript. */}
          <a
            href={localize('/account/personal-data')}
            download
            aria-describedby={`${uid}-data`}
            className={`${button.outline} mt-4 min-h-11`}
            data-testid="personal-data-download"
          >
            {t('account.dataDownload')}
          </a>
        </TitledSection>

        <TitledSection title={t('account.signOutTitle')} className={card} testId="account-signout">
          <div className="mt-4 flex flex-wrap items-start gap-4">
            <Form method="post">
              <CsrfInput csrf={csrf} />
              <input type="hidden" name="intent" value="sign-out" />
              <button type="submit" className={button.primary} data-testid="sign-out">
                {t('account.signOut')}
              </button>
            </Form>
            <Form method="post" className="max-w-sm">
              <CsrfInput csrf={csrf} />
              <input type="hidden" name="intent" value="sign-out-everywhere" />
              <button
                type="submit"
                className={button.outline}
                aria-describedby={`${uid}-everywhere`}
                data-testid="sign-out-everywhere"
              >
                {t('account.signOutEverywhere')}
              </button>
              <p id={`${uid}-everywhere`} className={`${hint} mt-2`}>
                {t('account.signOutEverywhereHint')}
              </p>
            </Form>
          </div>
        </TitledSection>
      </div>
    </div>
  );
}
