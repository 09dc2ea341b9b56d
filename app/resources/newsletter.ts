import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { localeFromPath } from '~/i18n';
import { env } from '~/lib/env.server';
import { formText, readFormBody } from '~/features/forms/request.server';
import {
  BAD_REQUEST,
  handleNewsletter,
  submissionDeps,
  type NewsletterResult,
} from '~/features/forms/submissions.server';
import {
  newsletterStatusOf,
  NEWSLETTER_FORM_FIELD,
  NEWSLETTER_JS_FIELD,
  NEWSLETTER_RETURN_FIELD,
  returnUrlWithStatus,
} from '~/features/forms/newsletter-status';
import { safeReturnPath } from '~/lib/return-path';
import { clientIp } from '~/portal/crypto.server';

/**
 * POST /api/newsletter: the newsletter sign-up (footer and blog).
 * - From a fetcher (JavaScript on, the form adds `_js=1`): answers JSON, the form shows it.
 *   A refusal carries only what the form shows: `{ status, formError: { titleKey, messageKey }, token }`.
 * - A plain HTML post (JavaScript off): redirects (303) back to the page the form was on,
 *   with `?newsletter={status}&newsletter_form={id}#newsletter-{id}` for the form to show.
 *   The return path comes from the form's `return_to` field, else the Referer; it must be
 *   a same-origin site path, otherwise the home page of the form's language is used.
 * - A body that is not a form (JSON, plain text, broken multipart) or another method: a short
 *   plain-text refusal (415, 400 or 405) in the page's language, and nothing is stored.
 */
export async function loader() {
  return redirect('/', 303);
}

function refusal(status: number, locale: 'en' | 'ar', extra: Record<string, string> = {}) {
  const body = `${formText(locale, BAD_REQUEST.titleKey)} - ${formText(locale, BAD_REQUEST.messageKey)}\n`;
  return new Response(body, {
    status,
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Language': locale,
      'Cache-Control': 'no-store',
      ...extra,
    },
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const origins = [new URL(request.url).origin, new URL(env().siteUrl).origin];
  const pathOf = (raw: string | null) => {
    const safe = safeReturnPath(raw, origins) ?? safeReturnPath(request.headers.get('Referer'), origins) ?? '/';
    return { returnPath: safe, pathname: new URL(safe, 'http://x').pathname };
  };
  if (request.method !== 'POST') return refusal(405, localeFromPath(pathOf(null).pathname), { Allow: 'POST' });
  const body = await readFormBody(request, NEWSLETTER_RETURN_FIELD);
  if (!body.ok) return refusal(body.status, localeFromPath(pathOf(body.returnTo).pathname));
  const form = body.form;
  const field = form.get(NEWSLETTER_RETURN_FIELD);
  const { returnPath, pathname } = pathOf(typeof field === 'string' ? field : null);
  const result: NewsletterResult = await handleNewsletter(
    form,
    { page: pathname, locale: localeFromPath(pathname), ip: clientIp(request) },
    await submissionDeps(),
  );

  if (form.get(NEWSLETTER_JS_FIELD) === '1') {
    if (result.status === 'subscribed') return Response.json({ status: 'subscribed' });
    const { status, formError, token, httpStatus } = result;
    return Response.json(
      { status, formError: { titleKey: formError.titleKey, messageKey: formError.messageKey }, token },
      { status: httpStatus },
    );
  }
  const formId = form.get(NEWSLETTER_FORM_FIELD);
  const token = result.status === 'subscribed' ? null : result.token;
  return redirect(
    returnUrlWithStatus(returnPath, newsletterStatusOf(result), typeof formId === 'string' ? formId : 'footer', token),
    303,
  );
}
