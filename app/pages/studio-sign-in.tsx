import {
  assertSafePost,
  data,
  env,
  notFound,
  pendingEditorSignIn,
  portalT,
  readPostedForm,
  redirect,
  requestEditorCode,
  verifyEditorCode,
} from '~/server-api';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { useEffect, useId, useRef } from 'react';
import { requestLocale, RouteErrorBoundary, useLocalizePath, useT } from '~/kit';
import { button, ErrorAlert } from '~/content-kit';
import { card, CodeField, EmailField, portalMeta, PortalPage } from '~/features/portal/kit';

/**
 * /studio/sign-in (and /ar/studio/sign-in): the local Content Lake's editors sign in here with a
 * code emailed to them (app/lake/editors.server.ts, ADR 0025), then go to the Studio at /studio
 * with their token in the URL's `#token=` (the Studio keeps it in its localStorage and removes it
 * from the address). Two steps on one page: the address, then the code. The forms post as plain
 * HTML (`reloadDocument`): the last answer is a redirect to /studio, which is not a page of this
 * app. Embedded world only (the hosted world has no local lake): elsewhere, not found.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const locale = requestLocale(request);
  if (env().content.world !== 'embedded') throw await notFound(locale);
  const t = await portalT(locale);
  const params = new URL(request.url).searchParams;
  const c = params.get('c') ?? '';
  const code = params.get('code') ?? '';
  // The emailed link (?c=…&code=…) only shows a button that posts them, as the portal's does:
  // mail scanners open links, so a GET never signs anyone in or uses up a code.
  if (/^[A-Za-z0-9]{1,64}$/.test(c) && /^\d{6}$/.test(code))
    return { title: t('meta.studioSignIn'), email: null, link: { c, code } };
  const pending = params.has('again') ? null : await pendingEditorSignIn(request);
  return { title: t('meta.studioSignIn'), email: pending?.email ?? null, link: null };
}

export const meta: MetaFunction<typeof loader> = (args) => portalMeta(args, args.data?.title);

export const ErrorBoundary = RouteErrorBoundary;

type ActionData =
  | { intent: 'request-code'; error: 'invalidEmail' | 'rateLimited'; email: string }
  | { intent: 'verify'; error: 'wrongCode'; triesLeft: number }
  | { intent: 'verify'; error: 'malformed' }
  | { intent: 'verify'; error: 'expired' | 'locked' | 'rateLimited' };

export async function action({ request }: ActionFunctionArgs) {
  const locale = requestLocale(request);
  if (env().content.world !== 'embedded') throw await notFound(locale);
  const form = await readPostedForm(request, locale);
  // Signed-out forms: no session token to check, only that the post comes from this site.
  await assertSafePost(request, form, null);
  // The query (the Studio's `origin`, see studioReturn) is kept from the first step to the last.
  const { pathname, search } = new URL(request.url);
  const here = pathname + search;
  const noStore = { 'Cache-Control': 'private, no-store' };
  if (form.get('intent') === 'request-code') {
    const result = await requestEditorCode(request, form, locale);
    if (result.status === 'sent') return redirect(here, { headers: result.headers });
    // Sent back whole, as typed (the form body's size is bounded when it is read).
    const email = String(form.get('email') ?? '');
    return result.status === 'invalid-email'
      ? data<ActionData>({ intent: 'request-code', error: 'invalidEmail', email }, { status: 400 })
      : data<ActionData>({ intent: 'request-code', error: 'rateLimited', email }, { status: 429 });
  }
  const result = await verifyEditorCode(request, form);
  switch (result.status) {
    case 'signed-in':
      result.headers.set('Cache-Control', noStore['Cache-Control']);
      // To the Studio the code was asked for (its `origin`, checked then and again now).
      return redirect(`${result.next}#token=${result.token}`, { headers: result.headers });
    case 'wrong-code':
      return data<ActionData>({ intent: 'verify', error: 'wrongCode', triesLeft: result.triesLeft }, { status: 400 });
    case 'malformed':
      return data<ActionData>({ intent: 'verify', error: 'malformed' }, { status: 400 });
    case 'expired':
      return data<ActionData>({ intent: 'verify', error: 'expired' }, { status: 400 });
    case 'locked':
      return data<ActionData>({ intent: 'verify', error: 'locked' }, { status: 429 });
    case 'rate-limited':
      return data<ActionData>({ intent: 'verify', error: 'rateLimited' }, { status: 429 });
  }
}

export default function StudioSignIn() {
  const { email, link } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { t } = useT('portal');
  const localize = useLocalizePath();
  const again = new URLSearchParams(useLocation().search);
  again.set('again', '1');
  const uid = useId();
  const fieldRef = useRef<HTMLInputElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const fieldError =
    result?.intent === 'request-code' && result.error === 'invalidEmail'
      ? t('studioSignIn.errors.invalidEmail')
      : result?.intent === 'verify' && result.error === 'wrongCode'
        ? t('studioSignIn.errors.wrongCode', { count: result.triesLeft })
        : result?.intent === 'verify' && result.error === 'malformed'
          ? t('studioSignIn.errors.malformed')
          : null;
  const alert =
    result && !fieldError ? t(`studioSignIn.errors.${result.error as 'rateLimited' | 'expired' | 'locked'}`) : null;
  const fieldId = `${uid}-field`;

  // After a refused post, focus goes to what to fix: the field with its error, or the announced alert.
  useEffect(() => {
    if (fieldError) fieldRef.current?.focus();
    else if (alert) alertRef.current?.focus();
  }, [result, fieldError, alert]);

  const alertBox = alert && (
    <ErrorAlert ref={alertRef} testId="studio-signin-error" className="font-medium">
      {alert}
    </ErrorAlert>
  );

  if (link) {
    return (
      <PortalPage
        testId="studio-confirm-page"
        title={t('studioSignIn.confirmTitle')}
        intro={t('studioSignIn.confirmText')}
        width="narrow"
      >
        <div className={`${card} space-y-5`}>
          <Form method="post" reloadDocument className="space-y-5" aria-label={t('studioSignIn.confirmTitle')}>
            {alertBox}
            <input type="hidden" name="intent" value="verify" />
            <input type="hidden" name="c" value={link.c} />
            <input type="hidden" name="code" value={link.code} />
            <button type="submit" className={button.primary} data-testid="studio-confirm-submit">
              {t('studioSignIn.confirmButton')}
            </button>
          </Form>
          {result && (
            <p>
              <Link to={`${localize('/studio/sign-in')}?again=1`} reloadDocument className="underline">
                {t('studioSignIn.startAgain')}
              </Link>
            </p>
          )}
        </div>
      </PortalPage>
    );
  }

  if (!email || (result?.intent === 'request-code' && result.error)) {
    return (
      <PortalPage
        testId="studio-signin-page"
        title={t('studioSignIn.title')}
        intro={t('studioSignIn.intro')}
        width="narrow"
      >
        <div className={card}>
          <Form method="post" reloadDocument noValidate className="space-y-5" aria-label={t('studioSignIn.title')}>
            {alertBox}
            <input type="hidden" name="intent" value="request-code" />
            <EmailField
              ref={fieldRef}
              id={fieldId}
              label={t('studioSignIn.email')}
              defaultValue={result?.intent === 'request-code' ? result.email : ''}
              error={fieldError}
            />
            <button type="submit" className={button.primary} data-testid="studio-signin-submit">
              {t('studioSignIn.submit')}
            </button>
          </Form>
        </div>
      </PortalPage>
    );
  }

  return (
    <PortalPage
      testId="studio-verify-page"
      title={t('studioSignIn.codeTitle')}
      intro={t('studioSignIn.sentTo', { email: '\u2068' + email + '\u2069' })}
      width="narrow"
    >
      <div className={`${card} space-y-5`}>
        <Form method="post" reloadDocument noValidate className="space-y-5" aria-label={t('studioSignIn.codeTitle')}>
          {alertBox}
          <input type="hidden" name="intent" value="verify" />
          <CodeField
            ref={fieldRef}
            id={fieldId}
            label={t('studioSignIn.code')}
            hint={t('studioSignIn.codeHint')}
            error={fieldError}
          />
          <button type="submit" className={button.primary} data-testid="studio-verify-submit">
            {t('studioSignIn.verify')}
          </button>
        </Form>
        <p>
          <Link to={`${localize('/studio/sign-in')}?${again}`} reloadDocument className="underline">
            {t('studioSignIn.startAgain')}
          </Link>
        </p>
      </div>
    </PortalPage>
  );
}
