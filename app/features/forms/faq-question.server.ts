import { data, type ActionFunctionArgs } from '@remix-run/node';
import { requestLocale } from '~/i18n';
import { clientIp } from '~/portal/crypto.server';
import { readFormBody } from './request.server';
import { BAD_REQUEST, handleFaqQuestion, submissionDeps, type FaqResult } from './submissions.server';

/**
 * The FAQ page's action (re-exported by app/pages/faq.tsx). A plain HTML form post
 * (JavaScript off) and a Remix <Form> submission get the same answer: the page renders
 * again with the result as its action data. A body that is not a form (wrong content type,
 * broken multipart) is answered the same way, in the page's language, with 415 or 400.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') throw data(null, { status: 405, headers: { Allow: 'POST' } });
  const url = new URL(request.url);
  const body = await readFormBody(request);
  let result: FaqResult;
  if (body.ok) {
    result = await handleFaqQuestion(
      body.form,
      { page: url.pathname, locale: requestLocale(request), ip: clientIp(request) },
      await submissionDeps(),
    );
  } else {
    result = {
      status: 'rejected',
      formError: BAD_REQUEST,
      fieldErrors: {},
      values: { name: '', email: '', phone: '', question: '' },
      token: null,
      httpStatus: body.status,
    };
  }
  if (result.status === 'submitted') return data(result);
  const { httpStatus, ...rest } = result;
  return data(rest, { status: httpStatus });
}

export type FaqActionData = Awaited<ReturnType<typeof action>>['data'];
