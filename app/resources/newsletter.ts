import { data, redirect, type ActionFunctionArgs } from '@remix-run/node';
import { localeFromPath } from '~/i18n';
import { env } from '~/lib/env.server';
import { handleNewsletter, submissionDeps, type NewsletterResult } from '~/features/forms/submissions.server';
import { newsletterStatusOf, NEWSLETTER_FORM_FIELD, NEWSLETTER_JS_FIELD, NEWSLETTER_RETURN_FIELD, returnUrlWithStatus, safeReturnPath } from '~/features/forms/newsletter-status';

/**
 * POST /api/newsletter: the newsletter sign-up (footer and blog).
 * - From a fetcher (JavaScript on, the form adds `_js=1`): answers JSON, the form shows it.
 * - A plain HTML post (JavaScript off): redirects (303) back to the page the form was on,
 *   with `?newsletter={status}&newsletter_form={id}#newsletter-{id}` for the form to show.
 *   The return path comes from the form's `return_to` field, else the Referer; it must be
 *   a same-origin site path, otherwise the home page of the form's language is used.
 */
export async function loader() {
  return redirect('/', 303);
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') throw data(null, { status: 405 });
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw data(null, { status: 400 });
  }
  const origins = [new URL(request.url).origin, new URL(env().siteUrl).origin];
  const field = form.get(NEWSLETTER_RETURN_FIELD);
  const returnPath =
    safeReturnPath(typeof field === 'string' ? field : null, origins) ?? safeReturnPath(request.headers.get('Referer'), origins) ?? '/';
  const pathname = new URL(returnPath, 'http://x').pathname;
  const result: NewsletterResult = await handleNewsletter(form, { page: pathname, locale: localeFromPath(pathname) }, submissionDeps());

  if (form.get(NEWSLETTER_JS_FIELD) === '1') {
    if (result.status === 'subscribed') return Response.json({ status: 'subscribed' });
    const { httpStatus, ...body } = result;
    return Response.json(body, { status: httpStatus });
  }
  const formId = form.get(NEWSLETTER_FORM_FIELD);
  return redirect(returnUrlWithStatus(returnPath, newsletterStatusOf(result), typeof formId === 'string' ? formId : 'footer'), 303);
}
