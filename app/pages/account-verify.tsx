import {
  assertSafePost,
  data,
  getClient,
  pendingSignInEmail,
  portalT,
  readPostedForm,
  redirect,
  verifySignIn,
} from '~/server-api';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect, useId, useRef } from 'react';
import { localizePath, requestLocale, RouteErrorBoundary, useLocalizePath, useT } from '~/kit';
import { button, ErrorAlert } from '~/content-kit';
import { BusyButton, card, CodeField, portalMeta, PortalPage, textLink } from '~/features/portal/kit';

/**
 * /account/verify: the emailed code is entered here. The email's link (?c=…&code=…) only shows a
 * "Confirm sign-in" button that posts them: mail scanners open links, so a GET never signs
 * anyone in or uses up a code.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const locale = requestLocale(request);
  const t = await portalT(locale);
  const next = url.searchParams.get('next') ?? '';
  const c = url.searchParams.get('c') ?? '';
  const code = url.searchParams.get('code') ?? '';
  if (/^[A-Za-z0-9]{1,64}$/.test(c) && /^\d{6}$/.test(code)) {
    // `p=checkout`: the link confirms a payment (only the wording differs; the code decides what it does).
    const purpose = url.searchParams.get('p') === 'checkout' ? ('checkout' as const) : ('sign-in' as const);
    return { mode: 'link' as const, title: t('meta.confirm'), c, code, next, email: null, purpose };
  }
  // Already signed in and no link to confirm: nothing to do here.
  if (await getClient(request))
    throw redirect(localizePath('/account', locale), { headers: { 'Cache-Control': 'private, no-store' } });
  const pending = await pendingSignInEmail(request);
  return {
    mode: 'code' as const,
    title: t('meta.verify'),
    c: '',
    code: '',
    next,
    email: pending?.email ?? null,
    purpose: pending?.purpose ?? ('sign-in' as const),
  };
}

export const meta: MetaFunction<typeof loader> = (args) => portalMeta(args, args.data?.title);

export const ErrorBoundary = RouteErrorBoundary;

export type VerifyActionData =
  | { error: 'wrongCode'; triesLeft: number }
  | { error: 'malformed' }
  | { error: 'expired' }
  | { error: 'locked' }
  | { error: 'rateLimited' };

export async function action({ request }: ActionFunctionArgs) {
  const locale = requestLocale(request);
  const form = await readPostedForm(request, locale);
  await assertSafePost(request, form, null);
  const result = await verifySignIn(request, form, locale);
  switch (result.status) {
    case 'signed-in':
      return redirect(result.redirectTo, { headers: result.headers });
    case 'wrong-code':
      return data<VerifyActionData>({ error: 'wrongCode', triesLeft: result.triesLeft }, { status: 400 });
    case 'malformed':
      return data<VerifyActionData>({ error: 'malformed' }, { status: 400 });
    case 'expired':
      return data<VerifyActionData>({ error: 'expired' }, { status: 400 });
    case 'locked':
      return data<VerifyActionData>({ error: 'locked' }, { status: 429 });
    case 'rate-limited':
      return data<VerifyActionData>({ error: 'rateLimited' }, { status: 429 });
  }
}

export default function AccountVerify() {
  const { mode, c, code, next, email, purpose } = useLoaderData<typeof loader>();
  const paying = purpose === 'checkout';
  const result = useActionData<typeof action>();
  const { t } = useT('portal');
  const localize = useLocalizePath();
  const navigation = useNavigation();
  const uid = useId();
  const codeRef = useRef<HTMLInputElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  // Both forms (confirm from the e-mailed link, or type the code) submit with the same busy state and label.
  const submit = (label: string, testId: string) => (
    <BusyButton busy={busy} label={label} busyLabel={t('verify.checking')} testId={testId} />
  );
  const codeId = `${uid}-code`;
  const restart = `${localize('/account')}${next ? `?next=${encodeURIComponent(next)}` : ''}`;
  // A refused code is said at the field, which gets focus back with what was typed still in it.
  const wrong = (result?.error === 'wrongCode' || result?.error === 'malformed') && mode === 'code';

  useEffect(() => {
    if (!result) return;
    if (wrong) codeRef.current?.focus();
    else alertRef.current?.focus();
  }, [result, wrong]);

  const alert = result && !wrong && (
    <ErrorAlert ref={alertRef} testId="verify-error" className="font-medium">
      <p>
        {result.error === 'wrongCode'
          ? t('verify.errors.wrongCode', { count: result.triesLeft })
          : t(`verify.errors.${result.error}`)}
      </p>
      {(result.error === 'expired' || result.error === 'locked') && (
        <Link to={restart} className={`${textLink} mt-2 inline-block text-red-900`}>
          {t('verify.requestNew')}
        </Link>
      )}
    </ErrorAlert>
  );

  if (mode === 'link') {
    return (
      <PortalPage
        testId="verify-confirm-page"
        title={t(paying ? 'verify.confirmCheckoutTitle' : 'verify.confirmTitle')}
        intro={t(paying ? 'verify.confirmCheckoutText' : 'verify.confirmText')}
        width="narrow"
      >
        <div className={`${card} space-y-5`}>
          {alert}
          <Form
            method="post"
            action={`${localize('/account/verify')}${next ? `?next=${encodeURIComponent(next)}` : ''}`}
          >
            <input type="hidden" name="c" value={c} />
            <input type="hidden" name="code" value={code} />
            {next && <input type="hidden" name="next" value={next} />}
            {submit(t(paying ? 'verify.confirmCheckoutButton' : 'verify.confirmButton'), 'verify-confirm')}
          </Form>
        </div>
      </PortalPage>
    );
  }

  return (
    <PortalPage
      testId="verify-page"
      title={t(paying ? 'verify.titleCheckout' : 'verify.title')}
      intro={email && t(paying ? 'verify.sentToCheckout' : 'verify.sentTo', { email: '\u2068' + email + '\u2069' })}
      width="narrow"
    >
      {email ? (
        <div className={`${card} space-y-5`}>
          {alert}
          <Form method="post" noValidate className="space-y-5">
            {next && <input type="hidden" name="next" value={next} />}
            <CodeField
              ref={codeRef}
              id={codeId}
              label={t('verify.code')}
              hint={t('verify.codeHint')}
              error={
                !wrong
                  ? null
                  : result?.error === 'wrongCode'
                    ? t('verify.errors.wrongCode', { count: result.triesLeft })
                    : t('verify.errors.malformed')
              }
            />
            {submit(t(paying ? 'verify.submitCheckout' : 'verify.submit'), 'verify-submit')}
          </Form>
          <p className="text-navy-700">
            {t('verify.notReceived')}{' '}
            <Link to={restart} className={textLink}>
              {t('verify.requestNew')}
            </Link>
          </p>
        </div>
      ) : (
        <div className={`${card} space-y-4`} data-testid="verify-no-pending">
          {alert}
          <p className="text-navy-800">{t('verify.noPending')}</p>
          <Link to={restart} className={button.primary}>
            {t('verify.startAgain')}
          </Link>
        </div>
      )}
    </PortalPage>
  );
}
